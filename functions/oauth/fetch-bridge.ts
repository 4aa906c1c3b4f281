import type { IncomingMessage, ServerResponse } from 'node:http';
import { toFetchResponse, toReqRes } from 'fetch-to-node';
import type Provider from 'oidc-provider';
import { USER_PERMISSIONS } from '../platform/auth/principal.js';
import { clientAddressOf } from '../mcp/http/client-address.js';
import { readBody } from '../mcp/http/request-body.js';
import type { AddressLimiter } from '../platform/auth/attempt-limits.js';
import { registrationRefusal } from './registration-limits.js';
import { issuerBasePath } from './provider.js';

const BODY_LIMIT_BYTES = 64 * 1024;

/** The address the request came from (clientAddressOf), for the pages' per-address limits; set only here. */
export const CLIENT_ADDRESS_HEADER = 'x-tn-client-address';

const oauthError = (status: number, error: string, description: string, retryAfter?: number) =>
  Response.json({ error, error_description: description }, { status, headers: { 'cache-control': 'no-store', ...(retryAfter ? { 'retry-after': String(retryAfter) } : {}) } });

/**
 * oidc-provider (a Koa app on node's req/res) behind the web-standard handler every deployment uses:
 * the same code answers on `npm start` and in the Lambda. Paths arrive without the issuer's base path
 * (API Gateway strips the stage) or with it (a custom domain); either way the provider sees it mounted.
 */
export function fetchHandlerFor(
  provider: Provider,
  args: { issuer: string; extraRedirectUris?: string[]; registrations: { any: AddressLimiter; connectors: AddressLimiter } },
): (request: Request) => Promise<Response> {
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
    headers.set(CLIENT_ADDRESS_HEADER, clientAddressOf(incoming));
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
      const refusal =
        path === '/oauth/register' && incoming.method === 'POST'
          ? await registrationRefusal(body, { address: clientAddressOf(incoming), extraRedirectUris: args.extraRedirectUris, limits: args.registrations })
          : undefined;
      if (refusal) return oauthError(refusal.status, refusal.error, refusal.description, refusal.retryAfter);
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
