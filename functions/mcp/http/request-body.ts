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
