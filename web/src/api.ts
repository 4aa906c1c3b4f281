/** The REST twins: POST /v1/tools/<tool>, the same server and the same tools agents use. */

export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

/**
 * Signing in hands the token to the server once (POST /v1/web-session), which keeps it in an HttpOnly,
 * SameSite=Strict cookie: no script on the page can read it, so an XSS could not carry it away. The
 * page keeps only whether it is signed in.
 */
const SESSION = '/v1/web-session';
const SIGNED_IN_KEY = 'tn-signed-in';
/** Where versions before the cookie kept the token itself: moved into the cookie once, then removed. */
const LEGACY_TOKEN_KEY = 'tn-token';

export function signedIn(): boolean {
  try {
    return localStorage.getItem(SIGNED_IN_KEY) === '1';
  } catch {
    return false;
  }
}

function setSignedIn(value: boolean): void {
  if (value === signedIn()) return;
  try {
    if (value) localStorage.setItem(SIGNED_IN_KEY, '1');
    else localStorage.removeItem(SIGNED_IN_KEY);
  } catch {
    // storage disabled: the cookie still works for this page
  }
  window.dispatchEvent(new Event('tn-auth'));
}

export async function signInWith(token: string): Promise<void> {
  const response = await fetch(SESSION, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token }) });
  if (!response.ok) throw await errorFrom(response);
  setSignedIn(true);
}

export async function signOut(): Promise<void> {
  await fetch(SESSION, { method: 'DELETE' }).catch(() => undefined);
  setSignedIn(false);
}

/** Settles before the page's first call: an old stored token moves into the cookie, and the flag follows the cookie. */
const sessionReady: Promise<void> = (async () => {
  let legacy: string | null = null;
  try {
    legacy = localStorage.getItem(LEGACY_TOKEN_KEY);
    localStorage.removeItem(LEGACY_TOKEN_KEY);
  } catch {
    return;
  }
  if (legacy) {
    // Signed in from the first render; the cookie is in place before the first call goes out.
    localStorage.setItem(SIGNED_IN_KEY, '1');
    return signInWith(legacy).catch(() => setSignedIn(false));
  }
  if (!signedIn()) return;
  const state = (await fetch(SESSION).then((r) => r.json(), () => undefined)) as { signedIn?: boolean } | undefined;
  if (state?.signedIn === false) setSignedIn(false);
})();

/** Waits for the session restored at page load; tool calls go out after it. */
export const whenSessionReady = () => sessionReady;

/** A 401 while signed in means the cookie expired or was revoked: show the page signed out. */
export function noteUnauthorized(status: number): void {
  if (status === 401) setSignedIn(false);
}

/** The ErrorResponse's own message when there is one: that is what the student sees. */
export async function errorFrom(response: Response): Promise<ApiError> {
  const text = await response.text().catch(() => '');
  try {
    const body = JSON.parse(text) as { code?: string; message?: string; details?: unknown };
    if (body.message) return new ApiError(body.code ?? 'INTERNAL_ERROR', body.message, response.status, body.details);
  } catch {
    // not JSON: fall through to a message of our own
  }
  return new ApiError('INTERNAL_ERROR', `The server answered ${response.status} ${response.statusText}.`, response.status);
}

export async function callTool<T>(tool: string, input: object = {}, signal?: AbortSignal): Promise<T> {
  await sessionReady;
  let response: Response;
  try {
    response = await fetch(`/v1/tools/${tool}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(input),
      signal,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError('SERVICE_UNAVAILABLE', 'The server could not be reached. Check your connection and try again.', 0);
  }
  if (!response.ok) {
    noteUnauthorized(response.status);
    throw await errorFrom(response);
  }
  return (await response.json()) as T;
}

export const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
