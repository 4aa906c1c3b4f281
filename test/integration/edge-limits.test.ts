import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';
import { startTestServer, TEST_TOKEN, type TestServer } from '../support/test-server.js';

/**
 * The HTTP edges under bodies too large, clients that keep connections alive through a busy server,
 * and Node's own clients (issue 28, classes 4, 13 and 14).
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

/** POSTs `total` bytes in 64 KB chunks without ever holding them (chunked unless `declare`); resolves with the status the server answered. */
function streamPost(url: string, total: number, options: { declare?: boolean; headers?: Record<string, string> } = {}): Promise<{ status?: number; body: string; writeError?: string }> {
  return new Promise((resolve) => {
    const target = new URL(url);
    const chunk = Buffer.alloc(64 * 1024, 'a');
    let status: number | undefined;
    let body = '';
    let writeError: string | undefined;
    const req = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(options.declare ? { 'content-length': String(total) } : {}), ...options.headers },
      },
      (res) => {
        status = res.statusCode;
        res.on('data', (data) => (body += data));
        res.on('end', () => resolve({ status, body, writeError }));
        res.on('error', () => resolve({ status, body, writeError }));
      },
    );
    req.on('error', (error) => {
      writeError = error.message;
      // The answer may already be in: a cut connection after it is the server's right past the discard limit.
      setTimeout(() => resolve({ status, body, writeError }), 50);
    });
    let sent = 0;
    const write = () => {
      while (sent < total) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', write);
      }
      req.end();
    };
    write();
  });
}

const rssKb = (pid: number) => Number(execFileSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' }).trim());

describe('bodies over the limit (class 4)', () => {
  let process_: ServerProcess;
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'tn-edge-'));
    process_ = await startServerProcess(dir, { TN_LOCAL_TOKEN: 'edge-limits-token-7d1e93a0c4' });
  }, 120_000);
  afterAll(async () => {
    process_?.kill();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('every edge refuses a 200 MB body with 413 without buffering it: the server grows by a few MB, not by the body', { timeout: 120_000 }, async () => {
    const server = process_.child.pid!;
    const before = rssKb(server);
    // The web session answers only a browser's request: it names its origin.
    const origin = { origin: new URL(process_.url).origin };
    for (const route of ['/oauth/token', '/oauth/register', '/oauth/revoke', '/oauth/interaction/any/login', '/mcp', '/mcp/session', '/v1/tools/tn_course_search', '/v1/web-session']) {
      const answer = await streamPost(`${process_.url}${route}`, 200 * 1024 * 1024, { headers: route === '/v1/web-session' ? origin : {} });
      expect(answer.status, `${route}: ${answer.writeError ?? ''}`).toBe(413);
    }
    // Declared up front, a body over the limit is refused before a byte of it is read.
    expect((await streamPost(`${process_.url}/oauth/token`, 300 * 1024 * 1024, { declare: true })).status).toBe(413);
    const grownMb = (rssKb(server) - before) / 1024;
    expect(grownMb).toBeLessThan(64);
    expect((await fetch(`${process_.url}/healthz`)).status).toBe(200);
  });
});

describe("Node's own clients (class 14)", () => {
  const fiveMb = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'tn_course_search', arguments: { query: 'x'.repeat(5 * 1024 * 1024) } } });

  it('fetch and http.request read the 413 for an oversized /mcp body instead of failing with EPIPE or a reset', async () => {
    for (let attempt = 0; attempt < 3; attempt++) {
      const viaFetch = await fetch(`${server.url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${TEST_TOKEN}` },
        body: fiveMb,
      });
      expect(viaFetch.status).toBe(413);
      expect(((await viaFetch.json()) as { error: { message: string } }).error.message).toMatch(/over \d+ bytes/);
    }
    for (const declare of [true, false]) {
      const viaHttp = await streamPost(`${server.url}/mcp`, 5 * 1024 * 1024, { declare });
      expect(viaHttp.status, viaHttp.writeError).toBe(413);
      expect(viaHttp.writeError).toBeUndefined();
    }
  });
});

describe('a kept-alive connection through a busy server (class 13)', () => {
  it('answers a request that arrived while the event loop was busy past the keep-alive timeout, instead of resetting it', { timeout: 30_000 }, async () => {
    const { port } = new URL(server.url);
    const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'probe', version: '1' } } });
    const received = await new Promise<string>((resolve) => {
      const socket = net.connect(Number(port), '127.0.0.1');
      let text = '';
      let sentSecond = false;
      socket.on('data', (data) => {
        text += data;
        if (sentSecond && text.includes('"protocolVersion"')) socket.end();
        if (!sentSecond && text.includes('"status":"ok"')) {
          sentSecond = true;
          // The client sends its first MCP request at once, on the same connection...
          socket.write(
            `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${Buffer.byteLength(initialize)}\r\n\r\n${initialize}`,
          );
          // ...while the server's event loop is busy (this process is the server) past Node's keep-alive
          // timeout and its buffer (5 + 1 s): its timer is due before the loop reads the request.
          Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 6_500);
        }
      });
      socket.on('close', () => resolve(text));
      socket.on('error', () => undefined);
      socket.write(`GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
      setTimeout(() => socket.end(), 12_000);
    });
    const statuses = [...received.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((match) => match[1]);
    expect(statuses).toEqual(['200', '200']);
    expect(received).toContain('"protocolVersion"');
  });
});
