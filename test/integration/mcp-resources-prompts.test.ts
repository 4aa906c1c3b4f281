import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_KINDS, type ClientKind } from '../support/mcp-clients.js';
import { connectClient, SECOND_TOKEN, startTestServer, TEST_TOKEN, type TestServer } from '../support/test-server.js';
import { findInstitution } from '../../functions/catalog/institutions.js';

/** What these tests need of either SDK's client: the host-facing surface beside tools. */
interface SurfaceClient {
  listResources(): Promise<{ resources: { uri: string; name: string; icons?: unknown[] }[] }>;
  listResourceTemplates(): Promise<{ resourceTemplates: { uriTemplate: string; name: string }[] }>;
  readResource(params: { uri: string }): Promise<{ contents: { uri: string; mimeType?: string; text?: string }[] }>;
  listPrompts(): Promise<{ prompts: { name: string; arguments?: { name: string; required?: boolean }[]; icons?: unknown[] }[] }>;
  getPrompt(params: { name: string; arguments?: Record<string, string> }): Promise<{ messages: { role: string; content: { type: string; text?: string } }[] }>;
  complete(params: { ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string }; argument: { name: string; value: string }; context?: { arguments?: Record<string, string> } }): Promise<{ completion: { values: string[]; total?: number; hasMore?: boolean } }>;
  listTools(): Promise<{ tools: { name: string; icons?: { src: string }[] }[]; ttlMs?: number; cacheScope?: string; _meta?: Record<string, unknown> }>;
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<{ content: { type: string; uri?: string; text?: string }[] }>;
  getServerVersion(): { icons?: { src: string }[] } | undefined;
  close(): Promise<void>;
}

async function connect(kind: ClientKind, url: string, token: string | null = TEST_TOKEN): Promise<SurfaceClient> {
  if (kind !== 'v1') return (await connectClient(url, { token, era: kind === 'v2-modern' ? 'modern' : 'legacy' })) as unknown as SurfaceClient;
  const client = new V1Client({ name: 'tutor-nexus-tests-v1', version: '1.0.0' });
  await client.connect(new V1Transport(new URL(`${url}/mcp`), { requestInit: token ? { headers: { authorization: `Bearer ${token}` } } : undefined }));
  return client as unknown as SurfaceClient;
}

let server: TestServer;
let sessionId: string;
let ruleId: string;
beforeAll(async () => {
  server = await startTestServer({}, { catalog: 'shared' });
  const started = await server.rest('tn_session_start', { course: 'sfu:CMPT 225', topic: 'trees' });
  sessionId = started.body.sessionId;
  await server.rest('tn_session_ask', { sessionId, message: 'What is an AVL tree?', draft: true });
  const resolved = await server.rest('tn_transfer_resolve', { sourceInstitution: 'langara', targetInstitution: 'sfu', sourceCourses: ['CPSC 1181'], asOfDate: '2023-01-01' }, null);
  ruleId = resolved.body.exactMatches[0].ruleId;
}, 60_000);
afterAll(async () => {
  await server?.close();
});

const byMime = (contents: { mimeType?: string; text?: string }[], mimeType: string) => contents.find((c) => c.mimeType === mimeType)?.text ?? '';

describe.each(CLIENT_KINDS)('resources, prompts and completions (%s client)', (kind) => {
  let client: SurfaceClient;
  beforeAll(async () => {
    client = await connect(kind, server.url);
  });
  afterAll(async () => {
    await client?.close();
  });

  it('lists resources and templates, with icons', async () => {
    const { resources } = await client.listResources();
    // Beside the catalog, the MCP Apps views (listed so a host can review and prefetch them; test/browser/mcp-app-views.test.ts renders them).
    expect(resources.filter((r) => !r.uri.startsWith('ui://')).map((r) => r.uri)).toEqual(['catalog://institutions']);
    expect(resources.filter((r) => r.uri.startsWith('ui://')).length).toBeGreaterThan(0);
    expect(resources.every((r) => (r.icons?.length ?? 0) > 0)).toBe(true);
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate).sort()).toEqual(['course://{institution}/{code}', 'session://{sessionId}/transcript', 'transfer-rule://{ruleId}']);
  });

  it('reads a course as markdown and as the tn_course_get JSON', async () => {
    const { contents } = await client.readResource({ uri: 'course://sfu/CMPT%20225' });
    expect(byMime(contents, 'text/markdown')).toMatch(/^# sfu:CMPT 225 — Data Structures and Programming/);
    expect(JSON.parse(byMime(contents, 'application/json'))).toMatchObject({ ref: 'sfu:CMPT 225', credits: 3 });
    await expect(client.readResource({ uri: 'course://sfu/CMPT%20226' })).rejects.toThrow(/NOT_FOUND.*sfu:CMPT 225/);
  });

  it('reads a transfer rule and the institutions list', async () => {
    const rule = await client.readResource({ uri: `transfer-rule://${ruleId}` });
    expect(byMime(rule.contents, 'text/markdown')).toContain('SFU CMPT 125');
    expect(JSON.parse(byMime(rule.contents, 'application/json')).rule.ruleId).toBe(ruleId);
    const institutions = await client.readResource({ uri: 'catalog://institutions' });
    expect(byMime(institutions.contents, 'text/markdown')).toContain('| `sfu` | Simon Fraser University |');
  });

  it('reads a transcript for its owner only: another user and a missing session are both NOT_FOUND', async () => {
    const mine = await client.readResource({ uri: `session://${sessionId}/transcript` });
    expect(JSON.parse(byMime(mine.contents, 'application/json')).events[0]).toMatchObject({ type: 'draft', content: 'What is an AVL tree?' });
    const bob = await connect(kind, server.url, SECOND_TOKEN);
    try {
      const theirs = await bob.readResource({ uri: `session://${sessionId}/transcript` }).catch((error: Error) => error);
      const missing = await bob.readResource({ uri: 'session://01JAAAAAAAAAAAAAAAAAAAAAAA/transcript' }).catch((error: Error) => error);
      expect(String(theirs)).toMatch(/NOT_FOUND/);
      expect(String(theirs)).not.toContain('AVL');
      expect(String(theirs).replace(sessionId, 'ID')).toBe(String(missing).replace('01JAAAAAAAAAAAAAAAAAAAAAAA', 'ID'));
    } finally {
      await bob.close();
    }
  });

  it('lists prompts and expands each into a message naming the tools to use', async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name).sort()).toEqual(['can-i-take', 'plan-my-transfer', 'study-session']);
    expect(prompts.find((p) => p.name === 'plan-my-transfer')!.arguments).toEqual(
      ['from', 'to', 'courses'].map((name) => expect.objectContaining({ name, required: true })),
    );
    const plan = await client.getPrompt({ name: 'plan-my-transfer', arguments: { from: 'langara', to: 'sfu', courses: 'langara:CPSC 1150, langara:CPSC 1160' } });
    expect(plan.messages[0]!.role).toBe('user');
    expect(plan.messages[0]!.content.text).toContain('tn_transfer_resolve');
    expect((await client.getPrompt({ name: 'study-session', arguments: { course: 'sfu:CMPT 225', topic: 'heaps' } })).messages[0]!.content.text).toContain('tn_session_start');
    expect((await client.getPrompt({ name: 'can-i-take', arguments: { course: 'sfu:CMPT 225' } })).messages[0]!.content.text).toContain('tn_course_prereqs');
    await expect(client.getPrompt({ name: 'plan-my-transfer', arguments: { from: 'langara' } })).rejects.toThrow(/to.*courses|courses/);
    await expect(client.getPrompt({ name: 'no-such-prompt' })).rejects.toThrow(/Unknown prompt/);
  });

  it('completes institutions and course references by prefix', async () => {
    const institutions = await client.complete({ ref: { type: 'ref/prompt', name: 'plan-my-transfer' }, argument: { name: 'from', value: 'la' } });
    expect(institutions.completion.values).toContain('langara');
    // Every institution whose slug, code or name starts with what was typed (LaSalle College Vancouver too), and only those.
    for (const slug of institutions.completion.values) {
      const known = findInstitution(slug);
      expect([slug, known?.bctgCode ?? '', known?.name ?? ''].some((alias) => alias.toLowerCase().startsWith('la')), slug).toBe(true);
    }
    const courses = await client.complete({ ref: { type: 'ref/prompt', name: 'can-i-take' }, argument: { name: 'course', value: 'sfu:CMPT 2' } });
    expect(courses.completion.values).toContain('sfu:CMPT 225');
    expect(courses.completion.values.every((v) => v.startsWith('sfu:CMPT 2'))).toBe(true);
    const loose = await client.complete({ ref: { type: 'ref/prompt', name: 'can-i-take' }, argument: { name: 'course', value: 'SFU:cmpt22' } });
    expect(loose.completion.values).toContain('sfu:CMPT 225');
    const list = await client.complete({ ref: { type: 'ref/prompt', name: 'plan-my-transfer' }, argument: { name: 'courses', value: 'langara:CPSC 1150, langara:CPSC 116' } });
    expect(list.completion.values).toContain('langara:CPSC 1150, langara:CPSC 1160');
    const code = await client.complete({
      ref: { type: 'ref/resource', uri: 'course://{institution}/{code}' },
      argument: { name: 'code', value: 'CMPT 22' },
      context: { arguments: { institution: 'sfu' } },
    });
    expect(code.completion.values).toContain('CMPT 225');
  });

  it('links the courses and rules a tool result names, after the unchanged text blocks', async () => {
    const result = await client.callTool({ name: 'tn_course_search', arguments: { query: 'data structures', institution: 'sfu', limit: 20 } });
    expect(result.content[0]).toMatchObject({ type: 'text' });
    expect(JSON.parse(result.content[0]!.text!).items[0].ref).toBe('sfu:CMPT 225');
    const links = result.content.filter((c) => c.type === 'resource_link');
    expect(links.length).toBeGreaterThan(0);
    expect(links.length).toBeLessThanOrEqual(10);
    expect(links[0]!.uri).toBe('course://sfu/CMPT%20225');
    const resolved = await client.callTool({ name: 'tn_transfer_resolve', arguments: { sourceInstitution: 'langara', targetInstitution: 'sfu', sourceCourses: ['CPSC 1181'], asOfDate: '2023-01-01' } });
    expect(resolved.content.some((c) => c.type === 'resource_link' && c.uri === `transfer-rule://${ruleId}`)).toBe(true);
  });

  it('shows its icon on the server, and leaves per-tool icons out of the tool list (a host\'s budget, ADR 0026)', async () => {
    expect(client.getServerVersion()?.icons?.[0]?.src).toMatch(/^data:image\/svg\+xml;base64,/);
    const { tools } = await client.listTools();
    expect(tools.some((t) => t.icons)).toBe(false);
  });

  it('says how long the tool list may be cached (2026-07-28), and which release it belongs to', async () => {
    const listed = await client.listTools();
    expect(listed._meta?.['tutor-nexus/release']).toMatch(/^\d+\.\d+\.\d+/);
    if (kind === 'v2-modern') expect({ ttlMs: listed.ttlMs, cacheScope: listed.cacheScope }).toEqual({ ttlMs: 300_000, cacheScope: 'public' });
  });
});

describe('anonymous callers', () => {
  it('read public resources, and are challenged for a transcript', async () => {
    const client = await connect('v2-modern', server.url, null);
    try {
      expect((await client.readResource({ uri: 'catalog://institutions' })).contents.length).toBe(2);
    } finally {
      await client.close();
    }
    const response = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'resources/read', params: { uri: `session://${sessionId}/transcript` } }),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer resource_metadata=/);
  });

  it('see only a domain\'s own resources and prompts on /mcp/{domain}', async () => {
    const client = (await connectClient(server.url, { token: null, path: '/mcp/course' })) as unknown as SurfaceClient;
    try {
      expect((await client.listResourceTemplates()).resourceTemplates.map((t) => t.name)).toEqual(['course']);
      expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(['can-i-take']);
    } finally {
      await client.close();
    }
  });
});
