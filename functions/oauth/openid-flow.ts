import * as oidc from 'openid-client';
import type { UpstreamIdentityProvider, UpstreamSettings } from './upstream-sign-in.js';

/** Sign-in at an OpenID Connect provider with openid-client: discovery, PKCE, state and nonce, the code grant. */
export function openIdFlow(settings: UpstreamSettings): UpstreamIdentityProvider {
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
