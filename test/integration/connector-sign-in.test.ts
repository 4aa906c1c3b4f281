import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2, UnauthorizedError as UnauthorizedErrorV2 } from '@modelcontextprotocol/client';
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { USER_PERMISSIONS } from '../../functions/platform/auth/principal.js';
import { launchChromium } from '../support/chromium.js';
import { startCallbackServer } from '../support/oauth-browser.js';
import { SECOND_TOKEN, startTestServer, TEST_TOKEN, type TestServer } from '../support/test-server.js';

/**
 * A connector signing in the way Claude Code or the Inspector does: the official SDK clients' own
 * OAuth code (authProvider on the Streamable HTTP transport; v1, inside most hosts today, and v2)
 * against the local server, with the sign-in and consent pages answered in Chromium.
 */
let server: TestServer;
let browser: Browser;
let callbackServer: Awaited<ReturnType<typeof startCallbackServer>>;
let redirectUrl: string;
let codes: string[] = [];
let callbacks: URLSearchParams[] = [];

beforeAll(async () => {
  server = await startTestServer();
  browser = await launchChromium();
  callbackServer = await startCallbackServer();
  redirectUrl = callbackServer.redirectUri;
  codes = callbackServer.codes;
  callbacks = callbackServer.callbacks;
});
afterAll(async () => {
  await browser?.close();
  callbackServer?.close();
  await server?.close();
});

/** Keeps what the SDK hands it, and signs in through the real pages when the SDK sends the user to authorize. */
class BrowserSignIn implements OAuthClientProvider {
  client?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = '';
  authorizations = 0;
  /** The scope each authorization asked for, as the SDK sent the browser. */
  requestedScopes: string[] = [];
  /** The permissions each consent page listed, one entry per list item. */
  consentLists: string[][] = [];
  /**
   * `firstScope` plays a client that asks for less on its first sign-in than the server's challenge
   * names; `refreshTokens: false` a client registered without the refresh token grant.
   */
  constructor(
    private readonly secret: string,
    private readonly options: { firstScope?: string; refreshTokens?: boolean } = {},
  ) {}
  get redirectUrl() {
    return redirectUrl;
  }
  get clientMetadata() {
    const grantTypes = this.options.refreshTokens === false ? ['authorization_code'] : ['authorization_code', 'refresh_token'];
    return { client_name: 'SDK Connector', redirect_uris: [redirectUrl], grant_types: grantTypes, response_types: ['code'], token_endpoint_auth_method: 'none' };
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  discovery?: unknown;
  // v2: the authorization server found at redirect time, checked on the callback leg (SEP-2352).
  saveDiscoveryState(state: unknown) {
    this.discovery = state;
  }
  discoveryState() {
    return this.discovery as never;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
  async redirectToAuthorization(url: URL) {
    this.authorizations++;
    if (this.authorizations === 1 && this.options.firstScope) url.searchParams.set('scope', this.options.firstScope);
    this.requestedScopes.push(url.searchParams.get('scope') ?? '');
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('resource')).toBe(`${server.url}/mcp`);
    const page = await browser.newPage();
    try {
      await page.goto(url.href);
      await expect(page.title()).resolves.toContain('Tutor Nexus');
      await page.getByLabel('Access token').fill(this.secret);
      await page.keyboard.press('Enter');
      await page.getByRole('button', { name: 'Allow' }).waitFor();
      expect(await page.content()).toContain('SDK Connector');
      this.consentLists.push(await page.getByRole('listitem').allTextContents());
      await page.getByRole('button', { name: 'Allow' }).click();
      await page.waitForURL((target) => target.href.startsWith(redirectUrl));
    } finally {
      await page.close();
    }
  }
}

type Sdk = 'v1' | 'v2';

/** One client of either SDK, reduced to what these tests call. */
interface ConnectorClient {
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<{ isError?: boolean; structuredContent?: unknown }>;
  close(): Promise<void>;
}

async function signedInClient(provider: BrowserSignIn, sdk: Sdk): Promise<{ client: ConnectorClient; finish: () => Promise<void> }> {
  const connect = async () => {
    if (sdk === 'v1') {
      const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { authProvider: provider });
      const client = new Client({ name: 'connector-test', version: '1.0.0' });
      await client.connect(transport);
      return { client: client as ConnectorClient, finish: () => transport.finishAuth(codes.at(-1)!) };
    }
    const transport = new TransportV2(new URL(`${server.url}/mcp`), { authProvider: provider as never });
    const client = new ClientV2({ name: 'connector-test', version: '1.0.0' });
    await client.connect(transport);
    // v2 checks the callback's `iss` against the issuer it discovered (RFC 9207).
    return { client: client as unknown as ConnectorClient, finish: () => transport.finishAuth(callbacks.at(-1)!) };
  };
  const first = await connect();
  // Public tools work before signing in; a user tool answers 401, which starts OAuth in the SDK.
  expect((await first.client.callTool({ name: 'tn_course_institutions', arguments: {} })).isError).toBeFalsy();
  const refused = await first.client.callTool({ name: 'tn_user_preferences_get', arguments: {} }).then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(refused instanceof UnauthorizedError || refused instanceof UnauthorizedErrorV2, String(refused)).toBe(true);
  expect(codes.length).toBeGreaterThan(0);
  await first.finish();
  await first.client.close();
  return connect();
}

describe.each<Sdk>(['v1', 'v2'])('signing in through the %s SDK client and a real browser', (sdk) => {
  it('discovers, registers, authorizes with PKCE and resource, and then acts as the signed-in user', async () => {
    await server.rest('tn_user_preferences_set', { theme: 'dark' });
    const provider = new BrowserSignIn(TEST_TOKEN);
    const { client } = await signedInClient(provider, sdk);
    expect(provider.client?.client_id).toBeTruthy();
    expect(provider.saved?.refresh_token).toBeTruthy();
    const preferences = await client.callTool({ name: 'tn_user_preferences_get', arguments: {} });
    expect(preferences.isError).toBeFalsy();
    expect((preferences.structuredContent as { theme: string }).theme).toBe('dark');
    await client.close();
  });

  it('signs a person in once: the consent covers every user scope, and read and write tools then work', async () => {
    const provider = new BrowserSignIn(TEST_TOKEN);
    const { client } = await signedInClient(provider, sdk);
    expect(provider.requestedScopes).toHaveLength(1);
    expect(provider.requestedScopes[0]!.split(' ')).toEqual(expect.arrayContaining([...USER_PERMISSIONS]));
    expect(provider.saved?.scope?.split(' ')).toEqual(expect.arrayContaining([...USER_PERMISSIONS]));
    // The consent page named each of them, once.
    const consented = provider.consentLists[0]!.map((item) => item.split(':').slice(0, 2).join(':'));
    expect(consented.sort()).toEqual([...USER_PERMISSIONS].sort());
    const quota = await client.callTool({ name: 'tn_user_quota', arguments: {} });
    expect(quota.isError, JSON.stringify(quota)).toBeFalsy();
    const added = await client.callTool({ name: 'tn_user_byok_add', arguments: { provider: 'openai', apiKey: `sk-connector-${sdk}-test-key-0042`, label: `connector ${sdk}` } });
    expect(added.isError, JSON.stringify(added)).toBeFalsy();
    const listed = await client.callTool({ name: 'tn_user_byok_list', arguments: {} });
    expect((listed.structuredContent as { items: { label: string; last4: string }[] }).items).toContainEqual(expect.objectContaining({ label: `connector ${sdk}`, last4: '0042' }));
    // Still the one sign-in: no write asked the person back to the browser.
    expect(provider.authorizations).toBe(1);
    await client.close();
  });

  // The v1 SDK answers a 403 by refreshing first when it holds a refresh token (a refresh cannot widen a grant),
  // then gives up ("Server returned 403 after trying upscoping"): step-up there needs a client without one.
  // One sign-in with every user scope (above) is what keeps such clients out of step-up.
  it.each([
    { refreshTokens: false, case: 'without a refresh token' },
    ...(sdk === 'v2' ? [{ refreshTokens: true, case: 'holding a refresh token' }] : []),
  ])('steps up on 403 for a client that asked for one scope ($case), keeping the scope it had', async ({ refreshTokens }) => {
    const provider = new BrowserSignIn(TEST_TOKEN, { firstScope: 'preferences:read', refreshTokens });
    const { client, finish } = await signedInClient(provider, sdk);
    expect(provider.saved?.scope).toBe('preferences:read');
    expect((await client.callTool({ name: 'tn_user_preferences_get', arguments: {} })).isError).toBeFalsy();
    const write = { name: 'tn_user_preferences_set', arguments: { theme: 'light' } };
    // The SDK meets 403 insufficient_scope and sends the person through the browser with the challenge's scope.
    const refused = await client.callTool(write).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused instanceof UnauthorizedError || refused instanceof UnauthorizedErrorV2, String(refused)).toBe(true);
    expect(provider.requestedScopes.at(-1)!.split(' ')).toEqual(expect.arrayContaining(['preferences:read', 'preferences:write']));
    await finish();
    const written = await client.callTool(write);
    expect(written.isError, JSON.stringify(written)).toBeFalsy();
    expect((await client.callTool({ name: 'tn_user_preferences_get', arguments: {} })).isError).toBeFalsy();
    await client.close();
  });

  it('refreshes an expired access token with the refresh token, without the browser', async () => {
    const provider = new BrowserSignIn(TEST_TOKEN);
    const { client } = await signedInClient(provider, sdk);
    const before = provider.authorizations;
    const [header, payload] = provider.saved!.access_token.split('.');
    // What an expired token looks like to the server: one that no longer verifies.
    provider.saved = { ...provider.saved!, access_token: `${header}.${payload}.invalid-signature` };
    const again = await client.callTool({ name: 'tn_user_preferences_get', arguments: {} });
    expect(again.isError).toBeFalsy();
    expect(provider.authorizations).toBe(before);
    expect(provider.saved.access_token.endsWith('invalid-signature')).toBe(false);
    await client.close();
  });

  it('gives each user their own data', async () => {
    await server.rest('tn_user_preferences_set', { theme: 'dark' });
    const provider = new BrowserSignIn(SECOND_TOKEN);
    const { client } = await signedInClient(provider, sdk);
    const preferences = await client.callTool({ name: 'tn_user_preferences_get', arguments: {} });
    expect((preferences.structuredContent as { theme: string }).theme).toBe('system');
    await client.close();
  });
});
