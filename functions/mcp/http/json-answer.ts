import { randomUUID } from 'node:crypto';
import type { CallToolResult, JSONRPCMessage } from '@modelcontextprotocol/server';

type RequestId = string | number;

const NON_ASCII = /[\u0080-\uffff]/g;
const HAS_NON_ASCII = /[\u0080-\uffff]/;

/**
 * The same JSON with every non-ASCII code unit written as a `\uXXXX` escape: it parses to the same
 * value. An all-ASCII answer is a one-byte string to encode and a fast path for the client's UTF-8
 * decoder; one "→" in 40 KB otherwise makes encoding and decoding it several times slower.
 * Only valid on JSON text (outside string literals JSON has no non-ASCII characters to escape).
 */
export function asciiJson(json: string): string {
  return HAS_NON_ASCII.test(json) ? json.replace(NON_ASCII, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`) : json;
}

// Stand-ins for the two large strings while the rest of a message is serialized; never sent.
const TEXT_MARK = `"tn-answer-text-${randomUUID()}"`;
const DATA_MARK = `"tn-answer-data-${randomUUID()}"`;

/**
 * A tools/call answer already holds its largest part serialized: the first text block is the JSON of
 * structuredContent. Remembered per request, the answer is written from that text instead of being
 * serialized again (structuredContent, then the text block escaped inside the envelope).
 */
export class PreparedAnswers {
  private readonly byId = new Map<RequestId, { text: string; data: Record<string, unknown> }>();

  /** `result.content[0].text` must be `JSON.stringify(result.structuredContent)`. */
  remember(id: RequestId, result: CallToolResult): void {
    const first = result.content[0];
    if (first?.type === 'text' && result.structuredContent) this.byId.set(id, { text: first.text, data: result.structuredContent as Record<string, unknown> });
  }

  /**
   * The bytes of `asciiJson(JSON.stringify(message))`, or undefined when the message is not an answer
   * remembered here in the shape it was remembered (then the caller serializes it as usual).
   */
  encode(message: JSONRPCMessage): Uint8Array<ArrayBuffer> | undefined {
    if (!('result' in message) || !('id' in message)) return undefined;
    const prepared = this.byId.get(message.id);
    const result = message.result as CallToolResult;
    const first = result.content?.[0];
    // The SDK hands on a validated copy: the same text, and structuredContent with the same members.
    if (!prepared || first?.type !== 'text' || first.text !== prepared.text || !sameMembers(result.structuredContent, prepared.data)) return undefined;
    const skeleton = JSON.stringify({
      ...message,
      result: { ...result, content: [{ ...first, text: JSON.parse(TEXT_MARK) as string }, ...result.content.slice(1)], structuredContent: JSON.parse(DATA_MARK) as string },
    });
    return spliced(skeleton, [
      [TEXT_MARK, () => JSON.stringify(prepared.text)],
      [DATA_MARK, () => prepared.text],
    ]);
  }
}

/** Shallow equality: the same keys in the same order holding the same values serialize alike. */
function sameMembers(copy: unknown, original: Record<string, unknown>): boolean {
  if (!copy || typeof copy !== 'object' || Array.isArray(copy)) return false;
  const keys = Object.keys(copy);
  const originalKeys = Object.keys(original);
  return keys.length === originalKeys.length && keys.every((key, i) => key === originalKeys[i] && (copy as Record<string, unknown>)[key] === original[key]);
}

/** Puts each JSON text where its mark stands, written as ASCII bytes into one buffer (joining the strings first would copy the answer once more). */
function spliced(skeleton: string, marks: [string, () => string][]): Uint8Array<ArrayBuffer> | undefined {
  const found = marks.map(([mark, json]) => ({ at: skeleton.indexOf(mark), mark, json })).sort((a, b) => a.at - b.at);
  if (found.some(({ at, mark }) => at < 0 || skeleton.indexOf(mark, at + 1) >= 0)) return undefined;
  const pieces: string[] = [];
  let from = 0;
  for (const { at, mark, json } of found) {
    pieces.push(asciiJson(skeleton.slice(from, at)), asciiJson(json()));
    from = at + mark.length;
  }
  pieces.push(asciiJson(skeleton.slice(from)));
  const bytes = Buffer.allocUnsafe(pieces.reduce((length, piece) => length + piece.length, 0));
  let offset = 0;
  for (const piece of pieces) offset += bytes.write(piece, offset, 'latin1');
  return bytes;
}
