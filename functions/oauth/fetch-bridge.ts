import type { IncomingMessage, ServerResponse } from 'node:http';
import { toFetchResponse, toReqRes } from 'fetch-to-node';
import type Provider from 'oidc-provider';
import { USER_PERMISSIONS } from '../shared/auth/principal.js';
import { readBody } from '../shared/http/request-body.js';
import { redirectUrisAllowed } from './redirect-policy.js';
import { issuerBasePath } from './provider.js';

const BODY_LIMIT_BYTES = 64 * 1024;

const oauthError = (status: number, error: string, description: string) =>
  Response.json({ error, error_description: description }, { status, headers: { 'cache-control': 'no-store' } });

/**
 * oidc-provider (a Koa app on node's req/res) behind the web-standard handler every deployment uses:
 * the same code answers on `npm start` and in the Lambda. Paths arrive without the issuer's base path
 * (API Gateway strips the stage) or with it (a custom domain); either way the provider sees it mounted.
 */
export function fetchHandlerFor(provider: Provider, args: { issuer: string; extraRedirectUris?: string[] }): (request: Request) => Promise<Response> {
  const callback = provider.callback() as (req: IncomingMessage, res: ServerResponse) => Promise<void>;
  const basePath = issuerBasePath(args.issuer);

  return async (incoming) => {
    const url = new URL(incoming.url);
    let path = basePath && url.pathname.startsWith(`${basePath}/`) ? url.pathname.slice(basePath.length) : url.pathname;
    // RFC 8414 metadata is the same document as OpenID discovery (code_challenge_methods_supported: ["S256"]).
    if (path === '/.well-known/oauth-authorization-server') path = '/.well-known/openid-configuration';
    // A connector that names no scope asks for what a signed-in user may do; the consent page lists it.
    if (path === '/oauth/authorize' && incoming.method === 'GET' && !url.searchParams.has('scope')) url.searchParams.set('scope', USER_PERMISSIONS.join(' '));

    const headers = new Headers(incoming.headers);
    headers.set('host', url.host);
    headers.set('x-forwarded-proto', url.protocol.replace(':', ''));
    let body: string | undefined;
    if (incoming.method !== 'GET' && incoming.method !== 'HEAD') {
      // Read whole (OAuth bodies are small) but never past the limit: a declared or streamed body over it
      // is refused as soon as that is known. Koa recognises a body only by its Content-Length, which an API Gateway event lacks.
      const read = await readBody(incoming, BODY_LIMIT_BYTES);
      if (!read.ok) return read.reason === 'too-large' ? oauthError(413, 'invalid_request', 'request body too large') : oauthError(400, 'invalid_request', 'request body could not be read');
      body = read.text;
      headers.set('content-length', String(Buffer.byteLength(body)));
      headers.delete('transfer-encoding');
      const refusal = path === '/oauth/register' ? redirectRefusal(body, args.extraRedirectUris) : undefined;
      if (refusal) return oauthError(400, 'invalid_redirect_uri', refusal);
    }
    const { req, res } = toReqRes(new Request(url, { method: incoming.method, headers, body }));
    req.url = `${path}${url.search}`;
    // Koa reads the protocol and client address from the socket, which a bridged request has none of.
    Object.defineProperty(req, 'socket', { value: { encrypted: url.protocol === 'https:', remoteAddress: undefined }, configurable: true });
    (req as IncomingMessage & { originalUrl?: string }).originalUrl = `${basePath}${path}${url.search}`;
    await callback(req, res);
    return toFetchResponse(res);
  };
}

/** Registration names only redirect URIs of the connectors we serve (see redirect-policy.ts). */
function redirectRefusal(body: string, extra?: string[]): string | undefined {
  let metadata: { redirect_uris?: unknown };
  try {
    metadata = JSON.parse(body) as { redirect_uris?: unknown };
  } catch {
    return undefined; // oidc-provider answers malformed JSON itself
  }
  const uris = metadata.redirect_uris;
  if (!Array.isArray(uris) || !uris.every((u): u is string => typeof u === 'string')) return undefined;
  return redirectUrisAllowed(uris, extra)
    ? undefined
    : 'redirect_uris must be loopback (http://127.0.0.1:<port>/…) or a known connector callback (Claude, ChatGPT, Cursor, VS Code, MCP Inspector); the operator can allow more with TN_OAUTH_REDIRECT_URIS';
}
