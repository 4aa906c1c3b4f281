import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_DOMAIN_TOOLS, ENDPOINT_TOOLS } from '../../functions/all-tools.js';
import { createPersonalAccessToken } from '../../functions/platform/auth/personal-access-tokens.js';
import { ErrorResponseSchema } from '../../functions/mcp/tools/errors.js';
import { jsonSchemasOf } from '../../functions/mcp/tools/json-schemas.js';
import { createFuzzer } from '../support/input-fuzzer.js';
import { connectAnyClient, errorResponseOf, type AnyClient } from '../support/mcp-clients.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/** Every tool, including one added tomorrow, is fuzzed: the list comes from the registry's sources. */
const TOOLS = [...ALL_DOMAIN_TOOLS, ...ENDPOINT_TOOLS];
const SEED = Number(process.env.TN_FUZZ_SEED ?? 20261124);
const CASES_PER_TOOL = 8;
const BYOK_SECRET = 'sk-proj-FUZZsecretFUZZsecretFUZZ4242';
const MAX_ERROR_BYTES = 16 * 1024;

let server: TestServer;
let token: string;
let client: AnyClient;
beforeAll(async () => {
  server = await startTestServer({}, { catalog: 'shared' });
  ({ token } = await createPersonalAccessToken(server.services.store, { userId: 'fuzzed-user' }));
  const added = await server.rest('tn_user_byok_add', { provider: 'openai', apiKey: BYOK_SECRET }, token);
  expect(added.status).toBe(200);
  client = await connectAnyClient('v1', server.url, { token });
  await client.listTools();
});
afterAll(async () => {
  await client?.close();
  await server?.close();
});

function expectNothingLeaked(text: string, where: string): void {
  expect(text, where).not.toContain(BYOK_SECRET);
  expect(text, where).not.toContain(token);
  expect(text, where).not.toMatch(/\n\s+at .+:\d+:\d+/);
  expect(text, where).not.toMatch(/\.ts:\d+/);
}

describe(`fuzzing every tool (seed ${SEED}; TN_FUZZ_SEED replays another)`, () => {
  const fuzzer = createFuzzer(SEED);
  const cases = TOOLS.flatMap((tool) => {
    const fields = Object.keys((jsonSchemasOf(tool).input.properties ?? {}) as Record<string, unknown>);
    const base = tool.examples.find((example) => example.expect === 'success')?.input ?? {};
    return Array.from({ length: CASES_PER_TOOL }, (_, i) => ({ tool, fuzz: fuzzer.mutate(base, fields), index: i }));
  });

  it.each(cases.map((c) => [`tn_${c.tool.name} #${c.index}: ${c.fuzz.label}`, c] as const))('%s', async (where, { tool, fuzz }) => {
    const name = `tn_${tool.name}`;
    const response = await fetch(`${server.url}/v1/tools/${name}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: fuzz.body });
    const text = await response.text();
    expectNothingLeaked(text, where);
    const body = JSON.parse(text);
    if (response.status === 200) {
      expect(tool.output.safeParse(body).success, where).toBe(true);
    } else {
      const error = ErrorResponseSchema.parse(body);
      expect(error.code, `${where}: ${error.message}`).not.toBe('INTERNAL_ERROR');
      expect(response.status, where).toBeLessThan(500);
      expect(text.length, where).toBeLessThan(MAX_ERROR_BYTES);
      if (error.code === 'BAD_REQUEST') expect(error.details?.fields?.length, where).toBeGreaterThan(0);
    }

    if (!fuzz.isObject) return;
    const result = await client.callTool({ name, arguments: JSON.parse(fuzz.body) as Record<string, unknown> });
    expectNothingLeaked(JSON.stringify(result), `${where} (MCP)`);
    if (result.isError) expect(errorResponseOf(result).code, `${where} (MCP)`).not.toBe('INTERNAL_ERROR');
    else expect(tool.output.safeParse(result.structuredContent).success, `${where} (MCP)`).toBe(true);
  });

  it('leaves the fuzzed user\'s stored data readable and intact', async () => {
    const keys = await server.rest('tn_user_byok_list', {}, token);
    expect(keys.status).toBe(200);
    expect(keys.body.items.map((item: { last4: string }) => item.last4)).toContain(BYOK_SECRET.slice(-4));
    for (const tool of ['tn_user_preferences_get', 'tn_user_quota', 'tn_user_subscription']) {
      expect((await server.rest(tool, {}, token)).status, tool).toBe(200);
    }
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });
});
