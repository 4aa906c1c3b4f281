import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  auth,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type StoredOAuthClientInformation,
  type StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import { readCredentials, saveCredentials, type Credentials, type Env } from './config.js';
import { CliError } from './connection.js';
import type { Io } from './output.js';

/**
 * The SDK's OAuth client provider, kept in the CLI's 0600 credentials file: the dynamically registered
 * client, its tokens (the SDK refreshes them and saves the rotated refresh token here) and, during a
 * login, the loopback redirect URI and PKCE verifier.
 */
export class FileAuthProvider implements OAuthClientProvider {
  private verifier = '';

  constructor(
    private readonly env: Env,
    private saved: Credentials,
    private readonly onRedirect?: (url: URL) => void | Promise<void>,
  ) {}

  get redirectUrl(): string | undefined {
    return this.saved.oauth?.redirectUri;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Tutor Nexus CLI',
      redirect_uris: this.redirectUrl ? [this.redirectUrl] : [],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  clientInformation(): StoredOAuthClientInformation | undefined {
    return this.saved.oauth?.client as StoredOAuthClientInformation | undefined;
  }

  async saveClientInformation(client: StoredOAuthClientInformation): Promise<void> {
    await this.update({ client });
  }

  tokens(): StoredOAuthTokens | undefined {
    return this.saved.oauth?.tokens as StoredOAuthTokens | undefined;
  }

  async saveTokens(tokens: StoredOAuthTokens): Promise<void> {
    await this.update({ tokens });
  }

  async redirectToAuthorization(url: URL): Promise<void> {
    // Outside `tn login` a refresh that fails must not start a browser flow in the middle of a command.
    if (!this.onRedirect) throw new CliError('The sign-in has expired; run `tn login` again.', 'UNAUTHORIZED');
    await this.onRedirect(url);
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    return this.verifier;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if (scope === 'all' || scope === 'client') await this.update({ client: undefined, tokens: undefined });
    else if (scope === 'tokens') await this.update({ tokens: undefined });
  }

  private async update(oauth: Partial<NonNullable<Credentials['oauth']>>): Promise<void> {
    this.saved = { ...this.saved, oauth: { ...this.saved.oauth, ...oauth }, savedAt: new Date().toISOString() };
    await saveCredentials(this.env, this.saved);
  }
}

/** The saved OAuth sign-in for `url`, as an auth provider for the transport (undefined without one). */
export async function savedAuthProvider(env: Env, url: string): Promise<FileAuthProvider | undefined> {
  const saved = await readCredentials(env);
  return saved?.oauth?.tokens && saved.url === url ? new FileAuthProvider(env, saved) : undefined;
}

/** A loopback listener on 127.0.0.1 for the authorization response (RFC 8252 §7.3). */
async function loopback(): Promise<{ server: Server; redirectUri: string; callback: Promise<URLSearchParams> }> {
  let deliver!: (params: URLSearchParams) => void;
  const callback = new Promise<URLSearchParams>((resolve) => (deliver = resolve));
  const server = createServer((req, res) => {
    const params = new URL(req.url ?? '/', 'http://127.0.0.1').searchParams;
    if (!params.has('code') && !params.has('error')) return void res.writeHead(404).end();
    const ok = params.has('code');
    res.writeHead(ok ? 200 : 400, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><title>Tutor Nexus</title><p>${ok ? 'Signed in. You can close this window and return to the terminal.' : 'Sign-in was not completed.'}</p>`);
    deliver(params);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, redirectUri: `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`, callback };
}

function openBrowser(url: URL): void {
  const command = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  try {
    const child = spawn(command, [url.href], { stdio: 'ignore', detached: true });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // The URL is printed; the user opens it by hand.
  }
}

/**
 * `tn login` without --token: the OAuth 2.1 authorization code flow with PKCE through the server's own
 * authorization server, a loopback redirect URI and dynamic client registration (all done by the SDK's `auth`).
 */
export async function oauthLogin(io: Io, url: string, options: { browser: boolean; timeoutMs?: number }): Promise<void> {
  const { server, redirectUri, callback } = await loopback();
  try {
    const provider = new FileAuthProvider(io.env, { url, savedAt: new Date().toISOString(), oauth: { redirectUri } }, (authorizationUrl) => {
      io.err(`Open this address to sign in (waiting for the browser to come back to ${redirectUri}):\n${authorizationUrl.href}\n`);
      if (options.browser) openBrowser(authorizationUrl);
    });
    const serverUrl = `${url}/mcp`;
    const first = await auth(provider, { serverUrl });
    if (first === 'AUTHORIZED') return;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new CliError('No answer from the browser in time; run tn login again.', 'TIMEOUT')), options.timeoutMs ?? 300_000);
    });
    const params = await Promise.race([callback, timeout]).finally(() => clearTimeout(timer));
    const code = params.get('code');
    if (!code) throw new CliError(`Sign-in refused: ${params.get('error_description') ?? params.get('error') ?? 'no code'}.`, 'UNAUTHORIZED');
    const done = await auth(provider, { serverUrl, authorizationCode: code, iss: params.get('iss') ?? undefined });
    if (done !== 'AUTHORIZED') throw new CliError('The authorization server did not issue a token.', 'UNAUTHORIZED');
  } finally {
    server.close();
  }
}
