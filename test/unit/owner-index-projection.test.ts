import { describe, expect, it } from 'vitest';
import { OWNER_INDEX_ATTRIBUTES } from '../../functions/session/session-list-store.js';
import { TABLE_DEFINITION } from '../../functions/platform/store/table-definition.js';

describe('the owner index (GSI1)', () => {
  it('projects what tn_session_list reads of each session, whatever else it projects', () => {
    const gsi1 = TABLE_DEFINITION.globalSecondaryIndexes.find((index) => index.indexName === 'GSI1')!;
    expect(gsi1).toBeDefined();
    // No attribute list means every attribute (ALL); a list must name each one the sessions list reads.
    const projected: readonly string[] | undefined = 'nonKeyAttributes' in gsi1 ? (gsi1.nonKeyAttributes as readonly string[]) : undefined;
    if (projected) expect(OWNER_INDEX_ATTRIBUTES.filter((name) => !projected.includes(name))).toEqual([]);
    expect(OWNER_INDEX_ATTRIBUTES).not.toContain('course');
    expect(OWNER_INDEX_ATTRIBUTES).not.toContain('summary');
  });
});
