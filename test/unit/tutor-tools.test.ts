import { describe, expect, it } from 'vitest';
import { TUTOR_LOOKUPS, withoutKeyConstraints } from '../../functions/session/tutor/tutor-tools.js';
import { jsonSchemasOf } from '../../functions/mcp/tools/json-schemas.js';

describe('the tutor\'s lookup tools as the model sees them', () => {
  it('carry no key constraints a provider would strip with a warning, and keep everything else', () => {
    const schemas = TUTOR_LOOKUPS.map((contract) => jsonSchemasOf(contract).input);
    // Some lookup has a record keyed by a pattern (course codes): the case this guards.
    expect(schemas.some((schema) => JSON.stringify(schema).includes('"propertyNames"'))).toBe(true);
    for (const schema of schemas) {
      const offered = withoutKeyConstraints(schema) as { properties: Record<string, unknown> };
      expect(JSON.stringify(offered)).not.toContain('"propertyNames"');
      expect(Object.keys(offered.properties)).toEqual(Object.keys((schema as { properties: Record<string, unknown> }).properties));
    }
  });
});
