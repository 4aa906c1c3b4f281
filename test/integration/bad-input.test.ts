import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_DOMAIN_TOOLS, ENDPOINT_TOOLS } from '../../functions/all-tools.js';
import { ErrorResponseSchema } from '../../functions/shared/tools/errors.js';
import { connectClient, startTestServer, type TestServer } from '../support/test-server.js';

const NAMES = [...ALL_DOMAIN_TOOLS, ...ENDPOINT_TOOLS].map((tool) => `tn_${tool.name}`);

/** Malformed inputs every tool must refuse with a named-field BAD_REQUEST, never a 500. */
const BAD_INPUTS: [string, unknown][] = [
  ['an array instead of an object', [1, 2, 3]],
  ['a string instead of an object', 'hello'],
  ['an unknown field of the wrong type', { limit: 'many', cursor: 42, provider: 7, tutoringStyle: ['x'], domain: 5, __proto__x: {} }],
  ['a huge string', { apiKey: 'x'.repeat(100_000), tag: 'y'.repeat(10_000), language: 'z'.repeat(5000) }],
];

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

describe.each(NAMES)('%s with bad input', (name) => {
  it.each(BAD_INPUTS)('%s → BAD_REQUEST (REST)', async (_label, input) => {
    const { status, body } = await server.rest(name, input);
    expect(status).toBe(400);
    const error = ErrorResponseSchema.parse(body);
    expect(error.code).toBe('BAD_REQUEST');
    expect(error.details?.fields?.length).toBeGreaterThan(0);
  });

  it('invalid JSON → BAD_REQUEST (REST)', async () => {
    const { status, body } = await server.rest(name, '{"not json');
    expect(status).toBe(400);
    expect(body.code).toBe('BAD_REQUEST');
  });
});

describe('bad input over MCP', () => {
  it('answers every tool called with a non-object argument set with an isError BAD_REQUEST, never a protocol crash', async () => {
    const client = await connectClient(server.url);
    try {
      for (const name of NAMES) {
        const result = await client.callTool({ name, arguments: { limit: -5, cursor: 12, provider: 'nope', includeSchemas: 'yes', credentialId: 'x' } });
        expect(result.isError, name).toBe(true);
        expect((result.structuredContent as any).code, name).toBe('BAD_REQUEST');
      }
    } finally {
      await client.close();
    }
  });
});
