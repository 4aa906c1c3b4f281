import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorResponseSchema } from '../../functions/mcp/tools/errors.js';
import { CLIENT_KINDS, connectAnyClient, errorResponseOf } from '../support/mcp-clients.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const unknownKeys = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`unknown_field_${i}`, i]));
const MAX_ERROR_BYTES = 16 * 1024;
/** The server answers these in-process; its memory may grow by at most this while they run (it was 2 GB). */
const MEMORY_BOUND_BYTES = 128 * 1024 * 1024;

async function mcpCall(args: Record<string, unknown>, id = 1): Promise<{ status: number; text: string }> {
  const response = await fetch(`${server.url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
    body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'tn_course_search', arguments: args } }),
  });
  return { status: response.status, text: await response.text() };
}

/** The tool result inside a JSON or SSE answer. */
function toolResultOf(text: string): { isError?: boolean; content: { text: string }[] } {
  const json = text.startsWith('{') ? text : text.split('\n').find((line) => line.startsWith('data: '))!.slice(6);
  return JSON.parse(json).result;
}

/** How far the process's peak RSS rose while the work ran (sampling would miss a spike that blocks the event loop). */
async function peakRssGrowthWhile(work: () => Promise<unknown>): Promise<number> {
  const before = Math.max(process.resourceUsage().maxRSS, process.memoryUsage().rss / 1024);
  await work();
  return (process.resourceUsage().maxRSS - before) * 1024;
}

describe('bad input stays cheap', () => {
  // First in the file: the process's peak RSS is still the server's own when it starts.
  it('keeps memory bounded while four requests of 5,000 unknown keys run at once (the size that cost 370 MB each)', async () => {
    const growth = await peakRssGrowthWhile(() =>
      Promise.all([
        mcpCall({ query: 'data', ...unknownKeys(5_000) }, 1),
        mcpCall({ query: 'data', ...unknownKeys(5_000) }, 2),
        fetch(`${server.url}/v1/tools/tn_course_search`, { method: 'POST', body: JSON.stringify(unknownKeys(5_000)) }).then((r) => r.text()),
        fetch(`${server.url}/v1/tools/tn_course_search`, { method: 'POST', body: JSON.stringify(unknownKeys(5_000)) }).then((r) => r.text()),
      ]),
    );
    expect(growth).toBeLessThan(MEMORY_BOUND_BYTES);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });

  // Refused by counting the fields before any is validated (the reason says so): the cost does not grow
  // per key. How fast is the bench's business, not a test's.
  it('answers 10,000 unknown keys on a public tool over REST with a bounded BAD_REQUEST, refused by their count', async () => {
    const response = await fetch(`${server.url}/v1/tools/tn_course_search`, { method: 'POST', body: JSON.stringify({ query: 'data', ...unknownKeys(10_000) }) });
    const text = await response.text();
    expect(response.status).toBe(400);
    expect(text.length).toBeLessThan(MAX_ERROR_BYTES);
    const error = ErrorResponseSchema.parse(JSON.parse(text));
    expect(error.code).toBe('BAD_REQUEST');
    expect(error.details?.fields).toEqual([{ field: '(root)', message: 'has 10001 fields; at most 100 are accepted', code: 'too_many_fields' }]);
  });

  it('answers 10,000 unknown keys over MCP with a bounded isError BAD_REQUEST, refused by their count', async () => {
    const { status, text } = await mcpCall({ query: 'data', ...unknownKeys(10_000) });
    expect(status).toBe(200);
    expect(text.length).toBeLessThan(MAX_ERROR_BYTES);
    const result = toolResultOf(text);
    expect(result.isError).toBe(true);
    const error = JSON.parse(result.content[0]!.text);
    expect(error.code).toBe('BAD_REQUEST');
    expect(error.details?.fields).toEqual([{ field: '(root)', message: 'has 10001 fields; at most 100 are accepted', code: 'too_many_fields' }]);
  });

  it('lists at most 20 failing fields, each unknown key once, and counts the rest', async () => {
    const response = await server.rest('tn_course_search', { query: 'data', ...unknownKeys(90) }, null);
    expect(response.status).toBe(400);
    const error = ErrorResponseSchema.parse(response.body);
    expect(error.details?.fields).toHaveLength(20);
    expect(new Set(error.details!.fields!.map((f) => f.field)).size).toBe(20);
    expect(error.details!.fields!.every((f) => f.message === 'unknown field')).toBe(true);
    expect(error.details?.omittedFields).toBe(70);
    expect(error.message).toMatch(/^Invalid input: unknown_field_0, .* and 70 more$/);
    expect(JSON.stringify(error).length).toBeLessThan(4096);
  });

  it('cuts long field names and refuses deep nesting before validation', async () => {
    const longKey = await server.rest('tn_course_search', { query: 'data', ['k'.repeat(50_000)]: 1 }, null);
    expect(longKey.status).toBe(400);
    expect(JSON.stringify(longKey.body).length).toBeLessThan(2048);
    const deep = `${'{"a":'.repeat(5000)}"bottom"${'}'.repeat(5000)}`;
    const nested = await server.rest('tn_course_search', `{"query":"data","filters":${deep}}`, null);
    expect(nested.status).toBe(400);
    expect(nested.body.details.fields[0]).toMatchObject({ code: 'too_deep' });
  });

});

describe('__proto__ keys', () => {
  it('are refused over REST, naming the field', async () => {
    const response = await server.rest('tn_course_search', '{"query":"data","__proto__":{"polluted":true}}', null);
    expect(response.status).toBe(400);
    expect(response.body.details.fields).toEqual([{ field: '__proto__', message: '"__proto__" is not accepted as a field name', code: 'forbidden_key' }]);
  });

  it.each(CLIENT_KINDS)('are refused the same way over MCP (%s client)', async (kind) => {
    const client = await connectAnyClient(kind, server.url, { token: null });
    try {
      await client.listTools();
      // Built by JSON.parse, as a client's own JSON would carry it: an own property named __proto__.
      const args = JSON.parse('{"query":"data","__proto__":{"polluted":true}}') as Record<string, unknown>;
      const error = errorResponseOf(await client.callTool({ name: 'tn_course_search', arguments: args }));
      expect(error.code).toBe('BAD_REQUEST');
      expect(error.details?.fields).toEqual([{ field: '__proto__', message: '"__proto__" is not accepted as a field name', code: 'forbidden_key' }]);
    } finally {
      await client.close();
    }
  });

  it('are refused wherever they are nested', async () => {
    const body = '{"sourceInstitution":"langara","targetInstitution":"sfu","sourceCourses":["CPSC 1150"],"x":{"__proto__":{"a":1}}}';
    const rest = await server.rest('tn_transfer_resolve', body, null);
    expect(rest.body.details.fields.map((f: any) => f.field)).toContain('x.__proto__');
  });
});

describe('a body over the limit', () => {
  /** Writes `requests` on one connection as they are, and reads until the server has answered `answers` of them (or closed). */
  const onOneConnection = (requests: (string | Buffer)[], answers: number) =>
    new Promise<{ statuses: string[]; closedEarly: boolean }>((resolve) => {
      const socket = net.connect(Number(new URL(server.url).port), '127.0.0.1');
      let text = '';
      const statuses = () => [...text.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((match) => match[1]!);
      const done = (closedEarly: boolean) => {
        socket.destroy();
        resolve({ statuses: statuses(), closedEarly });
      };
      socket.on('data', (data) => {
        text += data.toString('latin1');
        if (statuses().length >= answers && /\r\n\r\n[\s\S]*\}$/.test(text)) done(false);
      });
      socket.on('close', () => done(true));
      socket.on('error', () => undefined);
      for (const request of requests) socket.write(request);
    });

  it.each(['/mcp', '/v1/tools/tn_course_search'])('on %s gets 413, and the same kept-alive connection carries the next request', async (path) => {
    const huge = JSON.stringify({ query: 'x'.repeat(5 * 1024 * 1024) });
    const refused = await fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: huge });
    expect(refused.status).toBe(413);
    expect(refused.headers.get('connection')).not.toBe('close');
    await refused.text();
    // The rest of the body is read and thrown away, not cut off under the client: a request sent right
    // behind it on the same connection is answered too.
    const host = new URL(server.url).host;
    const post = `POST ${path} HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${Buffer.byteLength(huge)}\r\n\r\n`;
    const answered = await onOneConnection([post, huge, `GET /healthz HTTP/1.1\r\nHost: ${host}\r\n\r\n`], 2);
    expect(answered).toEqual({ statuses: ['413', '200'], closedEarly: false });
    const search = await server.rest('tn_course_search', { query: 'data' }, null);
    expect(search.status).toBe(200);
  });
});
