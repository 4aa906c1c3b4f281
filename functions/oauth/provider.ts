import Provider, { errors, type Configuration } from 'oidc-provider';
import { USER_PERMISSIONS } from '../platform/auth/principal.js';
import { isResourceOf } from '../platform/auth/resource-identifiers.js';
import { outboundFetch } from '../platform/net/outbound-fetch.js';
import { urlProblem } from '../platform/net/outbound-url.js';
import { logger } from '../platform/observability.js';
import type { Store } from '../platform/store/dynamo-client.js';
import { hashOf, OAuthStore, touchClient } from './oauth-store.js';
import { redirectUrisAllowed, sameLoopbackExceptPort } from './redirect-policy.js';
import type { AuthorizationServerKeys } from './signing-keys.js';
import { errorPage, PAGE_HEADERS } from './pages.js';

/** The path the issuer lives under (`/prod` behind an API stage, '' at an origin root): every route and page is below it. */
export function issuerBasePath(issuer: string): string {
  return new URL(issuer).pathname.replace(/\/$/, '');
}

const ACCESS_TOKEN_TTL_SECONDS = 60 * 60;
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 60 * 60;

/** A token lives its own lifetime, but never past the grant it comes from (which never outlives the credential signed in with). */
function withinGrant(ctx: { oidc?: { entities?: { Grant?: { exp?: number } } } } | undefined, seconds: number): number {
  const grantExpires = ctx?.oidc?.entities?.Grant?.exp;
  if (typeof grantExpires !== 'number') return seconds;
  return Math.max(1, Math.min(seconds, grantExpires - Math.floor(Date.now() / 1000)));
}

export interface AuthorizationServerOptions {
  /** The `iss` of every token: the public base URL (with the API stage path in AWS). */
  issuer: string;
  store: Store;
  keys: AuthorizationServerKeys;
  runtime: 'local' | 'aws';
  /** Origins (and base paths) our MCP endpoints are reached at: a `resource` must be one of their endpoints. */
  resourceBases: string[];
  /** Redirect URI patterns allowed besides the built-in connector list (`*` matches within a segment). */
  extraRedirectUris?: string[];
}

/** The authorization server's routes, under one prefix so the HTTP layer can tell them apart. */
const OAUTH_ROUTES = {
  authorization: '/oauth/authorize',
  token: '/oauth/token',
  registration: '/oauth/register',
  revocation: '/oauth/revoke',
  jwks: '/oauth/jwks',
  userinfo: '/oauth/userinfo',
  introspection: '/oauth/introspect',
  end_session: '/oauth/logout',
  pushed_authorization_request: '/oauth/par',
  code_verification: '/oauth/device',
  device_authorization: '/oauth/device/auth',
  backchannel_authentication: '/oauth/backchannel',
  challenge: '/oauth/challenge',
  credential: '/oauth/credential',
} as const;


/**
 * oidc-provider configured for MCP connectors: authorization code with PKCE S256 only, audience-bound
 * JWT access tokens for our MCP endpoints (resource indicators), rotating refresh tokens, dynamic
 * client registration and client ID metadata documents, revocation. Sign-in and consent are our
 * interaction pages (interactions.ts).
 */
export function createAuthorizationServer(options: AuthorizationServerOptions): Provider {
  const { issuer, keys } = options;
  const basePath = issuerBasePath(issuer);
  const defaultResource = `${issuer}/mcp`;
  const resourceServer = (audience: string) => ({
    scope: USER_PERMISSIONS.join(' '),
    audience,
    accessTokenFormat: 'jwt' as const,
    accessTokenTTL: ACCESS_TOKEN_TTL_SECONDS,
    jwt: { sign: { alg: 'EdDSA' } },
  });

  const configuration: Configuration = {
    adapter: OAuthStore.factory(options.store),
    jwks: { keys: [keys.signing as never] },
    cookies: { keys: keys.cookieKeys },
    routes: OAUTH_ROUTES,
    // Listed here too so that clients may name them in their registered `scope` (the SDK does).
    scopes: ['openid', 'offline_access', ...USER_PERMISSIONS],
    claims: { openid: ['sub'] },
    findAccount: async (_ctx, sub) => ({ accountId: sub, claims: async () => ({ sub }) }),
    interactions: { url: async (_ctx, interaction) => `${basePath}/oauth/interaction/${interaction.uid}` },
    pkce: { required: () => true },
    // OAuth 2.1: the authorization code grant (with PKCE S256) and refresh tokens, nothing else. Without this
    // oidc-provider also advertises the implicit and hybrid flows ('code id_token', 'id_token', 'none').
    responseTypes: ['code'],
    // A browser-based client (the Inspector's page) may call the token endpoint cross-origin only from an
    // origin it receives codes at.
    clientBasedCORS: (_ctx, origin, client) => origin !== 'null' && (client.redirectUris ?? []).some((uri) => URL.parse(uri)?.origin === origin),
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      id_token_signed_response_alg: 'EdDSA',
    },
    enabledJWA: { idTokenSigningAlgValues: ['EdDSA'] },
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true, initialAccessToken: false, issueRegistrationAccessToken: false },
      // A client revokes only its own tokens; another's is answered 200 and left alone (RFC 7009 §2.2).
      revocation: { enabled: true, allowedPolicy: async (_ctx, client, token) => token.clientId === client.clientId },
      rpInitiatedLogout: { enabled: false },
      resourceIndicators: {
        enabled: true,
        defaultResource: async (_ctx, _client, oneOf) => (oneOf?.length ? oneOf[0]! : defaultResource),
        useGrantedResource: async () => true,
        getResourceServerInfo: async (_ctx, resource) => {
          if (!options.resourceBases.some((base) => isResourceOf(resource, base))) throw new errors.InvalidTarget(`${resource} is not an endpoint of this server`);
          return resourceServer(resource);
        },
      },
      clientIdMetadataDocument: {
        enabled: true,
        // Experimental in oidc-provider: acknowledging the draft makes an update to a newer one fail loudly.
        ack: 'draft-02',
        // A metadata document is fetched from a public https address only, on every runtime: an
        // anonymous authorization must not make this server connect anywhere else (ADR 0029).
        allowFetch: async (_ctx, clientId) => urlProblem(new URL(clientId), 'public') === undefined,
        allowClient: async (_ctx, client) => redirectUrisAllowed([...(client.redirectUris ?? [])], options.extraRedirectUris),
      },
    } as Configuration['features'],
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: true,
    // Every authorization is consented to anew, in its own interaction (interactions.ts): a grant made
    // for one sign-in never serves another, whose credential may allow less.
    loadExistingGrant: async (ctx) => {
      const grantId = ctx.oidc.result?.consent?.grantId;
      return grantId ? ctx.oidc.provider.Grant.find(grantId) : undefined;
    },
    // The grant each access token comes from, by its key in the table: the resource server checks it is
    // still there (a revoked family, a replayed code), see grant-liveness.ts.
    extraTokenClaims: async (_ctx, token) => (token.kind === 'AccessToken' && token.grantId ? { gid: hashOf(token.grantId) } : undefined),
    ttl: {
      AccessToken: (ctx) => withinGrant(ctx, ACCESS_TOKEN_TTL_SECONDS),
      AuthorizationCode: 60,
      RefreshToken: (ctx) => withinGrant(ctx, REFRESH_TOKEN_TTL_SECONDS),
      Grant: REFRESH_TOKEN_TTL_SECONDS,
      Session: 14 * 24 * 60 * 60,
      Interaction: 60 * 60,
      IdToken: 60 * 60,
    },
    // The metadata documents' fetches: public addresses only, checked at connect time, no redirects.
    fetch: outboundFetch('public'),
    renderError: async (ctx, out) => {
      ctx.set(PAGE_HEADERS);
      ctx.type = 'html';
      ctx.body = errorPage(String(out.error ?? 'error'), String(out.error_description ?? ''));
    },
  };
  const provider = new Provider(issuer, configuration);
  // Behind API Gateway (and the local bridge): the protocol comes from X-Forwarded-Proto, set by the bridge.
  provider.proxy = true;
  // Unexpected failures are logged with what broke; the browser sees only the error page.
  provider.on('server_error', (_ctx, error) => logger.error('authorization server error', { error: error.message, stack: error.stack }));
  // A registered client that obtains tokens stays registered as long as its refresh tokens may live.
  provider.on('grant.success', (ctx) => {
    const clientId = ctx.oidc.client?.clientId;
    if (clientId) touchClient(options.store, clientId, REFRESH_TOKEN_TTL_SECONDS).catch((error: unknown) => logger.warn('client expiry not extended', { error: String(error) }));
  });
  allowAnyLoopbackPort(provider);
  return provider;
}

/**
 * RFC 8252 §7.3: a native client listening on loopback gets whatever port is free at that moment, so
 * the authorization request may name a registered loopback redirect URI with any port. oidc-provider
 * allows this only for clients registered as `native`; connectors register without saying.
 */
function allowAnyLoopbackPort(provider: Provider): void {
  const exact = provider.Client.prototype.redirectUriAllowed;
  provider.Client.prototype.redirectUriAllowed = function (this: InstanceType<Provider['Client']>, value: string) {
    return exact.call(this, value) || (this.redirectUris ?? []).some((registered) => sameLoopbackExceptPort(value, registered));
  };
}
