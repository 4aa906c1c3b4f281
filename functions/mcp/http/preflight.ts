import { INPUT_BOUNDS, prototypeKeyIssue, prototypeKeyPaths } from '../tools/input-bounds.js';
import type { FieldIssue } from '../tools/errors.js';

/**
 * Everything the HTTP edge reads of a JSON-RPC body before the MCP SDK sees it, in one place. The SDK
 * owns the protocol (it parses, validates and answers every message, malformed ones included); the
 * edge only peeks at what it must decide first:
 * - which tools are called and which resources read, to answer a call the caller may not make with
 *   an HTTP 401/403 challenge (MCP authorization spec) before the SDK runs anything;
 * - `__proto__` keys in tool arguments, which JSON.parse keeps as data but the SDK's parse drops
 *   silently, so the pipeline can refuse them as the REST twin does;
 * - whether any message asks for progress, which keeps the SSE stream its notifications need.
 *
 * Each peek reads a message only as far as the SDK's schemas would accept it (the method, a string
 * `params.name` with object arguments or a string `params.uri`; the id if it has one) and skips
 * anything else, leaving its error to the SDK.
 * `test/unit/preflight.test.ts` checks this against the SDK's own schemas.
 */
export interface Preflight {
  /** The parsed body, for the SDK to take as is; undefined when empty or not JSON (the SDK then re-reads the text and answers the parse error its way). */
  parsed: unknown;
  toolCalls: ToolCallPeek[];
  resourceReads: ResourceReadPeek[];
  /** Per tools/call id: the `__proto__` keys its raw arguments held, as issues to refuse the call with. */
  inputIssues: Map<JsonRpcId, FieldIssue[]>;
  /** Some message carries `params._meta.progressToken`. */
  asksForProgress: boolean;
}

type JsonRpcId = string | number;
interface ToolCallPeek {
  id: JsonRpcId | null;
  name: string;
  arguments: unknown;
}
interface ResourceReadPeek {
  id: JsonRpcId | null;
  uri: string;
}

/** Peeks at a JSON-RPC body (one message or a batch) read as text. */
export function preflight(text: string): Preflight {
  const parsed = parseJson(text);
  const messages = parsed === undefined ? [] : Array.isArray(parsed) ? parsed : [parsed];
  const toolCalls: ToolCallPeek[] = [];
  const resourceReads: ResourceReadPeek[] = [];
  let asksForProgress = false;
  for (const message of messages) {
    if (typeof message !== 'object' || message === null) continue;
    const { method, id, params } = message as { method?: unknown; id?: unknown; params?: { name?: unknown; uri?: unknown; arguments?: unknown; _meta?: { progressToken?: unknown } } };
    const requestId = typeof id === 'string' || typeof id === 'number' ? id : null;
    if (params?._meta?.progressToken !== undefined) asksForProgress = true;
    if (method === 'tools/call' && typeof params?.name === 'string' && isArguments(params.arguments)) toolCalls.push({ id: requestId, name: params.name, arguments: params.arguments });
    if (method === 'resources/read' && typeof params?.uri === 'string') resourceReads.push({ id: requestId, uri: params.uri });
  }
  return { parsed, toolCalls, resourceReads, inputIssues: prototypeKeysIn(toolCalls), asksForProgress };
}

/** The SDK takes a call's arguments only as an object, or none: a call with any other is malformed, and the SDK's to answer. */
const isArguments = (value: unknown) => value === undefined || (typeof value === 'object' && value !== null && !Array.isArray(value));

function parseJson(text: string): unknown {
  if (!text.trim()) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** JSON.parse keeps `__proto__` as an own key; the protocol layer's parse drops it, so it is noted here. */
function prototypeKeysIn(calls: ToolCallPeek[]): Map<JsonRpcId, FieldIssue[]> {
  const found = new Map<JsonRpcId, FieldIssue[]>();
  for (const call of calls) {
    const paths = prototypeKeyPaths(call.arguments);
    if (call.id !== null && paths.length) found.set(call.id, paths.slice(0, INPUT_BOUNDS.issuesListed).map(prototypeKeyIssue));
  }
  return found;
}
