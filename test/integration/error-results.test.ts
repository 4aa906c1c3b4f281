import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_DOMAIN_TOOLS, ENDPOINT_TOOLS } from '../../functions/all-tools.js';
import { createPersonalAccessToken } from '../../functions/platform/auth/personal-access-tokens.js';
import { BAD_ARGUMENT_OBJECTS } from '../support/bad-inputs.js';
import { CLIENT_KINDS, connectAnyClient, errorResponseOf, type AnyClient } from '../support/mcp-clients.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const TOOLS = [...ALL_DOMAIN_TOOLS, ...ENDPOINT_TOOLS];
const ERROR_EXAMPLES = TOOLS.flatMap((tool) =>
  tool.examples.filter((example) => example.expect !== 'success').map((example) => ({ name: `tn_${tool.name}`, example })),
);

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({}, { catalog: 'shared' });
});
afterAll(async () => {
  await server?.close();
});

/**
 * Every client a host embeds must show an error result as the ErrorResponse: the v1 SDK client
 * validates any structuredContent against the tool's outputSchema, even on isError results, and
 * throws when it does not match.
 */
describe.each(CLIENT_KINDS)('error results through the %s client', (kind) => {
  let client: AnyClient;
  beforeAll(async () => {
    const { token } = await createPersonalAccessToken(server.services.store, { userId: `errors-${kind}` });
    client = await connectAnyClient(kind, server.url, { token });
    // Hosts list tools first; the v1 client keeps each outputSchema from the listing to validate with.
    const { tools } = await client.listTools();
    expect(tools.filter((tool) => tool.outputSchema).length).toBe(TOOLS.length);
  });
  afterAll(async () => {
    await client?.close();
  });

  it('has error examples to run', () => {
    expect(ERROR_EXAMPLES.length).toBeGreaterThan(15);
  });

  it.each(ERROR_EXAMPLES.map(({ name, example }) => [`${name}: ${example.description}`, name, example] as const))(
    '%s',
    async (_label, name, example) => {
      const result = await client.callTool({ name, arguments: example.input });
      expect(errorResponseOf(result).code).toBe(example.expect);
    },
  );

  it.each(BAD_ARGUMENT_OBJECTS)('every tool refuses %s with a readable BAD_REQUEST', async (_label, input) => {
    for (const tool of TOOLS) {
      const name = `tn_${tool.name}`;
      const error = errorResponseOf(await client.callTool({ name, arguments: input }));
      expect(error.code, name).toBe('BAD_REQUEST');
      expect(error.details?.fields?.length, name).toBeGreaterThan(0);
    }
  });

  it('still validates and returns structuredContent on success', async () => {
    const result = await client.callTool({ name: 'tn_course_get', arguments: { course: 'sfu:CMPT 225' } });
    expect(result.isError).toBeFalsy();
    expect((result.structuredContent as { code: string }).code).toBe('CMPT 225');
  });

  it('takes the seed\'s RFC 3339 date-time for asOfDate', async () => {
    const result = await client.callTool({
      name: 'tn_transfer_resolve',
      arguments: { sourceInstitution: 'langara', targetInstitution: 'sfu', sourceCourses: ['CPSC 1160'], asOfDate: '2023-03-01T00:00:00Z' },
    });
    expect(result.isError).toBeFalsy();
    expect((result.structuredContent as { asOfDate: string }).asOfDate).toBe('2023-02-28');
  });

  it('refuses a user tool to an anonymous caller at the HTTP level (401), which the client reports as such', async () => {
    const anonymous = await connectAnyClient(kind, server.url, { token: null });
    try {
      await anonymous.listTools();
      await expect(anonymous.callTool({ name: 'tn_user_byok_add', arguments: { provider: 'openai', apiKey: 'sk-test-0123456789abcdef' } })).rejects.toThrow(/needs a signed-in user/);
    } finally {
      await anonymous.close();
    }
  });
});
