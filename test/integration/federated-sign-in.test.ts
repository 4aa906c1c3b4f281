import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/chromium.js';
import { pkcePair, startCallbackServer } from '../support/oauth-browser.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * Sign-in delegated to an identity provider, as the AWS deployment does with the Cognito hosted UI:
 * a real OpenID provider on 127.0.0.1 (oidc-provider with its development login pages) plays Cognito.
 */
let upstream: Server;
let server: TestServer;
let browser: Browser;
let callback: Awaited<ReturnType<typeof startCallbackServer>>;
let redirectUri: string;
let codes: string[] = [];

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

beforeAll(async () => {
  const [upstreamPort, serverPort] = [await freePort(), await freePort()];
  const issuer = `http://127.0.0.1:${upstreamPort}`;
  const identityProvider = new Provider(issuer, {
    clients: [{ client_id: 'tutor-nexus', redirect_uris: [`http://127.0.0.1:${serverPort}/oauth/callback`], token_endpoint_auth_method: 'none', grant_types: ['authorization_code'], response_types: ['code'] }],
    features: { devInteractions: { enabled: true } },
    findAccount: async (_ctx, sub) => ({ accountId: sub, claims: async () => ({ sub }) }),
  });
  upstream = createServer(identityProvider.callback());
  await new Promise<void>((resolve) => upstream.listen(upstreamPort, '127.0.0.1', resolve));
  server = await startTestServer({ PORT: String(serverPort), TN_OAUTH_UPSTREAM_ISSUER: issuer, TN_OAUTH_UPSTREAM_CLIENT_ID: 'tutor-nexus' });
  browser = await launchChromium();
  callback = await startCallbackServer();
  redirectUri = callback.redirectUri;
  codes = callback.codes;
});
afterAll(async () => {
  await browser?.close();
  callback?.close();
  await server?.close();
  upstream?.close();
});

describe('sign-in through an identity provider (federation)', () => {
  it('signs the user in as the provider\'s subject, then asks consent and issues tokens for that user', async () => {
    const registration = (await (
      await fetch(`${server.url}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ client_name: 'Federated Connector', redirect_uris: [redirectUri], token_endpoint_auth_method: 'none' }),
      })
    ).json()) as { client_id: string };
    const { verifier, challenge } = pkcePair();
    const query = new URLSearchParams({ response_type: 'code', client_id: registration.client_id, redirect_uri: redirectUri, code_challenge: challenge, code_challenge_method: 'S256', scope: 'preferences:read', resource: `${server.url}/mcp` });

    const page = await browser.newPage();
    await page.goto(`${server.url}/oauth/authorize?${query}`);
    // The identity provider's own page, not ours: there is no token field here.
    expect(page.url().startsWith(`http://127.0.0.1:${(upstream.address() as AddressInfo).port}/`)).toBe(true);
    await page.locator('input[name=login]').fill('cognito-subject-42');
    await page.locator('input[name=password]').fill('any password');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL((url) => url.href.startsWith(redirectUri));
    await page.close();

    const token = await fetch(`${server.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code: codes.at(-1)!, redirect_uri: redirectUri, client_id: registration.client_id, code_verifier: verifier }).toString(),
    });
    expect(token.status).toBe(200);
    const { access_token: accessToken } = (await token.json()) as { access_token: string };
    expect(JSON.parse(Buffer.from(accessToken.split('.')[1]!, 'base64url').toString()).sub).toBe('cognito-subject-42');
    expect((await server.rest('tn_user_preferences_get', {}, accessToken)).status).toBe(200);
  });

  it('refuses a callback that did not start in this browser', async () => {
    const response = await fetch(`${server.url}/oauth/callback?code=forged&state=forged`);
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('sign_in_expired');
  });
});
