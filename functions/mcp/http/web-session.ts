import type { Principal } from '../../platform/auth/principal.js';
import { requestUlid } from '../../platform/ids.js';
import { ToolError } from '../tools/errors.js';
import { readBody } from './request-body.js';
import { errorJson } from './rest.js';

/** Checks a bearer credential as every request's is checked (guesses counted per address). */
export type Authenticate = (authorization: string) => Promise<Principal>;

/**
 * The student web app's credential, kept where the page's scripts cannot read it (ADR 0029): an
 * HttpOnly, SameSite=Strict cookie the server sets when the page hands it a token once, instead of
 * a token in localStorage that any script on the page (a future XSS) could take. Requests of the page
 * carry the cookie; the server uses it only for a browser request from an allowed origin (the Origin
 * check runs first), and only where no Authorization header is sent.
 */
export const WEB_SESSION_PATH = '/v1/web-session';
const COOKIE = 'tn_web';
/** At most this long, and never past the credential's own expiry. */
const MAX_AGE_SECONDS = 30 * 24 * 60 * 60;
/** A sign-in body is one token: more is refused as it arrives, never held (ADR 0029). */
const MAX_BODY_BYTES = 8 * 1024;

function cookieOf(request: Request): string | undefined {
  for (const part of (request.headers.get('cookie') ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === COOKIE) return decodeURIComponent(value.join('='));
  }
  return undefined;
}

/** A browser's request (it names where it comes from): the only kind that may authenticate with the cookie. */
const fromBrowser = (request: Request) => request.headers.has('origin') || request.headers.get('sec-fetch-site') === 'same-origin';

/** The Authorization header a request stands for: its own, else the web session's for a browser's request. */
export function authorizationOf(request: Request): string | null {
  const header = request.headers.get('authorization');
  if (header) return header;
  const token = fromBrowser(request) ? cookieOf(request) : undefined;
  return token ? `Bearer ${token}` : null;
}

function setCookie(request: Request, token: string, maxAge: number): string {
  const secure = new URL(request.url).protocol === 'https:' ? '; Secure' : '';
  return `${COOKIE}=${encodeURIComponent(token)}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${maxAge}${secure}`;
}

const json = (body: unknown, status: number, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers } });

/** A refusal as every endpoint gives one (ErrorResponse: code, message, details, requestId), at `status` when given. */
function refusal(error: ToolError, traceId: string, options: { status?: number; headers?: Record<string, string> } = {}): Response {
  const retryAfter = error.details?.retryAfter;
  const headers = { 'cache-control': 'no-store', ...(retryAfter ? { 'retry-after': String(retryAfter) } : {}), ...options.headers };
  const answer = errorJson(error, requestUlid(), traceId, headers);
  return options.status ? new Response(answer.body, { status: options.status, headers: answer.headers }) : answer;
}

/**
 * POST { token } signs the browser in (the token is checked first: a bad one is 401 and sets nothing),
 * DELETE signs it out, GET says whether it is signed in. Only a browser request may use it.
 */
export async function serveWebSession(request: Request, authenticate: Authenticate, traceId: string): Promise<Response> {
  if (!fromBrowser(request)) return refusal(new ToolError('BAD_REQUEST', 'The web session is for browsers on this site.', { reason: 'no Origin header' }), traceId);
  if (request.method === 'DELETE') return json({ signedIn: false }, 200, { 'set-cookie': setCookie(request, '', 0) });
  if (request.method === 'GET') {
    const token = cookieOf(request);
    let principal: Principal | undefined;
    try {
      principal = token ? await authenticate(`Bearer ${token}`) : undefined;
    } catch (error) {
      // The token could not be checked (the table is down, too many guesses): say so, and keep the cookie.
      if (error instanceof ToolError && (error.code === 'SERVICE_UNAVAILABLE' || error.code === 'RATE_LIMITED')) return refusal(error, traceId);
    }
    return json({ signedIn: principal?.kind === 'user' }, 200, principal?.kind === 'user' || !token ? {} : { 'set-cookie': setCookie(request, '', 0) });
  }
  if (request.method !== 'POST') return refusal(new ToolError('BAD_REQUEST', 'Use POST, GET or DELETE.', { reason: 'method not allowed' }), traceId, { status: 405, headers: { allow: 'GET, POST, DELETE' } });
  const body = await readBody(request, MAX_BODY_BYTES);
  if (!body.ok && body.reason === 'too-large') {
    const message = `The request body is over ${MAX_BODY_BYTES} bytes.`;
    return refusal(ToolError.badRequest(message, [{ field: '(root)', message }]), traceId, { status: 413 });
  }
  let token: unknown;
  try {
    token = body.ok ? (JSON.parse(body.text) as { token?: unknown } | null)?.token : undefined;
  } catch {
    token = undefined;
  }
  if (typeof token !== 'string' || !token.trim() || token.length > 4096) {
    const message = 'Send { "token": "<access token>" }.';
    return refusal(ToolError.badRequest(message, [{ field: 'token', message }]), traceId);
  }
  try {
    const principal = await authenticate(`Bearer ${token.trim()}`);
    if (principal.kind !== 'user') throw new ToolError('UNAUTHORIZED', 'That token signs no one in.');
    const expiresIn = principal.expiresAt ? Math.floor((principal.expiresAt.getTime() - Date.now()) / 1000) : MAX_AGE_SECONDS;
    const maxAge = Math.max(1, Math.min(MAX_AGE_SECONDS, expiresIn, jwtLifetime(token.trim()) ?? MAX_AGE_SECONDS));
    return json({ signedIn: true }, 200, { 'set-cookie': setCookie(request, token.trim(), maxAge) });
  } catch (error) {
    if (!(error instanceof ToolError)) throw error;
    return refusal(error, traceId);
  }
}

/** Seconds a JWT has left (an OAuth access token): the cookie goes with it. */
function jwtLifetime(token: string): number | undefined {
  const [, payload] = token.split('.');
  if (!payload) return undefined;
  try {
    const exp = (JSON.parse(Buffer.from(payload, 'base64url').toString()) as { exp?: unknown }).exp;
    return typeof exp === 'number' ? exp - Math.floor(Date.now() / 1000) : undefined;
  } catch {
    return undefined;
  }
}
