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

const TOKEN_KEY = 'tn-token';

export function storedToken(): string | null {
  try {
    return localStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

export function storeToken(token: string | null): void {
  if (token) localStorage.setItem(TOKEN_KEY, token);
  else localStorage.removeItem(TOKEN_KEY);
  window.dispatchEvent(new Event('tn-auth'));
}

export function authHeaders(): Record<string, string> {
  const token = storedToken();
  return token ? { authorization: `Bearer ${token}` } : {};
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
  let response: Response;
  try {
    response = await fetch(`/v1/tools/${tool}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...authHeaders() },
      body: JSON.stringify(input),
      signal,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError('SERVICE_UNAVAILABLE', 'The server could not be reached. Check your connection and try again.', 0);
  }
  if (!response.ok) throw await errorFrom(response);
  return (await response.json()) as T;
}

export const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
