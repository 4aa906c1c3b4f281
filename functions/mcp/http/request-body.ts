import { INPUT_BOUNDS, prototypeKeyIssue, prototypeKeyPaths } from '../tools/input-bounds.js';
import type { FieldIssue } from '../tools/errors.js';

/** The largest request body either endpoint reads (the MCP SDK's own default). */
export const MAX_REQUEST_BODY_BYTES = 4 * 1024 * 1024;

export type BodyRead = { ok: true; text: string } | { ok: false; reason: 'too-large' | 'unreadable' };

/** Reads a body as text, refusing a declared or actual size over the limit without reading the rest. */
export async function readBody(request: Request, maxBytes = MAX_REQUEST_BODY_BYTES): Promise<BodyRead> {
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) return { ok: false, reason: 'too-large' };
  if (!request.body) return { ok: true, text: '' };
  const reader = request.body.getReader();
  const decoder = new TextDecoder();
  let size = 0;
  let text = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => undefined);
        return { ok: false, reason: 'too-large' };
      }
      text += decoder.decode(value, { stream: true });
    }
  } catch {
    return { ok: false, reason: 'unreadable' };
  }
  return { ok: true, text: text + decoder.decode() };
}

type JsonRpcId = string | number;

/** The tools/call messages of a parsed JSON-RPC body (one message or a batch): ids, tool names, raw arguments. */
export function toolCallsIn(body: unknown): { id: JsonRpcId | null; name: string; arguments: unknown }[] {
  return (Array.isArray(body) ? body : [body]).flatMap((message) => {
    if (typeof message !== 'object' || message === null) return [];
    const { method, id, params } = message as { method?: unknown; id?: unknown; params?: { name?: unknown; arguments?: unknown } };
    if (method !== 'tools/call' || typeof params?.name !== 'string') return [];
    return [{ id: typeof id === 'string' || typeof id === 'number' ? id : null, name: params.name, arguments: params.arguments }];
  });
}

/** Every resources/read of a parsed JSON-RPC body (single message or batch). */
export function resourceReadsIn(body: unknown): { id: JsonRpcId | null; uri: string }[] {
  return (Array.isArray(body) ? body : [body]).flatMap((message) => {
    if (typeof message !== 'object' || message === null) return [];
    const { method, id, params } = message as { method?: unknown; id?: unknown; params?: { uri?: unknown } };
    if (method !== 'resources/read' || typeof params?.uri !== 'string') return [];
    return [{ id: typeof id === 'string' || typeof id === 'number' ? id : null, uri: params.uri }];
  });
}

/**
 * `__proto__` keys in the arguments of each tools/call of a parsed JSON-RPC body, by request id.
 * JSON.parse keeps them as data, but the protocol layer's parse drops them silently; the tool call
 * must refuse them as the REST twin does.
 */
export function prototypeKeysInToolCalls(body: unknown): Map<JsonRpcId, FieldIssue[]> {
  const found = new Map<JsonRpcId, FieldIssue[]>();
  for (const call of toolCallsIn(body)) {
    const paths = prototypeKeyPaths(call.arguments);
    if (call.id !== null && paths.length) found.set(call.id, paths.slice(0, INPUT_BOUNDS.issuesListed).map(prototypeKeyIssue));
  }
  return found;
}
