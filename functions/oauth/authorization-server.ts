import { fetchHandlerFor } from './fetch-bridge.js';
import { mountInteractions, type TokenVerifier } from './interactions.js';
import { createAuthorizationServer, type AuthorizationServerOptions } from './provider.js';

/** The whole authorization server as one web-standard handler: provider, sign-in and consent pages. */
export function authorizationServerHandler(options: AuthorizationServerOptions & { verifyToken: TokenVerifier }): (request: Request) => Promise<Response> {
  const provider = createAuthorizationServer(options);
  mountInteractions(provider, { basePath: new URL(options.issuer).pathname.replace(/\/$/, ''), verifyToken: options.verifyToken });
  return fetchHandlerFor(provider, { issuer: options.issuer, extraRedirectUris: options.extraRedirectUris });
}
