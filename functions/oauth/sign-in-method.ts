import type { AppConfig } from '../platform/config.js';
import type { Authenticator } from '../platform/auth/authenticator.js';
import type { SignInMethod } from './interactions.js';
import { openIdUpstream } from './upstream-sign-in.js';

/**
 * The identity provider when one is configured (AWS: the Cognito hosted UI), else the token form,
 * which accepts what this server accepts as a user's bearer token: the printed local token,
 * TN_LOCAL_TOKENS, a personal access token.
 */
export function signInMethodFor(config: AppConfig, authenticator: Authenticator): SignInMethod {
  if (config.oauthUpstream) return { kind: 'upstream', provider: openIdUpstream({ ...config.oauthUpstream, allowHttp: config.runtime === 'local' }) };
  return {
    kind: 'token',
    async verify(secret) {
      if (!secret.trim()) return undefined;
      try {
        const principal = await authenticator.authenticate(`Bearer ${secret.trim()}`);
        if (principal.kind !== 'user' || principal.via === 'oauth') return undefined;
        return {
          accountId: principal.userId,
          permissions: [...principal.permissions],
          ...(principal.expiresAt ? { expiresAt: Math.floor(principal.expiresAt.getTime() / 1000) } : {}),
        };
      } catch {
        return undefined;
      }
    },
  };
}
