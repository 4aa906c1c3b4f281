import { corsHeaders, withHeaders } from './auth-challenges.js';

export type FetchHandler = (request: Request) => Promise<Response>;

/** Paths the authorization server answers: its endpoints and pages, and its metadata (RFC 8414, OpenID discovery). */
export const isAuthorizationServerPath = (path: string) =>
  path.startsWith('/oauth/') || path === '/.well-known/oauth-authorization-server' || path === '/.well-known/openid-configuration';

/**
 * Token, registration, revocation, keys and metadata carry no cookies and are called by browser-based
 * clients from their own origins (protected by PKCE, not by Origin): any origin may call them. The
 * pages (authorize, sign-in, consent) are ours alone.
 */
const isCrossOriginByDesign = (path: string) =>
  path.startsWith('/.well-known/') || ['/oauth/jwks', '/oauth/token', '/oauth/register', '/oauth/revoke'].includes(path);

export interface AuthorizationServerEdgeOptions {
  /** Where Host must name one of these (the local server): DNS-rebinding protection. AWS leaves it unset (the Host is API Gateway's). */
  allowedHostnames?: readonly string[];
  /** A browser's Origin must name one of these on the pages; requests without an Origin (agents, connectors) are not browsers. */
  allowedOriginHostnames: readonly string[];
}

/**
 * What stands in front of the authorization server wherever it runs (its own Lambda, the local server):
 * the Host and Origin rules and CORS for the endpoints browser-based clients call. Its own small edge
 * rather than the MCP app's, so the authorization server's function carries no MCP SDK (ADR 0049).
 * The request is passed on as it came (per-request state, such as the client's address, stays with it).
 */
export function authorizationServerEdge(server: FetchHandler, options: AuthorizationServerEdgeOptions): FetchHandler {
  return async (request) => {
    const path = new URL(request.url).pathname.replace(/\/+$/, '') || '/';
    if (!isAuthorizationServerPath(path)) return refusal(404, 'not_found', `${path} is not served here`);
    if (options.allowedHostnames) {
      const host = hostnameOf(request.headers.get('host'), 'http://');
      if (!host || !options.allowedHostnames.includes(host)) return refusal(403, 'invalid_request', `Host not allowed: ${request.headers.get('host') ?? '(none)'}`);
    }
    if (isCrossOriginByDesign(path)) {
      if (request.method === 'OPTIONS') return new Response(null, { status: 204, headers: corsHeaders(null, true) });
      return withHeaders(await server(request), corsHeaders(null, true));
    }
    const origin = request.headers.get('origin');
    if (origin) {
      const hostname = hostnameOf(origin);
      if (!hostname || !options.allowedOriginHostnames.includes(hostname)) return refusal(403, 'invalid_request', `Origin not allowed: ${origin}`);
    }
    return server(request);
  };
}

/** The hostname a Host header or an Origin names (IPv6 in brackets, as allowlists write it), or undefined when it names none. */
function hostnameOf(value: string | null, scheme = ''): string | undefined {
  if (!value) return undefined;
  try {
    return new URL(`${scheme}${value}`).hostname || undefined;
  } catch {
    return undefined;
  }
}

function refusal(status: number, error: string, description: string): Response {
  return Response.json({ error, error_description: description }, { status, headers: { 'cache-control': 'no-store' } });
}
