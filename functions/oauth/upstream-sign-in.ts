/** What the browser carries (in a signed cookie) between leaving for the identity provider and coming back. */
export interface PendingUpstreamSignIn {
  verifier: string;
  state: string;
  nonce: string;
}

/**
 * Sign-in delegated to an OpenID Connect provider (in AWS the Cognito hosted UI): the user id is the
 * provider's `sub`, as it is for Cognito tokens the server accepted before.
 */
export interface UpstreamIdentityProvider {
  begin(redirectUri: string): Promise<{ url: string; pending: PendingUpstreamSignIn }>;
  /** The user id the provider vouches for; throws when the response does not verify. */
  finish(callbackUrl: URL, pending: PendingUpstreamSignIn): Promise<string>;
}

export interface UpstreamSettings {
  issuer: string;
  clientId: string;
  /** Absent for a public client (PKCE only), as the stack's Cognito client is. */
  clientSecret?: string;
  /** Plain-http issuers are accepted only on one machine (tests, a local identity provider). */
  allowHttp?: boolean;
}

/**
 * The provider's flow is loaded with the first sign-in that needs it (openid-flow.ts, a chunk of the
 * authorization server's bundle that its cold start does not load): a metadata read, a registration or
 * a token refresh never parses openid-client. A failed load is tried again next time.
 */
export function openIdUpstream(settings: UpstreamSettings): UpstreamIdentityProvider {
  let flow: Promise<UpstreamIdentityProvider> | undefined;
  const load = () =>
    (flow ??= import('./openid-flow.js')
      .then((part) => part.openIdFlow(settings))
      .catch((error: unknown) => {
        flow = undefined;
        throw error;
      }));
  return {
    begin: async (redirectUri) => (await load()).begin(redirectUri),
    finish: async (callbackUrl, pending) => (await load()).finish(callbackUrl, pending),
  };
}
