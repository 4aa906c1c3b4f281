import type { AddressLimiter } from '../platform/auth/attempt-limits.js';
import { isConnectorCallback, redirectUrisAllowed } from './redirect-policy.js';

/** A registration is a few hundred bytes; a larger one is not a connector's. */
const REGISTRATION_BODY_LIMIT_BYTES = 8 * 1024;

/** Longest value of each string field a registration may carry, in characters (ADR 0027). */
const STRING_LIMITS: Record<string, number> = {
  client_name: 100,
  client_uri: 512,
  logo_uri: 512,
  tos_uri: 512,
  policy_uri: 512,
  software_id: 200,
  software_version: 100,
  scope: 512,
};
const MAX_REDIRECT_URIS = 10;
const MAX_REDIRECT_URI_LENGTH = 512;
const MAX_CONTACTS = 5;

export interface Refusal {
  status: number;
  error: string;
  description: string;
  retryAfter?: number;
}

const invalid = (description: string): Refusal => ({ status: 400, error: 'invalid_client_metadata', description });

/**
 * What a dynamic client registration may be before oidc-provider stores it: bounded in size, naming
 * only redirect URIs of the connectors we serve, and within its address's rate. Registrations naming
 * only hosted connectors' callbacks count against a higher limit of their own (those services register
 * on every connection, from a few addresses, for all their users).
 */
export async function registrationRefusal(
  body: string,
  args: { address: string; extraRedirectUris?: string[]; limits: { any: AddressLimiter; connectors: AddressLimiter } },
): Promise<Refusal | undefined> {
  let metadata: Record<string, unknown>;
  try {
    metadata = JSON.parse(body) as Record<string, unknown>;
  } catch {
    return undefined; // oidc-provider answers malformed JSON itself
  }
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) return undefined;
  for (const [field, max] of Object.entries(STRING_LIMITS)) {
    const value = metadata[field];
    if (typeof value === 'string' && value.length > max) return invalid(`${field} must be at most ${max} characters`);
  }
  if (Array.isArray(metadata.contacts) && (metadata.contacts.length > MAX_CONTACTS || metadata.contacts.some((c) => typeof c !== 'string' || c.length > 200))) {
    return invalid(`contacts must list at most ${MAX_CONTACTS} addresses of at most 200 characters`);
  }
  const uris = metadata.redirect_uris;
  if (Array.isArray(uris)) {
    if (uris.length > MAX_REDIRECT_URIS) return invalid(`redirect_uris must list at most ${MAX_REDIRECT_URIS} URIs`);
    if (uris.some((uri) => typeof uri !== 'string' || uri.length > MAX_REDIRECT_URI_LENGTH)) return invalid(`each of redirect_uris must be a URI of at most ${MAX_REDIRECT_URI_LENGTH} characters`);
    if (!redirectUrisAllowed(uris as string[], args.extraRedirectUris)) {
      return {
        status: 400,
        error: 'invalid_redirect_uri',
        description:
          'redirect_uris must be loopback (http://127.0.0.1:<port>/…) or a known connector callback (Claude, ChatGPT, Cursor, VS Code, MCP Inspector); the operator can allow more with TN_OAUTH_REDIRECT_URIS',
      };
    }
  }
  // Whatever else it holds (a key set, fields of its own), a registration is small.
  if (Buffer.byteLength(body) > REGISTRATION_BODY_LIMIT_BYTES) return invalid(`a registration must be at most ${REGISTRATION_BODY_LIMIT_BYTES} bytes`);
  const hosted = Array.isArray(uris) && uris.length > 0 && (uris as string[]).every(isConnectorCallback);
  const limiter = hosted ? args.limits.connectors : args.limits.any;
  const wait = limiter.blockedFor(args.address) ?? (await limiter.count(args.address));
  if (wait) return { status: 429, error: 'invalid_request', description: `too many client registrations from this address; retry in ${wait} s, or use a client ID metadata document (no registration needed)`, retryAfter: wait };
  return undefined;
}
