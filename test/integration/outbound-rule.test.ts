import { lookup } from 'node:dns/promises';
import { createServer, type Server } from 'node:http';
import net from 'node:net';
import os from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { isNonPublicAddress } from '../../functions/platform/net/ip-address.js';
import { pkcePair } from '../support/oauth-browser.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * One outbound rule for every connection a caller can make the server open (issue 28, class 7): model
 * providers and client ID metadata documents. Checked where it happens: at the HTTP edge, with real
 * listeners counting what reaches them.
 */
const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const done of cleanup.splice(0)) await done();
});

/** A TCP listener on loopback that counts the connections made to it. */
async function countingListener(): Promise<{ port: number; connections: () => number }> {
  let connections = 0;
  const server = net.createServer((socket) => {
    connections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanup.push(() => new Promise((resolve) => server.close(resolve)));
  return { port: (server.address() as net.AddressInfo).port, connections: () => connections };
}

async function httpServer(handler: Parameters<typeof createServer>[1]): Promise<{ url: string; server: Server }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanup.push(() => new Promise((resolve) => server.close(resolve)));
  return { url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`, server };
}

async function started(env: Record<string, string>): Promise<TestServer> {
  const server = await startTestServer(env);
  cleanup.push(() => server.close());
  return server;
}

/** This machine's own name when it resolves to a non-public address (what a rebinding name looks like). */
async function privateName(): Promise<string | undefined> {
  const name = os.hostname();
  try {
    const addresses = await lookup(name, { all: true });
    return addresses.length && addresses.every((a) => isNonPublicAddress(a.address)) ? name : undefined;
  } catch {
    return undefined;
  }
}

describe('model providers', () => {
  it('never follows a redirect: a 307 is not re-sent, with the prompt and the key, to the host it names', async () => {
    const elsewhere: string[] = [];
    const target = await httpServer((req, res) => {
      elsewhere.push(req.url ?? '');
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
    const redirecting = await httpServer((req, res) => {
      req.resume();
      res.writeHead(307, { location: `${target.url}/v1/chat/completions` }).end();
    });
    const server = await started({
      TN_DEFAULT_LLM_PROVIDER: 'openai-compatible',
      TN_DEFAULT_LLM_MODEL: 'redirected',
      TN_DEFAULT_LLM_API_KEY: 'operator-key-never-forwarded',
      TN_DEFAULT_LLM_BASE_URL: `${redirecting.url}/v1`,
    });
    const sessionId = (await server.rest('tn_session_start', { topic: 'redirects' })).body.sessionId;
    const asked = await server.rest('tn_session_ask', { sessionId, message: 'A private question' });
    expect(asked.status).toBeGreaterThanOrEqual(400);
    expect(JSON.stringify(asked.body)).not.toContain('operator-key-never-forwarded');
    expect(elsewhere).toEqual([]);
  });

  it('under TN_OUTBOUND=public refuses, when stored, a base URL naming a private address in any IPv6 spelling', async () => {
    const server = await started({ TN_OUTBOUND: 'public' });
    for (const baseUrl of ['https://[::ffff:a9fe:a9fe]/v1', 'https://[::ffff:169.254.169.254]/v1', 'https://[::a9fe:a9fe]/v1', 'https://[64:ff9b::a9fe:a9fe]/v1', 'https://[::ffff:7f00:1]/v1', 'https://localhost./v1', 'http://api.example.com/v1']) {
      const added = await server.rest('tn_user_byok_add', { provider: 'openai-compatible', apiKey: 'sk-test-0123456789abcdef0123', baseUrl, model: 'm' });
      expect(added.status, baseUrl).toBe(400);
      expect(added.body.details.fields[0].field, baseUrl).toBe('baseUrl');
    }
  });

  it('under TN_OUTBOUND=public checks the address at connect time: a name that resolves to loopback is never connected to', async () => {
    const name = await privateName();
    if (!name) return expect.soft(name, 'this machine has no name resolving to a private address; nothing to check').toBeUndefined();
    const listener = await countingListener();
    const server = await started({
      TN_OUTBOUND: 'public',
      TN_DEFAULT_LLM_PROVIDER: 'openai-compatible',
      TN_DEFAULT_LLM_MODEL: 'rebound',
      TN_DEFAULT_LLM_API_KEY: 'operator-key-0123456789',
      // Not checked when configured: the rule at connect time is what stops it.
      TN_DEFAULT_LLM_BASE_URL: `https://${name}:${listener.port}/v1`,
    });
    const sessionId = (await server.rest('tn_session_start', { topic: 'rebinding' })).body.sessionId;
    const asked = await server.rest('tn_session_ask', { sessionId, message: 'Where does this go?' });
    expect(asked.status).toBeGreaterThanOrEqual(400);
    expect(listener.connections()).toBe(0);
  });
});

describe('client ID metadata documents', () => {
  it('an anonymous authorization naming a metadata document on this machine opens no connection, on any port', async () => {
    const server = await started({});
    const listener = await countingListener();
    const name = await privateName();
    const { challenge } = pkcePair();
    const clientIds = [`https://127.0.0.1:${listener.port}/client.json`, `https://[::ffff:7f00:1]:${listener.port}/client.json`, `http://127.0.0.1:${listener.port}/client.json`];
    if (name) clientIds.push(`https://${name}:${listener.port}/client.json`);
    for (const clientId of clientIds) {
      const query = new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: 'http://127.0.0.1:9/callback', code_challenge: challenge, code_challenge_method: 'S256', scope: 'quota:read' });
      const response = await fetch(`${server.url}/oauth/authorize?${query}`, { redirect: 'manual' });
      expect(response.status, clientId).toBe(400);
      expect(await response.text()).toContain('invalid_client');
    }
    expect(listener.connections()).toBe(0);
  });
});
