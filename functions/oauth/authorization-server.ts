import { AddressLimiter, ATTEMPT_LIMITS } from '../platform/auth/attempt-limits.js';
import { fetchHandlerFor } from './fetch-bridge.js';
import { mountInteractions, type SignInMethod } from './interactions.js';
import { createAuthorizationServer, type AuthorizationServerOptions } from './provider.js';

/** The whole authorization server as one web-standard handler: provider, sign-in and consent pages. */
export function authorizationServerHandler(options: AuthorizationServerOptions & { signIn: SignInMethod }): (request: Request) => Promise<Response> {
  const provider = createAuthorizationServer(options);
  mountInteractions(provider, { issuer: options.issuer, signIn: options.signIn, signInFailures: new AddressLimiter(options.store, ATTEMPT_LIMITS.signInFailures) });
  return fetchHandlerFor(provider, {
    issuer: options.issuer,
    extraRedirectUris: options.extraRedirectUris,
    registrations: { any: new AddressLimiter(options.store, ATTEMPT_LIMITS.registrations), connectors: new AddressLimiter(options.store, ATTEMPT_LIMITS.connectorRegistrations) },
  });
}
