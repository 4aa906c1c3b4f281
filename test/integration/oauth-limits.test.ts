import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { importJWK, SignJWT } from 'jose';
import { keysFromSecret } from '../../functions/oauth/signing-keys.js';
import { loadOrCreateMasterKey } from '../../functions/platform/crypto/data-keys.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashOf } from '../../functions/oauth/oauth-store.js';
import { createPersonalAccessToken } from '../../functions/platform/auth/personal-access-tokens.js';
import { oauthKeys } from '../../functions/platform/store/keys.js';
import { CookieBrowser, pkcePair } from '../support/oauth-browser.js';
import { startTestServer, TEST_TOKEN, type TestServer } from '../support/test-server.js';

/**
 * The authorization server held to its limits over HTTP (issue 28, classes 2, 3, 5, 6, 11 and 14):
 * what a credential may grant, replayed and revoked tokens, registration, guessing.
 */
const REDIRECT_URI = 'http://127.0.0.1:9/callback';
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

const form = (fields: Record<string, string>) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
});

async function register(on: TestServer, redirectUris = [REDIRECT_URI], extra: Record<string, unknown> = {}) {
  const response = await fetch(`${on.url}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'Limits Test', redirect_uris: redirectUris, token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], ...extra }),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, any> };
}

/** An authorization through the sign-in and consent pages, as a browser walks it; the code (or error) at the redirect URI. */
async function authorize(on: TestServer, args: { clientId: string; secret: string; scope: string; redirectUri?: string }) {
  const redirectUri = args.redirectUri ?? REDIRECT_URI;
  const browser = new CookieBrowser();
  const { verifier, challenge } = pkcePair();
  const query = new URLSearchParams({ response_type: 'code', client_id: args.clientId, redirect_uri: redirectUri, code_challenge: challenge, code_challenge_method: 'S256', state: 's', scope: args.scope, resource: `${on.url}/mcp` });
  const signIn = await browser.navigate(`${on.url}/oauth/authorize?${query}`, on.url);
  const signInHtml = await signIn.response.text();
  expect(signInHtml, signInHtml.slice(0, 400)).toContain('name="token"');
  const consent = await browser.submit(signIn.url, signInHtml, { token: args.secret }, on.url);
  const consentHtml = await consent.response.text();
  const done = await browser.submit(consent.url, consentHtml, { decision: 'allow' }, on.url);
  const callback = new URL(done.url);
  return { consentHtml, callback, code: callback.searchParams.get('code'), verifier, redirectUri };
}

async function tokensFor(on: TestServer, clientId: string, secret: string, scope: string) {
  const { code, verifier, consentHtml } = await authorize(on, { clientId, secret, scope });
  expect(code).toBeTruthy();
  const response = await fetch(`${on.url}/oauth/token`, form({ grant_type: 'authorization_code', code: code!, redirect_uri: REDIRECT_URI, client_id: clientId, code_verifier: verifier }));
  expect(response.status).toBe(200);
  return { tokens: (await response.json()) as Record<string, any>, code: code!, verifier, consentHtml };
}

const claimsOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()) as Record<string, any>;
const refresh = (on: TestServer, clientId: string, token: string) => fetch(`${on.url}/oauth/token`, form({ grant_type: 'refresh_token', refresh_token: token, client_id: clientId }));

describe('a grant is bounded by the credential signed in with (class 2)', () => {
  it('a quota:read personal access token yields tokens for quota:read only, that expire with it', async () => {
    // A token created 23.5 hours ago for one day: half an hour left.
    const pat = await createPersonalAccessToken(server.services.store, { userId: 'local-user', permissions: ['quota:read'], expiresInDays: 1, now: new Date(Date.now() - 23.5 * 3_600_000) });
    const { body: client } = await register(server);
    const { tokens, consentHtml } = await tokensFor(server, client.client_id, pat.token, 'byok:read byok:write quota:read');
    expect(consentHtml).toContain('quota:read');
    expect(consentHtml).toMatch(/does not allow/);
    expect(tokens.scope).toBe('quota:read');
    expect(claimsOf(tokens.access_token).scope).toBe('quota:read');
    expect(tokens.expires_in).toBeLessThanOrEqual(30 * 60);
    expect((await server.rest('tn_user_quota', {}, tokens.access_token)).status).toBe(200);
    const write = await server.rest('tn_user_byok_add', { provider: 'openai', apiKey: 'sk-proj-NOTUSED000000000000001' }, tokens.access_token);
    expect(write.status).toBe(403);

    // The refresh token and the grant end when the personal access token does, not 30 days later.
    const stored = async (model: string, idHash: string) =>
      (await server.services.store.doc.send(new GetCommand({ TableName: server.services.store.tableName, Key: oauthKeys.artifact(model, idHash) }))).Item;
    const patExpires = Math.ceil(Date.parse(pat.expiresAt!) / 1000) + 1;
    expect((await stored('RefreshToken', hashOf(tokens.refresh_token)))!.expiresAt).toBeLessThanOrEqual(patExpires);
    // The access token names its grant (by its key), whose life ends with the token's too.
    expect((await stored('Grant', claimsOf(tokens.access_token).gid))!.expiresAt).toBeLessThanOrEqual(patExpires);
    const refreshed = (await (await refresh(server, client.client_id, tokens.refresh_token)).json()) as Record<string, any>;
    expect(refreshed.scope).toBe('quota:read');
    expect(refreshed.expires_in).toBeLessThanOrEqual(30 * 60);
  });

  it('a local token that may do everything grants what the client asked for', async () => {
    const { body: client } = await register(server);
    const { tokens } = await tokensFor(server, client.client_id, TEST_TOKEN, 'byok:read byok:write quota:read');
    expect(tokens.scope.split(' ').sort()).toEqual(['byok:read', 'byok:write', 'quota:read']);
  });
});

describe('replayed and revoked tokens (classes 3 and 11)', () => {
  it('one refresh token sent 10 times at once: at most one succeeds, and the whole family is revoked', async () => {
    const { body: client } = await register(server);
    const { tokens } = await tokensFor(server, client.client_id, TEST_TOKEN, 'preferences:read');
    expect((await server.rest('tn_user_preferences_get', {}, tokens.access_token)).status).toBe(200);
    const answers = await Promise.all(Array.from({ length: 10 }, () => refresh(server, client.client_id, tokens.refresh_token)));
    const bodies = (await Promise.all(answers.map((a) => a.json()))) as Record<string, any>[];
    const won = bodies.filter((b) => b.access_token);
    expect(won.length).toBeLessThanOrEqual(1);
    expect(bodies.filter((b) => b.error === 'invalid_grant').length).toBeGreaterThanOrEqual(9);
    // Nothing of the family works any more: not the first access token, not what the winner got.
    expect((await server.rest('tn_user_preferences_get', {}, tokens.access_token)).status).toBe(401);
    for (const winner of won) {
      expect((await refresh(server, client.client_id, winner.refresh_token)).status).toBe(400);
      expect((await server.rest('tn_user_preferences_get', {}, winner.access_token)).status).toBe(401);
    }
  });

  it('revoking a refresh token stops its access tokens at once, and so does a replayed code', async () => {
    const { body: client } = await register(server);
    const first = await tokensFor(server, client.client_id, TEST_TOKEN, 'preferences:read');
    expect((await server.rest('tn_user_preferences_get', {}, first.tokens.access_token)).status).toBe(200);
    expect((await fetch(`${server.url}/oauth/revoke`, form({ token: first.tokens.refresh_token, client_id: client.client_id }))).status).toBe(200);
    const afterRevoke = await server.rest('tn_user_preferences_get', {}, first.tokens.access_token);
    expect(afterRevoke.status).toBe(401);
    expect(afterRevoke.body.message).toMatch(/revoked/);

    const second = await tokensFor(server, client.client_id, TEST_TOKEN, 'preferences:read');
    expect((await server.rest('tn_user_preferences_get', {}, second.tokens.access_token)).status).toBe(200);
    const replay = await fetch(`${server.url}/oauth/token`, form({ grant_type: 'authorization_code', code: second.code, redirect_uri: REDIRECT_URI, client_id: client.client_id, code_verifier: second.verifier }));
    expect(replay.status).toBe(400);
    expect((await server.rest('tn_user_preferences_get', {}, second.tokens.access_token)).status).toBe(401);
  });
});

describe('loopback redirect URIs (class 14)', () => {
  it('accepts a registered loopback redirect URI on any port at authorize, and nothing else', async () => {
    const { body: client } = await register(server);
    const elsewhere = 'http://127.0.0.1:54321/callback';
    const { code, verifier, callback } = await authorize(server, { clientId: client.client_id, secret: TEST_TOKEN, scope: 'preferences:read', redirectUri: elsewhere });
    expect(`${callback.origin}${callback.pathname}`).toBe(elsewhere);
    const token = await fetch(`${server.url}/oauth/token`, form({ grant_type: 'authorization_code', code: code!, redirect_uri: elsewhere, client_id: client.client_id, code_verifier: verifier }));
    expect(token.status).toBe(200);

    const { challenge } = pkcePair();
    for (const uri of ['http://127.0.0.1:54321/other', 'http://localhost:54321/callback', 'https://127.0.0.1:54321/callback']) {
      const query = new URLSearchParams({ response_type: 'code', client_id: client.client_id, redirect_uri: uri, code_challenge: challenge, code_challenge_method: 'S256', scope: 'preferences:read' });
      const refused = await fetch(`${server.url}/oauth/authorize?${query}`, { redirect: 'manual' });
      expect(refused.status, uri).toBe(400);
      expect(await refused.text()).toContain('redirect_uri');
    }
  });
});

describe('dynamic client registration (class 5)', () => {
  it('refuses oversized metadata, naming the field', async () => {
    const long = await register(server, [REDIRECT_URI], { client_name: 'x'.repeat(50 * 1024) });
    expect(long.status).toBe(400);
    expect(long.body).toMatchObject({ error: 'invalid_client_metadata' });
    const named = await register(server, [REDIRECT_URI], { client_name: 'x'.repeat(101) });
    expect(named.body.error_description).toContain('client_name');
    const many = await register(server, Array.from({ length: 2000 }, (_, i) => `http://127.0.0.1:${1000 + i}/cb`));
    expect(many.status).toBe(400);
    expect(many.body.error_description).toContain('redirect_uris');
  });

  it('a client that never signs anyone in expires in a day; one that obtains tokens lives as long as its refresh tokens', async () => {
    const clientItem = async (clientId: string) =>
      (await server.services.store.doc.send(new GetCommand({ TableName: server.services.store.tableName, Key: oauthKeys.artifact('Client', hashOf(clientId)) }))).Item!;
    const now = Date.now() / 1000;
    const { body: idle } = await register(server);
    await expect(clientItem(idle.client_id)).resolves.toMatchObject({ expiresAt: expect.any(Number), ttl: expect.any(Number) });
    expect((await clientItem(idle.client_id)).ttl - now).toBeLessThanOrEqual(24 * 3600 + 5);
    const { body: used } = await register(server);
    await tokensFor(server, used.client_id, TEST_TOKEN, 'preferences:read');
    await expect.poll(async () => (await clientItem(used.client_id)).ttl - now).toBeGreaterThan(29 * 24 * 3600);
  });

  it('limits registrations per address, and hosted connectors still register past that limit', async () => {
    const own = await startTestServer();
    try {
      const statuses: number[] = [];
      let retryAfter: string | null = null;
      for (let i = 0; i < 70 && !statuses.includes(429); i++) {
        const answer = await register(own);
        statuses.push(answer.status);
        retryAfter = answer.headers.get('retry-after');
      }
      expect(statuses.filter((s) => s === 201)).toHaveLength(60);
      expect(statuses.at(-1)).toBe(429);
      expect(Number(retryAfter)).toBeGreaterThan(0);
      // Claude.ai and ChatGPT register on every connection, from a few addresses of theirs.
      expect((await register(own, ['https://claude.ai/api/mcp/auth_callback'])).status).toBe(201);
      expect((await register(own, ['https://chatgpt.com/connector_platform_oauth_redirect'])).status).toBe(201);
    } finally {
      await own.close();
    }
  });
});

describe('guessing secrets (class 6)', () => {
  it('locks the sign-in form for an address after 10 failed sign-ins, even for the right token', async () => {
    const own = await startTestServer();
    try {
      const { body: client } = await register(own);
      const browser = new CookieBrowser();
      const { challenge } = pkcePair();
      const query = new URLSearchParams({ response_type: 'code', client_id: client.client_id, redirect_uri: REDIRECT_URI, code_challenge: challenge, code_challenge_method: 'S256', scope: 'quota:read' });
      const page = await browser.navigate(`${own.url}/oauth/authorize?${query}`, own.url);
      const html = await page.response.text();
      const statuses: number[] = [];
      for (let i = 0; i < 11; i++) statuses.push((await browser.submit(page.url, html, { token: `guess-${i}-${'x'.repeat(20)}` }, own.url)).response.status);
      expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
      expect(statuses[10]).toBe(429);
      const locked = await browser.submit(page.url, html, { token: TEST_TOKEN }, own.url);
      expect(locked.response.status).toBe(429);
      expect(Number(locked.response.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await locked.response.text()).toMatch(/Try again in \d+ minute/);
    } finally {
      await own.close();
    }
  });

  it('answers bearer guessing with 429 after 30 invalid tokens from an address, while expired tokens of ours do not count', async () => {
    const own = await startTestServer();
    try {
      // A client's stale copy of a token we issued is not a guess: 40 of them change nothing.
      const { signing } = await keysFromSecret(await loadOrCreateMasterKey(own.dataDir));
      const now = Math.floor(Date.now() / 1000);
      const expired = await new SignJWT({ scope: 'quota:read' })
        .setProtectedHeader({ alg: 'EdDSA', typ: 'at+jwt', kid: signing.kid })
        .setIssuer(own.url)
        .setSubject('local-user')
        .setAudience(`${own.url}/mcp`)
        .setIssuedAt(now - 7200)
        .setExpirationTime(now - 3600)
        .sign(await importJWK(signing as never, 'EdDSA'));
      for (let i = 0; i < 40; i++) expect((await own.rest('tn_user_quota', {}, expired)).status).toBe(401);
      const statuses: number[] = [];
      for (let i = 0; i < 31; i++) statuses.push((await own.rest('tn_user_quota', {}, `guess-${i}-0123456789abcdef`)).status);
      expect(statuses.slice(0, 30)).toEqual(Array(30).fill(401));
      const limited = await own.rest('tn_user_quota', {}, 'one-more-guess-0123456789');
      expect(limited.status).toBe(429);
      expect(limited.body).toMatchObject({ code: 'RATE_LIMITED', details: { retryAfter: expect.any(Number) } });
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      const mcp = await fetch(`${own.url}/mcp`, {
        method: 'POST',
        headers: { authorization: 'Bearer yet-another-guess-0123456789', 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      expect(mcp.status).toBe(429);
      // Public tools without a token keep working from that address.
      expect((await own.rest('tn_course_institutions', {}, null)).status).toBe(200);
    } finally {
      await own.close();
    }
  });

  it('refuses to start with a weak chosen local token, without printing it', async () => {
    const weak: Record<string, string>[] = [{ TN_LOCAL_TOKEN: 'letmein' }, { TN_LOCAL_TOKEN: 'aaaaaaaaaaaaaaaaaaaaaaaa' }, { TN_LOCAL_TOKENS: 'bob-secret=bob' }];
    for (const env of weak) {
      const attempt = startTestServer(env);
      await expect(attempt).rejects.toThrow(/too weak/);
      const message = await attempt.then(
        () => '',
        (error: Error) => error.message,
      );
      for (const secret of Object.values(env)) expect(message).not.toContain(secret.split('=')[0]);
    }
  });
});
