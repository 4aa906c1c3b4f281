import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPersonalAccessToken } from '../../functions/platform/auth/personal-access-tokens.js';
import { USER_PERMISSIONS } from '../../functions/platform/auth/principal.js';
import { errorResponseOf } from '../support/mcp-clients.js';
import { connectClient, startTestServer, type Era, type TestServer } from '../support/test-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

describe.each<Era>(['legacy', 'modern'])('MCP over HTTP (%s protocol era)', (era) => {
  it('negotiates the era and lists every tool with schemas and derived annotations', async () => {
    const client = await connectClient(server.url, { era });
    try {
      const version = (client.getNegotiatedProtocolVersion?.() ?? '') as string;
      expect(version).toBe(era === 'modern' ? '2026-07-28' : '2025-11-25');
      const { tools } = await client.listTools();
      const names = tools.map((t) => t.name).sort();
      expect(names).toContain('tn_user_byok_add');
      expect(names).toContain('tn_tools_list');
      const add = tools.find((t) => t.name === 'tn_user_byok_add')!;
      expect(add.inputSchema.required).toEqual(expect.arrayContaining(['provider', 'apiKey']));
      expect(add.outputSchema?.properties).toHaveProperty('last4');
      expect(add.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: false });
      const del = tools.find((t) => t.name === 'tn_user_byok_delete')!;
      expect(del.annotations?.destructiveHint).toBe(true);
      const get = tools.find((t) => t.name === 'tn_user_preferences_get')!;
      expect(get.annotations?.readOnlyHint).toBe(true);
    } finally {
      await client.close();
    }
  });

  it('returns structuredContent, the same JSON as text with a next step, and _meta hints and execution data', async () => {
    const client = await connectClient(server.url, { era });
    try {
      const result = await client.callTool({ name: 'tn_user_preferences_get', arguments: {} });
      expect(result.isError).toBeFalsy();
      const structured = result.structuredContent as Record<string, unknown>;
      expect(structured.tutoringStyle).toBe('socratic');
      const [json, next] = result.content as { type: string; text: string }[];
      expect(JSON.parse(json!.text)).toEqual(structured);
      expect(next!.text).toMatch(/^Next: /);
      const meta = result._meta as Record<string, any>;
      expect(meta.agentHints.confidence).toBeGreaterThanOrEqual(0);
      expect(meta.agentHints.confidence).toBeLessThanOrEqual(1);
      expect(meta.agentHints).toHaveProperty('sourceQuality');
      expect(meta.execution).toMatchObject({ toolVersion: '1.0.0', serviceVersion: expect.any(String), cached: false });
      expect(meta.execution.requestId).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
      expect(meta.execution.traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(typeof meta.execution.executionTime).toBe('number');
    } finally {
      await client.close();
    }
  });

  it('answers invalid input with a BAD_REQUEST ErrorResponse naming each field, as an isError result', async () => {
    const client = await connectClient(server.url, { era });
    try {
      const result = await client.callTool({ name: 'tn_user_preferences_set', arguments: { theme: 'neon', timezone: 'Mars/Base' } });
      expect(result.isError).toBe(true);
      const error = errorResponseOf(result) as any;
      expect(error.code).toBe('BAD_REQUEST');
      expect(error.requestId).toBeTruthy();
      expect(error.details.fields.map((f: any) => f.field).sort()).toEqual(['theme', 'timezone']);
      expect(JSON.stringify(result)).not.toMatch(/at .*\.ts:\d+/);
    } finally {
      await client.close();
    }
  });

  it('refuses user tools to anonymous callers with HTTP 401 (so clients start OAuth) but serves public ones', async () => {
    const client = await connectClient(server.url, { era, token: null });
    try {
      await expect(client.callTool({ name: 'tn_user_quota', arguments: {} })).rejects.toThrow(/needs a signed-in user/);
      const discovery = await client.callTool({ name: 'tn_tools_list', arguments: { domain: 'user' } });
      expect(discovery.isError).toBeFalsy();
      expect((discovery.structuredContent as any).tools.length).toBe(7);
    } finally {
      await client.close();
    }
  });

  it('serves one domain on /mcp/{domain}', async () => {
    const client = await connectClient(server.url, { era, path: '/mcp/user' });
    try {
      const { tools } = await client.listTools();
      expect(tools.every((t) => t.name.startsWith('tn_user_') || t.name === 'tn_tools_list')).toBe(true);
      expect(tools).toHaveLength(8);
    } finally {
      await client.close();
    }
  });
});

describe('authorization challenges (MCP authorization spec, resource server)', () => {
  const call = (path: string, name: string, headers: Record<string, string> = {}) =>
    fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25', ...headers },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name, arguments: {} } }),
    });

  it('answers an anonymous call of a user tool with 401 and a Bearer challenge naming the path-suffixed metadata and every user scope', async () => {
    for (const path of ['/mcp', '/mcp/user']) {
      const response = await call(path, 'tn_user_quota');
      expect(response.status, path).toBe(401);
      // One sign-in covers what a person's connector does, writes included: the scopes the metadata lists.
      expect(response.headers.get('www-authenticate'), path).toBe(`Bearer resource_metadata="${server.url}/.well-known/oauth-protected-resource${path}", scope="${USER_PERMISSIONS.join(' ')}"`);
      expect(await response.json()).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code: -32001 } });
      const metadata = await (await fetch(`${server.url}/.well-known/oauth-protected-resource${path}`)).json();
      expect(metadata.resource).toBe(`${server.url}${path}`);
    }
    expect((await (await fetch(`${server.url}/.well-known/oauth-protected-resource`)).json()).resource).toBe(`${server.url}/mcp`);
    // Public tools stay anonymous, on every endpoint that has them.
    expect((await call('/mcp/course', 'tn_course_institutions')).status).toBe(200);
    expect((await call('/mcp', 'tn_tools_list')).status).toBe(200);
  });

  it('publishes a server card (SEP-2127) at the well-known path and beside /mcp, readable from any origin', async () => {
    for (const path of ['/.well-known/mcp/server-card.json', '/mcp/server-card']) {
      const response = await fetch(`${server.url}${path}`, { headers: { origin: 'https://registry.example' } });
      expect(response.status, path).toBe(200);
      expect(response.headers.get('access-control-allow-origin'), path).toBe('*');
      const card = (await response.json()) as { name: string; remotes: { type: string; url: string }[] };
      expect(card.remotes).toEqual([expect.objectContaining({ type: 'streamable-http', url: `${server.url}/mcp` })]);
    }
  });

  it('answers the REST twin the same way, with the ErrorResponse as its body', async () => {
    const response = await fetch(`${server.url}/v1/tools/tn_user_quota`, { method: 'POST', body: '{}' });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain(`resource_metadata="${server.url}/.well-known/oauth-protected-resource/mcp"`);
    expect(await response.json()).toMatchObject({ code: 'UNAUTHORIZED', details: { reason: 'no bearer token' } });
  });

  it('answers a token without the tool\'s scope with 403 insufficient_scope, asking for what it holds plus what the call needs', async () => {
    const { token } = await createPersonalAccessToken(server.services.store, { userId: 'scoped-user', permissions: ['byok:read'] });
    const response = await call('/mcp', 'tn_user_preferences_get', { authorization: `Bearer ${token}` });
    expect(response.status).toBe(403);
    // A client that replaces its scope with the challenge's (the 2025-11-25 spec's clients) keeps byok:read.
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer error="insufficient_scope", scope="byok:read preferences:read", resource_metadata=".+\/mcp"/);
    expect((await call('/mcp', 'tn_user_byok_list', { authorization: `Bearer ${token}` })).status).toBe(200);
  });

  it('lets browser-based clients from an allowed origin through CORS, and anyone read the metadata', async () => {
    const origin = 'http://localhost:6274';
    const preflight = await fetch(`${server.url}/mcp`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(origin);
    expect(preflight.headers.get('access-control-allow-headers')).toContain('authorization');
    const denied = await call('/mcp', 'tn_user_quota', { origin });
    expect(denied.headers.get('access-control-allow-origin')).toBe(origin);
    expect(denied.headers.get('access-control-expose-headers')).toContain('www-authenticate');
    const metadata = await fetch(`${server.url}/.well-known/oauth-protected-resource/mcp`, { headers: { origin: 'https://claude.ai' } });
    expect(metadata.headers.get('access-control-allow-origin')).toBe('*');
    expect((await fetch(`${server.url}/mcp`, { method: 'OPTIONS', headers: { origin: 'https://evil.example' } })).status).toBe(403);
  });
});

describe('response framing for 2025-era calls', () => {
  const post = (meta?: Record<string, unknown>) =>
    fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'tn_tools_list', arguments: { domain: 'user' }, ...(meta ? { _meta: meta } : {}) } }),
    });

  it('answers a call that asked for no progress as plain JSON, and one with a progress token over SSE', async () => {
    const plain = await post();
    expect(plain.headers.get('content-type')).toContain('application/json');
    expect((await plain.json()).result.structuredContent.tools.length).toBe(7);
    const streamed = await post({ progressToken: 'p-1' });
    expect(streamed.headers.get('content-type')).toContain('text/event-stream');
    expect(await streamed.text()).toContain('"tools"');
  });

  it('answers plain JSON through the SDK\'s JSON response mode: the same values as over SSE, non-ASCII text intact', async () => {
    const plain = await post();
    expect(plain.headers.get('content-type')).toMatch(/^application\/json/);
    const answer = JSON.parse(await plain.text());
    expect(answer).toMatchObject({ jsonrpc: '2.0', id: 3 });
    expect(answer.result.content[0].text).toBe(JSON.stringify(answer.result.structuredContent));
    // The descriptions hold non-ASCII text: the same characters once parsed.
    expect(JSON.stringify(answer.result.structuredContent)).toMatch(/[^\x00-\x7f]/);
    const streamed = await (await post({ progressToken: 'p-2' })).text();
    const overSse = JSON.parse(streamed.split('\n').filter((line) => line.startsWith('data: {')).at(-1)!.slice('data: '.length));
    const withoutExecution = (result: { _meta: Record<string, unknown> }) => ({ ...result, _meta: { ...result._meta, execution: undefined } });
    expect(withoutExecution(answer.result)).toEqual(withoutExecution(overSse.result));
  });
});

describe('HTTP surface', () => {
  it('answers GET /mcp with 405 and the health check with 200', async () => {
    expect((await fetch(`${server.url}/mcp`)).status).toBe(405);
    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(200);
    expect((await health.json()).status).toBe('ok');
  });

  it('rejects an unknown bearer token with 401 and a pointer to the protected-resource metadata', async () => {
    const response = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { authorization: 'Bearer not-a-real-token', 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain('/.well-known/oauth-protected-resource');
    const body = await response.json();
    expect(body.code).toBe('UNAUTHORIZED');
    const metadata = await (await fetch(`${server.url}/.well-known/oauth-protected-resource`)).json();
    expect(metadata.resource).toBe(`${server.url}/mcp`);
    expect(metadata.scopes_supported).toContain('byok:write');
  });

  it('rejects a foreign Host or Origin (DNS rebinding protection)', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const evilOrigin = await fetch(`${server.url}/mcp`, { method: 'POST', headers: { ...headers, origin: 'http://evil.example' }, body });
    expect(evilOrigin.status).toBe(403);
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const url = new URL(`${server.url}/mcp`);
      const req = request({ host: url.hostname, port: url.port, path: '/mcp', method: 'POST', headers: { ...headers, host: 'evil.example' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end(body);
    });
    expect(status).toBe(403);
  });

  it('rejects an unknown domain with 404', async () => {
    const response = await fetch(`${server.url}/mcp/billing`, { method: 'POST', body: '{}' });
    expect(response.status).toBe(404);
  });
});
