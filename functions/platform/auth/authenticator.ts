import { timingSafeEqual } from 'node:crypto';
import { createLocalJWKSet, createRemoteJWKSet, decodeJwt, errors, jwtVerify, type JSONWebKeySet, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import type { AppConfig } from '../config.js';
import type { Store } from '../store/dynamo-client.js';
import { DomainError } from '../domain-error.js';
import { grantIsLive } from './grant-store.js';
import { findPersonalAccessToken, hashToken, PAT_PREFIX } from './personal-access-tokens.js';
import { isResourceOf } from './resource-identifiers.js';
import { ANONYMOUS, knownPermissions, type Principal, userPrincipal } from './principal.js';

export interface Authenticator {
  /**
   * Anonymous when no credentials are given; throws an unauthenticated DomainError for credentials that do not verify.
   * `resourceBase` is the origin (and base path) the request reached: our own access tokens must be
   * bound to one of its MCP endpoints (RFC 8707), so a token issued for another server never passes.
   */
  authenticate(authorization: string | null, context?: { resourceBase: string }): Promise<Principal>;
}

export interface LocalToken {
  token: string;
  userId: string;
}

/** A chosen local token must be at least this long and this varied: it is a password to every tool of its user. */
const LOCAL_TOKEN_MIN_LENGTH = 16;
const LOCAL_TOKEN_MIN_DISTINCT = 8;

/** Why a chosen local token is too weak to guard a server, or undefined. Never repeats the token. */
function localTokenWeakness(token: string): string | undefined {
  if (/\s/.test(token)) return 'it contains whitespace';
  if (token.length < LOCAL_TOKEN_MIN_LENGTH) return `it has ${token.length} characters, fewer than ${LOCAL_TOKEN_MIN_LENGTH}`;
  const distinct = new Set(token).size;
  if (distinct < LOCAL_TOKEN_MIN_DISTINCT) return `it uses ${distinct} different characters, fewer than ${LOCAL_TOKEN_MIN_DISTINCT}`;
  return undefined;
}

const STRONG_TOKEN_HINT = 'Choose a random one (e.g. `openssl rand -base64 24`), or leave TN_LOCAL_TOKEN unset to have one generated.';

/** `TN_LOCAL_TOKEN` for the local user plus `TN_LOCAL_TOKENS` (`token=userId,…`) for more; weak chosen tokens are refused. */
export function parseLocalTokens(env: Record<string, string | undefined>, defaultToken: string): LocalToken[] {
  const tokens: LocalToken[] = [{ token: env.TN_LOCAL_TOKEN || defaultToken, userId: env.TN_LOCAL_USER_ID || 'local-user' }];
  const weakness = localTokenWeakness(tokens[0]!.token);
  if (weakness) throw new Error(`TN_LOCAL_TOKEN is too weak: ${weakness}. ${STRONG_TOKEN_HINT}`);
  for (const pair of (env.TN_LOCAL_TOKENS ?? '').split(',').map((p) => p.trim()).filter(Boolean)) {
    const separator = pair.indexOf('=');
    if (separator <= 0 || separator === pair.length - 1) {
      throw new Error('TN_LOCAL_TOKENS entries must be token=userId.');
    }
    const userId = pair.slice(separator + 1);
    const weak = localTokenWeakness(pair.slice(0, separator));
    if (weak) throw new Error(`The TN_LOCAL_TOKENS token of ${userId} is too weak: ${weak}. ${STRONG_TOKEN_HINT}`);
    tokens.push({ token: pair.slice(0, separator), userId });
  }
  return tokens;
}

/**
 * A credential that may be a guess: it matched nothing we issued, or its signature does not verify.
 * An expired token of ours, or one for another of our endpoints, is a client's stale copy, not a guess.
 */
export function isGuess(error: unknown): boolean {
  return error instanceof DomainError && error.kind === 'unauthenticated' && !(error instanceof StaleCredential);
}

/** A credential we issued that no longer works here (expired, revoked, for another endpoint). */
class StaleCredential extends DomainError {
  constructor(message: string) {
    super('unauthenticated', message);
  }
}

export function createAuthenticator(deps: {
  config: AppConfig;
  store: Store;
  localTokens?: LocalToken[];
  /** Our authorization server's public keys when it runs in this process; otherwise fetched from its jwks endpoint. */
  oauthJwks?: JSONWebKeySet;
  now?: () => Date;
}): Authenticator {
  const now = deps.now ?? (() => new Date());
  // Compare hashes so lookup time does not depend on how much of a token matched.
  const localByHash = new Map((deps.localTokens ?? []).map((t) => [hashToken(t.token), t.userId]));
  const jwt = deps.config.jwt;
  const jwks = jwt ? createRemoteJWKSet(new URL(jwt.jwksUrl ?? `${jwt.issuer.replace(/\/$/, '')}/.well-known/jwks.json`)) : undefined;
  const oauthIssuer = deps.config.oauthIssuer;
  const oauthKeys: JWTVerifyGetKey | undefined = oauthIssuer ? (deps.oauthJwks ? createLocalJWKSet(deps.oauthJwks) : createRemoteJWKSet(new URL(`${oauthIssuer}/oauth/jwks`))) : undefined;

  return {
    async authenticate(authorization, context) {
      if (!authorization) return ANONYMOUS;
      const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
      if (!match) throw new DomainError('unauthenticated', 'Authorization header must be "Bearer <token>".');
      const token = match[1]!;

      const hash = hashToken(token);
      for (const [candidate, userId] of localByHash) {
        if (timingSafeEqual(Buffer.from(candidate, 'hex'), Buffer.from(hash, 'hex'))) return userPrincipal(userId, 'local-token');
      }
      if (token.startsWith(PAT_PREFIX)) {
        const found = await findPersonalAccessToken(deps.store, token, now());
        if (found) return userPrincipal(found.userId, 'personal-access-token', found.permissions, found.expiresAt);
        throw new DomainError('unauthenticated', 'The access token is unknown, revoked or expired.');
      }
      if (oauthIssuer && oauthKeys && token.split('.').length === 3 && issuerOf(token) === oauthIssuer) {
        const payload = await verifyAccessToken(token, oauthKeys, oauthIssuer, context?.resourceBase, deps.store);
        return userPrincipal(String(payload.sub), 'oauth', knownPermissions(String(payload.scope ?? '').split(' ')));
      }
      if (jwt && jwks && token.split('.').length === 3) {
        const payload = await verifyJwt(token, jwks, jwt.issuer, jwt.audience);
        return userPrincipal(String(payload.sub), 'jwt', scopesOf(payload));
      }
      throw new DomainError('unauthenticated', 'The bearer token is not valid for this server.');
    },
  };
}

function issuerOf(token: string): string | undefined {
  try {
    return decodeJwt(token).iss;
  } catch {
    return undefined;
  }
}

/**
 * An access token of ours (RFC 9068): signed by us, unexpired, for an MCP endpoint of the server it
 * reached, and from a grant that still stands (a revoked grant's tokens stop at once, not at expiry).
 */
async function verifyAccessToken(token: string, keys: JWTVerifyGetKey, issuer: string, resourceBase: string | undefined, store: Store): Promise<JWTPayload> {
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(token, keys, { issuer, typ: 'at+jwt' }));
  } catch (error) {
    const message = 'The access token failed verification (signature, issuer or expiry).';
    // jose checks the signature before the claims: an expired token was ours.
    throw error instanceof errors.JWTExpired ? new StaleCredential(message) : new DomainError('unauthenticated', message);
  }
  const audiences = [payload.aud].flat().filter((a): a is string => typeof a === 'string');
  if (!payload.sub || resourceBase === undefined || !audiences.some((aud) => isResourceOf(aud, resourceBase))) {
    throw new StaleCredential('The access token was issued for another resource.');
  }
  if (typeof payload.gid === 'string' && !(await grantIsLive(store, payload.gid))) {
    throw new StaleCredential('The access token was revoked (its sign-in was revoked or its refresh token reused).');
  }
  return payload;
}

async function verifyJwt(token: string, jwks: ReturnType<typeof createRemoteJWKSet>, issuer: string, audience: string): Promise<JWTPayload> {
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(token, jwks, { issuer }));
  } catch {
    throw new DomainError('unauthenticated', 'The bearer token failed verification (signature, issuer or expiry).');
  }
  // Cognito access tokens carry the app client in client_id rather than aud.
  const audiences = [payload.aud, payload.client_id].flat().filter((a): a is string => typeof a === 'string');
  if (!payload.sub || (audience && !audiences.includes(audience))) {
    throw new DomainError('unauthenticated', 'The bearer token was issued for another audience.');
  }
  return payload;
}

/**
 * `scope` names resource:action permissions, optionally under a resource-server prefix (`tn/`), and
 * with `.` for `:` since Cognito scope names cannot contain a colon. A token naming none of ours
 * gets the default user set.
 */
function scopesOf(payload: JWTPayload): string[] | undefined {
  const scope = typeof payload.scope === 'string' ? payload.scope.split(' ') : [];
  const ours = knownPermissions(scope.map((s) => s.replace(/^[^/]+\//, '').replace('.', ':')));
  return ours.length ? ours : undefined;
}
