import { createAuthenticator } from '../platform/auth/authenticator.js';
import { loadConfig } from '../platform/config.js';
import { allowedOriginHostnames } from '../mcp/http/allowed-origins.js';
import { authorizationServerEdge, type FetchHandler } from '../mcp/http/authorization-server-edge.js';
import { createStore } from '../platform/store/dynamo-client.js';
import { authorizationServerHandler } from './authorization-server.js';
import { signInMethodFor } from './sign-in-method.js';
import { keysFromSecret } from './signing-keys.js';

/**
 * The authorization server as deployed: its issuer is the API's public URL, its keys derive from the
 * secret only this function is given (TN_OAUTH_SECRET, from Secrets Manager), and people sign in at the
 * identity provider the stack configures (the Cognito hosted UI). It holds the table and, for the token
 * form, the authenticator: none of the tools' services, and its own edge rather than the MCP app.
 */
export async function awsAuthorizationServerApp(env: Record<string, string | undefined> = process.env): Promise<FetchHandler> {
  const config = loadConfig(env);
  const secret = env.TN_OAUTH_SECRET;
  if (!config.oauthIssuer || !config.publicBaseUrl || !secret) throw new Error('TN_OAUTH_ISSUER, TN_PUBLIC_BASE_URL and TN_OAUTH_SECRET are required');
  const store = createStore(config);
  const authorizationServer = authorizationServerHandler({
    issuer: config.oauthIssuer,
    store,
    keys: await keysFromSecret(secret),
    runtime: config.runtime,
    resourceBases: [config.publicBaseUrl],
    extraRedirectUris: config.oauthRedirectUris,
    signIn: signInMethodFor(config, createAuthenticator({ config, store })),
  });
  return authorizationServerEdge(authorizationServer, { allowedOriginHostnames: allowedOriginHostnames(config) });
}
