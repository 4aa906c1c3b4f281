import * as oidc from 'openid-client';

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

export function openIdUpstream(settings: UpstreamSettings): UpstreamIdentityProvider {
  let configuration: Promise<oidc.Configuration> | undefined;
  // Discovered on first use and kept for the warm process; a failed discovery is retried next time.
  const discovered = () =>
    (configuration ??= oidc
      .discovery(new URL(settings.issuer), settings.clientId, undefined, settings.clientSecret ? oidc.ClientSecretPost(settings.clientSecret) : oidc.None(), {
        ...(settings.allowHttp ? { execute: [oidc.allowInsecureRequests] } : {}),
      })
      .catch((error: unknown) => {
        configuration = undefined;
        throw error;
      }));

  return {
    async begin(redirectUri) {
      const config = await discovered();
      const pending = { verifier: oidc.randomPKCECodeVerifier(), state: oidc.randomState(), nonce: oidc.randomNonce() };
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: 'openid',
        response_type: 'code',
        code_challenge: await oidc.calculatePKCECodeChallenge(pending.verifier),
        code_challenge_method: 'S256',
        state: pending.state,
        nonce: pending.nonce,
      });
      return { url: url.href, pending };
    },
    async finish(callbackUrl, pending) {
      const config = await discovered();
      const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: pending.verifier,
        expectedState: pending.state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      });
      const subject = tokens.claims()?.sub;
      if (!subject) throw new Error('the identity provider returned no subject');
      return subject;
    },
  };
}
