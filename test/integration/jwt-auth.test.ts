import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';

/** An OIDC issuer on 127.0.0.1 publishing a real JWKS, standing in for the Cognito user pool. */
let issuerServer: Server;
let issuer: string;
let privateKey: CryptoKey;
let server: TestServer;
const AUDIENCE = 'tn-client-id';

beforeAll(async () => {
  const pair = await generateKeyPair('RS256');
  privateKey = pair.privateKey as CryptoKey;
  const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
  issuerServer = createServer((req, res) => {
    if (req.url === '/.well-known/jwks.json') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] }));
    } else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => issuerServer.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(issuerServer.address() as AddressInfo).port}`;
  server = await startTestServer({ TN_JWT_ISSUER: issuer, TN_JWT_AUDIENCE: AUDIENCE });
});
afterAll(async () => {
  await server?.close();
  issuerServer?.close();
});

async function token(claims: Record<string, unknown>, options: { audience?: string; issuer?: string; expiresIn?: string } = {}) {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
    .setSubject('oidc-user-1')
    .setIssuer(options.issuer ?? issuer)
    .setAudience(options.audience ?? AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(options.expiresIn ?? '5m')
    .sign(privateKey);
}

describe('JWT bearer tokens from the configured issuer', () => {
  it('accepts a valid token and acts as its subject', async () => {
    const response = await server.rest('tn_user_preferences_set', { theme: 'dark' }, await token({}));
    expect(response.status).toBe(200);
    const asOther = await server.rest('tn_user_preferences_get', {});
    expect(asOther.body.theme).toBe('system');
    expect((await server.rest('tn_user_preferences_get', {}, await token({}))).body.theme).toBe('dark');
  });

  it('accepts Cognito access tokens that name the client in client_id', async () => {
    const cognitoStyle = await new SignJWT({ client_id: AUDIENCE, token_use: 'access' })
      .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
      .setSubject('oidc-user-2')
      .setIssuer(issuer)
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(privateKey);
    expect((await server.rest('tn_user_quota', {}, cognitoStyle)).status).toBe(200);
  });

  it.each([
    ['another audience', { audience: 'someone-else' }],
    ['another issuer', { issuer: 'https://evil.example' }],
    ['an expired token', { expiresIn: '-1m' }],
  ])('rejects %s with 401', async (_label, options) => {
    const response = await server.rest('tn_user_quota', {}, await token({}, options));
    expect(response.status).toBe(401);
    expect(response.body.code).toBe('UNAUTHORIZED');
  });

  it('maps resource-server scopes (tn/byok.read) to permissions and refuses the rest', async () => {
    const scoped = await token({ scope: 'openid tn/byok.read' });
    expect((await server.rest('tn_user_byok_list', {}, scoped)).status).toBe(200);
    const denied = await server.rest('tn_user_preferences_get', {}, scoped);
    expect(denied.status).toBe(403);
    expect(denied.body.details.reason).toContain('preferences:read');
  });
});
