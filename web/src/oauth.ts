import { ApiError, errorFrom, signInWith } from './api.js';

/**
 * Sign-in with OAuth 2.1 and PKCE against the server's own authorization server, as a public client
 * that registers itself (RFC 7591). The redirect comes back to /settings, which finishes the flow.
 */

const PENDING = 'tn-oauth-pending';
const redirectUri = () => `${location.origin}/settings`;

const base64url = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const random = () => base64url(crypto.getRandomValues(new Uint8Array(32)));

async function json<T>(response: Response): Promise<T> {
  if (!response.ok) throw await errorFrom(response);
  return (await response.json()) as T;
}

interface Discovery {
  resource: string;
  scopes: string[];
  authorize: string;
  token: string;
  register: string;
}

/** Where to sign in and for what, from the metadata the server publishes (RFC 9728, RFC 8414). */
async function discover(): Promise<Discovery> {
  const resource = await json<{ resource: string; authorization_servers: string[]; scopes_supported: string[] }>(await fetch('/.well-known/oauth-protected-resource'));
  const issuer = resource.authorization_servers[0];
  if (!issuer) throw new ApiError('SERVICE_UNAVAILABLE', 'This server names no authorization server: paste a token instead.', 0);
  const server = await json<{ authorization_endpoint: string; token_endpoint: string; registration_endpoint: string }>(
    await fetch(`${issuer.replace(/\/$/, '')}/.well-known/oauth-authorization-server`),
  );
  return { resource: resource.resource, scopes: resource.scopes_supported, authorize: server.authorization_endpoint, token: server.token_endpoint, register: server.registration_endpoint };
}

export async function startSignIn(): Promise<void> {
  const found = await discover();
  const client = await json<{ client_id: string }>(
    await fetch(found.register, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'Tutor Nexus web app', redirect_uris: [redirectUri()], grant_types: ['authorization_code'], response_types: ['code'], token_endpoint_auth_method: 'none' }),
    }),
  );
  const verifier = random();
  const state = random();
  const challenge = base64url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))));
  sessionStorage.setItem(PENDING, JSON.stringify({ verifier, state, clientId: client.client_id, token: found.token, resource: found.resource }));
  const url = new URL(found.authorize);
  const params = { response_type: 'code', client_id: client.client_id, redirect_uri: redirectUri(), code_challenge: challenge, code_challenge_method: 'S256', state, resource: found.resource, scope: found.scopes.join(' ') };
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  location.assign(url.href);
}

/** On /settings?code=…&state=…: trade the code for an access token. False when this is not a callback. */
export async function finishSignIn(params: URLSearchParams): Promise<boolean> {
  const raw = sessionStorage.getItem(PENDING);
  if (!raw || !(params.has('code') || params.has('error'))) return false;
  sessionStorage.removeItem(PENDING);
  const pending = JSON.parse(raw) as { verifier: string; state: string; clientId: string; token: string; resource: string };
  if (params.get('state') !== pending.state) throw new ApiError('BAD_REQUEST', 'The sign-in answer did not match the request: try again.', 400);
  if (params.has('error')) throw new ApiError('UNAUTHORIZED', params.get('error_description') ?? `Sign-in was not completed (${params.get('error')}).`, 401);
  const body = new URLSearchParams({ grant_type: 'authorization_code', code: params.get('code')!, redirect_uri: redirectUri(), client_id: pending.clientId, code_verifier: pending.verifier, resource: pending.resource });
  const tokens = await json<{ access_token: string }>(await fetch(pending.token, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body }));
  // The server keeps it in an HttpOnly cookie; the page never stores it.
  await signInWith(tokens.access_token);
  return true;
}
