import { generateKeyPair, importJWK, SignJWT } from 'jose';
import { keysFromSecret } from '../../functions/oauth/signing-keys.js';
import { loadOrCreateMasterKey } from '../../functions/platform/crypto/data-keys.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CookieBrowser, pkcePair } from '../support/oauth-browser.js';
import { SECOND_TOKEN, startTestServer, TEST_TOKEN, type TestServer } from '../support/test-server.js';

let server: TestServer;
const REDIRECT_URI = 'http://127.0.0.1:9/callback';
const SCOPE = 'preferences:read preferences:write session:read';

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

const form = (fields: Record<string, string>) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
});

async function register(redirectUris = [REDIRECT_URI]) {
  const response = await fetch(`${server.url}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'Test Connector', redirect_uris: redirectUris, token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'] }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

/** Authorization code + PKCE through the sign-in and consent pages, as a browser would; returns the token response. */
async function authorize(clientId: string, signInToken: string, options: { resource?: string; decision?: 'allow' | 'deny' } = {}) {
  const browser = new CookieBrowser();
  const { verifier, challenge } = pkcePair();
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT_URI,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'state-123',
    scope: SCOPE,
    resource: options.resource ?? `${server.url}/mcp`,
  });
  const signIn = await browser.navigate(`${server.url}/oauth/authorize?${query}`, server.url);
  const signInHtml = await signIn.response.text();
  expect(signInHtml).toContain('Test Connector');
  expect(signInHtml).toMatch(/<input id="token" name="token" type="password"/);

  const refused = await browser.submit(signIn.url, signInHtml, { token: 'not-a-token' }, server.url);
  expect(refused.response.status).toBe(401);
  const refusedHtml = await refused.response.text();
  expect(refusedHtml).toContain('not valid');

  const consent = await browser.submit(refused.url, refusedHtml, { token: signInToken }, server.url);
  const consentHtml = await consent.response.text();
  expect(consentHtml).toContain('Allow Test Connector');
  for (const permission of SCOPE.split(' ')) expect(consentHtml).toContain(permission);
  expect(consentHtml).toContain('http://127.0.0.1:9');

  const done = await browser.submit(consent.url, consentHtml, { decision: options.decision ?? 'allow' }, server.url);
  const callback = new URL(done.url);
  expect(callback.origin + callback.pathname).toBe(REDIRECT_URI);
  expect(callback.searchParams.get('state')).toBe('state-123');
  expect(callback.searchParams.get('iss')).toBe(server.url);
  const code = callback.searchParams.get('code');
  if (!code) return { error: callback.searchParams.get('error') };
  const token = await fetch(`${server.url}/oauth/token`, form({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, client_id: clientId, code_verifier: verifier }));
  return { status: token.status, body: (await token.json()) as Record<string, any>, code, verifier };
}

describe('authorization server metadata', () => {
  it('publishes RFC 8414 metadata with S256 PKCE, registration, client ID metadata documents and revocation', async () => {
    const response = await fetch(`${server.url}/.well-known/oauth-authorization-server`);
    expect(response.status).toBe(200);
    const metadata = (await response.json()) as Record<string, any>;
    expect(metadata.issuer).toBe(server.url);
    expect(metadata.code_challenge_methods_supported).toEqual(['S256']);
    expect(metadata.authorization_endpoint).toBe(`${server.url}/oauth/authorize`);
    expect(metadata.token_endpoint).toBe(`${server.url}/oauth/token`);
    expect(metadata.registration_endpoint).toBe(`${server.url}/oauth/register`);
    expect(metadata.revocation_endpoint).toBe(`${server.url}/oauth/revoke`);
    expect(metadata.client_id_metadata_document_supported).toBe(true);
    // OAuth 2.1: the authorization code grant and refresh tokens only (no implicit, no hybrid response types).
    expect([...metadata.grant_types_supported].sort()).toEqual(['authorization_code', 'refresh_token']);
    expect(metadata.response_types_supported).toEqual(['code']);
  });

  it('is named by the protected-resource metadata', async () => {
    const prm = (await (await fetch(`${server.url}/.well-known/oauth-protected-resource/mcp/user`)).json()) as Record<string, any>;
    expect(prm.authorization_servers).toEqual([server.url]);
    expect(prm.resource).toBe(`${server.url}/mcp/user`);
  });
});

describe('browser-based clients (the MCP Inspector runs in a page on another origin)', () => {
  it('may read the metadata and call registration and token endpoints cross-origin', async () => {
    const origin = 'http://localhost:6274';
    const metadata = await fetch(`${server.url}/.well-known/oauth-authorization-server`, { headers: { origin } });
    expect(metadata.headers.get('access-control-allow-origin')).toMatch(/^(\*|http:\/\/localhost:6274)$/);
    for (const path of ['/oauth/register', '/oauth/token']) {
      const preflight = await fetch(`${server.url}${path}`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
      });
      expect(preflight.status).toBeLessThan(300);
      expect(preflight.headers.get('access-control-allow-origin')).toMatch(/^(\*|http:\/\/localhost:6274)$/);
    }
    const registration = await fetch(`${server.url}/oauth/register`, {
      method: 'POST',
      headers: { origin, 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: ['http://localhost:6274/oauth/callback'], token_endpoint_auth_method: 'none' }),
    });
    expect(registration.status).toBe(201);
    expect(registration.headers.get('access-control-allow-origin')).toMatch(/^(\*|http:\/\/localhost:6274)$/);
  });

  it('cannot post the consent form from another site (Origin is checked)', async () => {
    const response = await fetch(`${server.url}/oauth/interaction/some-uid/consent`, {
      method: 'POST',
      headers: { origin: 'https://attacker.example', 'content-type': 'application/x-www-form-urlencoded' },
      body: 'decision=allow',
    });
    expect(response.status).toBe(403);
  });
});

describe('dynamic client registration', () => {
  it('registers a public client with a loopback redirect URI', async () => {
    const { status, body } = await register();
    expect(status).toBe(201);
    expect(body.client_id).toMatch(/\S{10,}/);
    expect(body.token_endpoint_auth_method).toBe('none');
    expect(body.client_secret).toBeUndefined();
  });

  it('refuses redirect URIs that are neither loopback nor a known connector callback', async () => {
    const { status, body } = await register(['https://attacker.example/callback']);
    expect(status).toBe(400);
    expect(body.error).toBe('invalid_redirect_uri');
  });

  it('accepts the Claude and ChatGPT connector callbacks', async () => {
    expect((await register(['https://claude.ai/api/mcp/auth_callback'])).status).toBe(201);
    expect((await register(['https://chatgpt.com/connector_platform_oauth_redirect'])).status).toBe(201);
  });
});

describe('authorization code with PKCE, sign-in and consent', () => {
  it('issues an audience-bound JWT access token and a refresh token that act as the signed-in user', async () => {
    const { body: client } = await register();
    const granted = await authorize(client.client_id, TEST_TOKEN);
    expect(granted.status).toBe(200);
    const tokens = granted.body!;
    expect(tokens.token_type).toBe('Bearer');
    expect(tokens.refresh_token).toBeTruthy();
    expect(tokens.scope.split(' ').sort()).toEqual(SCOPE.split(' ').sort());
    const [, payload] = tokens.access_token.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    expect(claims).toMatchObject({ iss: server.url, aud: `${server.url}/mcp`, sub: 'local-user' });

    await server.rest('tn_user_preferences_set', { theme: 'dark' });
    const asUser = await server.rest('tn_user_preferences_get', {}, tokens.access_token);
    expect(asUser.status).toBe(200);
    expect(asUser.body.theme).toBe('dark');

    // Scopes are the token's permissions: the quota tool needs one it was not granted.
    const outside = await server.rest('tn_user_quota', {}, tokens.access_token);
    expect(outside.status).toBe(403);
    expect(outside.headers.get('www-authenticate')).toContain('insufficient_scope');

    // A code is single use.
    const again = await fetch(`${server.url}/oauth/token`, form({ grant_type: 'authorization_code', code: granted.code!, redirect_uri: REDIRECT_URI, client_id: client.client_id, code_verifier: granted.verifier! }));
    expect(again.status).toBe(400);
  });

  it('rotates refresh tokens, refuses a reused one and honours revocation', async () => {
    const { body: client } = await register();
    const { body: first } = await authorize(client.client_id, TEST_TOKEN);
    const refresh = (token: string) => fetch(`${server.url}/oauth/token`, form({ grant_type: 'refresh_token', refresh_token: token, client_id: client.client_id }));
    const rotated = await refresh(first!.refresh_token);
    expect(rotated.status).toBe(200);
    const second = (await rotated.json()) as Record<string, any>;
    expect(second.refresh_token).not.toBe(first!.refresh_token);
    expect((await server.rest('tn_user_preferences_get', {}, second.access_token)).status).toBe(200);

    const reused = await refresh(first!.refresh_token);
    expect(reused.status).toBe(400);
    expect(((await reused.json()) as Record<string, any>).error).toBe('invalid_grant');
    // Reuse revokes the whole chain, the rotated token included.
    expect((await refresh(second.refresh_token)).status).toBe(400);

    const { body: third } = await authorize(client.client_id, TEST_TOKEN);
    const revoked = await fetch(`${server.url}/oauth/revoke`, form({ token: third!.refresh_token, client_id: client.client_id }));
    expect(revoked.status).toBe(200);
    expect((await refresh(third!.refresh_token)).status).toBe(400);
  });

  it('keeps users apart: a token for Bob never reads Alice\'s data', async () => {
    const { body: client } = await register();
    await server.rest('tn_user_preferences_set', { theme: 'dark' });
    const { body: bob } = await authorize(client.client_id, SECOND_TOKEN);
    const asBob = await server.rest('tn_user_preferences_get', {}, bob!.access_token);
    expect(asBob.status).toBe(200);
    expect(asBob.body.theme).toBe('system');
    const claims = JSON.parse(Buffer.from(bob!.access_token.split('.')[1], 'base64url').toString());
    expect(claims.sub).toBe('bob');
  });

  it('sends the user back with access_denied when consent is refused', async () => {
    const { body: client } = await register();
    expect(await authorize(client.client_id, TEST_TOKEN, { decision: 'deny' })).toEqual({ error: 'access_denied' });
  });

  it('refuses a resource that is not one of this server\'s endpoints', async () => {
    const { body: client } = await register();
    const { verifier, challenge } = pkcePair();
    void verifier;
    const query = new URLSearchParams({ response_type: 'code', client_id: client.client_id, redirect_uri: REDIRECT_URI, code_challenge: challenge, code_challenge_method: 'S256', scope: SCOPE, resource: 'https://other.example/mcp' });
    const response = await fetch(`${server.url}/oauth/authorize?${query}`, { redirect: 'manual' });
    const location = new URL(response.headers.get('location') ?? 'http://none/');
    expect(location.searchParams.get('error')).toBe('invalid_target');
  });

  it('refuses an authorization request without PKCE', async () => {
    const { body: client } = await register();
    const query = new URLSearchParams({ response_type: 'code', client_id: client.client_id, redirect_uri: REDIRECT_URI, scope: SCOPE });
    const response = await fetch(`${server.url}/oauth/authorize?${query}`, { redirect: 'manual' });
    expect(new URL(response.headers.get('location')!).searchParams.get('error')).toBe('invalid_request');
  });
});

describe('access tokens the resource server refuses', () => {
  /** A token signed with the server's own key (derived from its master key), claims chosen by the test. */
  async function signedByServer(claims: { audience: string; expiresAt: number }) {
    const { signing } = await keysFromSecret(await loadOrCreateMasterKey(server.dataDir));
    return new SignJWT({ scope: SCOPE })
      .setProtectedHeader({ alg: 'EdDSA', typ: 'at+jwt', kid: signing.kid })
      .setIssuer(server.url)
      .setSubject('local-user')
      .setAudience(claims.audience)
      .setIssuedAt(claims.expiresAt - 3600)
      .setExpirationTime(claims.expiresAt)
      .sign(await importJWK(signing as never, 'EdDSA'));
  }

  it('accepts a token signed with its key for its endpoint, and refuses it once expired or for another resource', async () => {
    const now = Math.floor(Date.now() / 1000);
    expect((await server.rest('tn_user_preferences_get', {}, await signedByServer({ audience: `${server.url}/mcp/user`, expiresAt: now + 600 }))).status).toBe(200);
    const expired = await server.rest('tn_user_preferences_get', {}, await signedByServer({ audience: `${server.url}/mcp`, expiresAt: now - 60 }));
    expect(expired.status).toBe(401);
    expect(expired.headers.get('www-authenticate')).toContain('resource_metadata=');
    const foreign = await server.rest('tn_user_preferences_get', {}, await signedByServer({ audience: 'https://other.example/mcp', expiresAt: now + 600 }));
    expect(foreign.status).toBe(401);
    expect(foreign.body.message).toContain('another resource');
  });

  it('refuses a client ID metadata document on a special-use address without fetching into the network', async () => {
    const { challenge } = pkcePair();
    const query = new URLSearchParams({ response_type: 'code', client_id: 'https://127.0.0.1:1/client.json', redirect_uri: REDIRECT_URI, code_challenge: challenge, code_challenge_method: 'S256', scope: SCOPE });
    const response = await fetch(`${server.url}/oauth/authorize?${query}`, { redirect: 'manual' });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('invalid_client');
  });

  it('answers a forged, tampered or foreign-audience token with 401 and the challenge', async () => {
    const { privateKey } = await generateKeyPair('EdDSA');
    const forged = await new SignJWT({ scope: SCOPE })
      .setProtectedHeader({ alg: 'EdDSA', typ: 'at+jwt' })
      .setIssuer(server.url)
      .setSubject('local-user')
      .setAudience(`${server.url}/mcp`)
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(privateKey);
    const { body: client } = await register();
    const { body: real } = await authorize(client.client_id, TEST_TOKEN);
    const [header, , signature] = real!.access_token.split('.');
    const claims = JSON.parse(Buffer.from(real!.access_token.split('.')[1], 'base64url').toString());
    const tampered = [header, Buffer.from(JSON.stringify({ ...claims, sub: 'bob' })).toString('base64url'), signature].join('.');
    // The same token presented at another origin of the machine is for another resource.
    const elsewhere = await fetch(`${server.url.replace('127.0.0.1', 'localhost')}/v1/tools/tn_user_preferences_get`, {
      method: 'POST',
      headers: { authorization: `Bearer ${real!.access_token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(elsewhere.status).toBe(401);
    for (const token of [forged, tampered]) {
      const response = await server.rest('tn_user_preferences_get', {}, token);
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toContain('resource_metadata=');
      expect(JSON.stringify(response.body)).not.toContain(token);
    }
  });
});
