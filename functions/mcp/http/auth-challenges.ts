import { USER_PERMISSIONS, type Principal } from '../../platform/auth/principal.js';
import type { AnyToolDefinition } from '../tools/define-tool.js';
import { bytesOf, bytesResponse } from './bytes-response.js';

/**
 * The MCP authorization spec's HTTP answers for a call the caller may not make: 401 with a Bearer
 * challenge pointing at the protected-resource metadata (so a client starts OAuth), or 403 with
 * `error="insufficient_scope"` and the scopes the call needs.
 */
export interface Challenge {
  status: 401 | 403;
  wwwAuthenticate: string;
  message: string;
  /** What is missing, as the ErrorResponse's details.reason. */
  reason: string;
}

export function challengeFor(definition: AnyToolDefinition, principal: Principal, args: { metadataUrl: string; scopePrefix: string }): Challenge | undefined {
  const scopeOf = (permissions: Iterable<string>) => [...permissions].map((permission) => `${args.scopePrefix}${permission}`).join(' ');
  if (principal.kind !== 'user') {
    if (definition.access === 'public') return undefined;
    // A person connects once: the first challenge asks for everything a person's connector may do (the
    // protected-resource metadata's scopes_supported), not this one tool's permission, so the consent
    // covers the write tools too and hosts never have to send the person through the browser again.
    return {
      status: 401,
      wwwAuthenticate: `Bearer resource_metadata="${args.metadataUrl}", scope="${scopeOf(USER_PERMISSIONS)}"`,
      message: `${definition.name} needs a signed-in user: authorize with the server's authorization server (see ${args.metadataUrl}) or send a personal access token.`,
      reason: 'no bearer token',
    };
  }
  const missing = definition.permissions.filter((permission) => !principal.permissions.has(permission));
  if (!missing.length) return undefined;
  // Step-up for a client that asked for less: what the token already has plus what this call needs. Clients
  // of the 2025-11-25 spec (the v1 SDK among them) replace their scope with the challenge's, so naming only
  // the missing permission would trade the ones they hold for it.
  const wanted = new Set([...USER_PERMISSIONS.filter((permission) => principal.permissions.has(permission)), ...definition.permissions]);
  return {
    status: 403,
    wwwAuthenticate: `Bearer error="insufficient_scope", scope="${scopeOf(wanted)}", resource_metadata="${args.metadataUrl}", error_description="the token lacks ${missing.join(', ')}"`,
    message: `The token lacks the permission${missing.length > 1 ? 's' : ''} ${missing.join(', ')}.`,
    reason: `missing ${missing.join(', ')}`,
  };
}

/** The JSON-RPC error answered with a challenge, so clients that read the body see why. */
export function challengeResponse(challenge: Challenge, id: string | number | null, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32001, message: challenge.message } }), {
    status: challenge.status,
    headers: { 'content-type': 'application/json', 'www-authenticate': challenge.wwwAuthenticate, ...headers },
  });
}

const CORS_HEADERS = {
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers': 'authorization, content-type, accept, mcp-protocol-version, mcp-session-id, last-event-id',
  'access-control-expose-headers': 'www-authenticate, mcp-session-id, mcp-protocol-version, x-request-id, x-trace-id',
  'access-control-max-age': '600',
};

/**
 * CORS for browser-based MCP clients: an allowed Origin is echoed (the origin rules are checked
 * before), public metadata is readable from anywhere.
 */
export function corsHeaders(origin: string | null, publicResource = false): Record<string, string> {
  if (publicResource) return { ...CORS_HEADERS, 'access-control-allow-origin': '*' };
  return origin ? { ...CORS_HEADERS, 'access-control-allow-origin': origin, vary: 'Origin' } : {};
}

export function withHeaders(response: Response, headers: Record<string, string>): Response {
  if (!Object.keys(headers).length) return response;
  const merged = new Headers(response.headers);
  for (const [name, value] of Object.entries(headers)) merged.set(name, value);
  const init = { status: response.status, statusText: response.statusText, headers: merged };
  const bytes = bytesOf(response);
  return bytes ? bytesResponse(bytes, init) : new Response(response.body, init);
}
