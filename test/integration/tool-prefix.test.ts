import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_DOMAIN_TOOLS } from '../../functions/all-tools.js';
import { connectClient, startTestServer, type TestServer } from '../support/test-server.js';

/**
 * Seed 002's configurable prefix, honoured everywhere a tool is named: not only the served names
 * but every description, schema, error message, hint and instruction an agent reads.
 */
let server: TestServer;
const DEFAULT_NAME = /\btn_(session|course|transfer|user|tools)_[a-z]/;

beforeAll(async () => {
  server = await startTestServer({ TN_TOOL_PREFIX: 'edu_' }, { catalog: 'shared' });
});
afterAll(async () => server?.close());

describe('a deployment with TN_TOOL_PREFIX=edu_', () => {
  it('lists every tool under the prefix, and no description or schema names a tool by the default prefix', async () => {
    const client = await connectClient(server.url);
    const { tools } = await client.listTools();
    expect(tools.length).toBe(ALL_DOMAIN_TOOLS.length + 1);
    for (const tool of tools) expect(tool.name.startsWith('edu_'), tool.name).toBe(true);
    const mentions = JSON.stringify(tools).match(new RegExp(DEFAULT_NAME, 'g'));
    expect(mentions).toBeNull();
    expect(JSON.stringify(tools)).toContain('edu_session_ask');
    await client.close();
  });

  it('answers every tool example without pointing an agent at a default-prefix name', async () => {
    const client = await connectClient(server.url);
    let named = 0;
    for (const definition of ALL_DOMAIN_TOOLS) {
      for (const example of definition.examples) {
        // The whole result an agent reads: text, hints, instruction, next step, ErrorResponse.
        const said = JSON.stringify(await client.callTool({ name: `edu_${definition.name}`, arguments: example.input }));
        expect(said, `${definition.name}: ${example.description}`).not.toMatch(DEFAULT_NAME);
        if (/edu_[a-z]+_[a-z]/.test(said)) named++;
      }
    }
    expect(named).toBeGreaterThan(10);
    await client.close();
  });

  it('names tools by the prefix in prompts and resource descriptions, and reads resources through the prefixed tools', async () => {
    const client = await connectClient(server.url);
    const prompt = await client.getPrompt({ name: 'plan-my-transfer', arguments: { from: 'langara', to: 'sfu', courses: 'langara:CPSC 1181' } });
    expect(JSON.stringify(prompt)).toContain('edu_transfer_resolve');
    const listed = JSON.stringify([await client.listPrompts(), await client.listResourceTemplates(), await client.listResources()]);
    expect(listed).not.toMatch(DEFAULT_NAME);
    expect(listed).toContain('edu_course_get');
    const course = await client.readResource({ uri: 'course://sfu/CMPT%20225' });
    expect(JSON.stringify(course)).toContain('Data Structures');
    // An MCP Apps view calls tools back through the host by the names this deployment serves.
    const view = await client.readResource({ uri: 'ui://tutor-nexus/prerequisite-tree' });
    expect((view.contents[0] as { text: string }).text).toContain('<meta name="tn-tool-prefix" content="edu_">');
    await client.close();
  });

  it('serves the OpenAPI document with the prefix in paths and prose', async () => {
    const text = await (await fetch(`${server.url}/openapi.json`)).text();
    expect(text).toContain('/v1/tools/edu_session_ask');
    expect(text).not.toMatch(DEFAULT_NAME);
  });
});
