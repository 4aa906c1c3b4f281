import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_DOMAIN_TOOLS, ENDPOINT_TOOLS } from '../../functions/all-tools.js';
import { ErrorResponseSchema } from '../../functions/mcp/tools/errors.js';
import { BAD_INPUTS } from '../support/bad-inputs.js';
import { errorResponseOf } from '../support/mcp-clients.js';
import { connectClient, startTestServer, type TestServer } from '../support/test-server.js';

const NAMES = [...ALL_DOMAIN_TOOLS, ...ENDPOINT_TOOLS].map((tool) => `tn_${tool.name}`);

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
        expect(errorResponseOf(result).code, name).toBe('BAD_REQUEST');
      }
    } finally {
      await client.close();
    }
  });
});
