import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_DOMAIN_TOOLS, ENDPOINT_TOOLS } from '../../functions/all-tools.js';
import { createPersonalAccessToken } from '../../functions/platform/auth/personal-access-tokens.js';
import { ErrorResponseSchema } from '../../functions/mcp/tools/errors.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const TOOLS = [...ALL_DOMAIN_TOOLS, ...ENDPOINT_TOOLS];

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({}, { catalog: 'shared' });
});
afterAll(async () => {
  await server?.close();
});

/** Seed 001: every example is executable documentation. Each runs as a fresh user. */
describe.each(TOOLS.map((tool) => [`tn_${tool.name}`, tool] as const))('%s examples', (name, tool) => {
  it.each(tool.examples.map((example) => [example.description, example] as const))('%s', async (_description, example) => {
    const { token } = await createPersonalAccessToken(server.services.store, { userId: `example-${name}-${Math.random()}` });
    const { status, body } = await server.rest(name, example.input, token);
    if (example.expect === 'success') {
      expect(status, JSON.stringify(body)).toBe(200);
      const output = tool.output.safeParse(body);
      expect(output.success, JSON.stringify(output.error?.issues)).toBe(true);
    } else {
      expect(ErrorResponseSchema.parse(body).code).toBe(example.expect);
    }
  });
});
