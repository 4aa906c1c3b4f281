import { ApiError, noteUnauthorized, whenSessionReady } from './api.js';

/**
 * One tools/call over POST /mcp/session with a progress token: the server answers with an SSE stream of
 * progress notifications (each the next piece of the tutor's answer) and then the result. Stateless MCP
 * needs no initialize, so this is all a browser needs; the MCP client SDK would cost more than the app.
 */
export async function callToolStreaming<T>(tool: string, args: object, onText: (piece: string) => void, signal?: AbortSignal): Promise<T> {
  const id = Date.now();
  await whenSessionReady();
  let response: Response;
  try {
    response = await fetch('/mcp/session', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: tool, arguments: args, _meta: { progressToken: `web-${id}` } } }),
      signal,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError('SERVICE_UNAVAILABLE', 'The server could not be reached. Check your connection and try again.', 0);
  }
  if (!response.ok) {
    noteUnauthorized(response.status);
    throw await refusal(response);
  }
  if (!response.headers.get('content-type')?.includes('text/event-stream')) return resultOf<T>(await response.json());

  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += value;
    let end: number;
    while ((end = buffer.search(/\r?\n\r?\n/)) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end).replace(/^\r?\n\r?\n/, '');
      const data = block
        .split(/\r?\n/)
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trimStart())
        .join('\n');
      if (!data) continue;
      const message = JSON.parse(data) as JsonRpcMessage;
      if (message.method === 'notifications/progress' && typeof message.params?.message === 'string') onText(message.params.message);
      else if (message.id === id) return resultOf<T>(message);
    }
  }
  throw new ApiError('SERVICE_UNAVAILABLE', 'The answer stopped before it was complete. Refresh to see what was saved.', 0);
}

interface JsonRpcMessage {
  id?: number;
  method?: string;
  params?: { message?: unknown };
  result?: { isError?: boolean; structuredContent?: unknown; content?: { type: string; text?: string }[]; _meta?: { error?: { code: string; message: string } } };
  error?: { message: string };
}

function resultOf<T>(message: JsonRpcMessage): T {
  if (message.error) throw new ApiError('BAD_REQUEST', message.error.message, 400);
  const result = message.result!;
  if (result.isError) {
    const error = result._meta?.error ?? (JSON.parse(result.content?.[0]?.text ?? '{}') as { code?: string; message?: string });
    throw new ApiError(error.code ?? 'INTERNAL_ERROR', error.message ?? 'The tool failed.', 400);
  }
  return result.structuredContent as T;
}

/** A refusal at the HTTP level: an ErrorResponse, or a JSON-RPC error (sign-in challenges). */
async function refusal(response: Response): Promise<ApiError> {
  const body = (await response.json().catch(() => ({}))) as { message?: string; code?: string; error?: { message?: string } };
  const message = body.message ?? body.error?.message ?? `The server answered ${response.status}.`;
  return new ApiError(body.code ?? (response.status === 401 ? 'UNAUTHORIZED' : 'INTERNAL_ERROR'), message, response.status);
}
