import { specTypeSchemas } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { preflight } from '../../functions/mcp/http/preflight.js';

/**
 * The edge peeks at a JSON-RPC body before the SDK (preflight.ts). It must read what the SDK will read:
 * a tools/call's name and arguments, a resources/read's uri, exactly when the SDK's own schemas accept
 * the message as one, and otherwise leave the message to the SDK untouched.
 */
type Checked = { issues?: readonly unknown[]; value?: unknown };
const validate = (schema: 'CallToolRequest' | 'ReadResourceRequest' | 'JSONRPCMessage', value: unknown) =>
  (specTypeSchemas[schema] as unknown as { '~standard': { validate(value: unknown): Checked } })['~standard'].validate(value);
const accepted = (schema: 'CallToolRequest' | 'ReadResourceRequest' | 'JSONRPCMessage', value: unknown) => {
  const result = validate(schema, value);
  return result.issues === undefined ? (result.value as { params: Record<string, unknown> }) : undefined;
};

// Every combination of envelope, method and params a client (or a fuzzer) might send.
const ENVELOPES = [{ jsonrpc: '2.0', id: 7 }, { jsonrpc: '2.0', id: 'call-1' }, { jsonrpc: '2.0' }, { id: 3 }, { jsonrpc: '2.0', id: null }, { jsonrpc: '1.0', id: 4 }];
const METHODS = ['tools/call', 'resources/read', 'tools/list', 'prompts/get', undefined];
const PARAMS = [
  { name: 'tn_course_get', arguments: { course: 'sfu:CMPT 225' } },
  { name: 'tn_tools_list' },
  { name: 'tn_session_ask', arguments: { sessionId: 's', question: 'q' }, _meta: { progressToken: 'p-1' } },
  { name: 'tn_course_get', arguments: 'sfu:CMPT 225' },
  { name: 'tn_course_get', arguments: [1, 2] },
  { name: 42, arguments: {} },
  { arguments: { course: 'x' } },
  { uri: 'course://sfu/CMPT%20225' },
  { uri: 42 },
  { uri: 'session://01J0000000000000000000000/transcript', _meta: { progressToken: 5 } },
  {},
  null,
  undefined,
  'tools/call',
];
const MESSAGES = ENVELOPES.flatMap((envelope) =>
  METHODS.flatMap((method) => PARAMS.map((params) => ({ ...envelope, ...(method === undefined ? {} : { method }), ...(params === undefined ? {} : { params }) }))),
);

describe('preflight against the SDK schemas', () => {
  it(`reads a tools/call exactly when the SDK's CallToolRequest schema accepts the message, with the SDK's name and arguments (${MESSAGES.length} messages)`, () => {
    let calls = 0;
    for (const message of MESSAGES) {
      const sdk = accepted('CallToolRequest', message);
      const seen = preflight(JSON.stringify(message)).toolCalls;
      const label = JSON.stringify(message);
      if (!sdk) {
        expect(seen, label).toEqual([]);
        continue;
      }
      calls++;
      const id = (message as { id?: unknown }).id;
      expect(seen, label).toEqual([{ id: typeof id === 'number' || typeof id === 'string' ? id : null, name: sdk.params.name, arguments: sdk.params.arguments }]);
    }
    expect(calls).toBeGreaterThanOrEqual(ENVELOPES.length * 3);
  });

  it("reads a resources/read exactly when the SDK's ReadResourceRequest schema accepts it, with the SDK's uri", () => {
    let reads = 0;
    for (const message of MESSAGES) {
      const sdk = accepted('ReadResourceRequest', message);
      const seen = preflight(JSON.stringify(message)).resourceReads;
      if (!sdk) {
        expect(seen, JSON.stringify(message)).toEqual([]);
        continue;
      }
      reads++;
      expect(seen.map((read) => read.uri), JSON.stringify(message)).toEqual([sdk.params.uri]);
    }
    expect(reads).toBeGreaterThanOrEqual(ENVELOPES.length * 2);
  });

  it('sees a progress token wherever the SDK would read one from params._meta', () => {
    for (const message of MESSAGES) {
      const sdk = accepted('JSONRPCMessage', message) as { params?: { _meta?: { progressToken?: unknown } } } | undefined;
      if (!sdk) continue;
      expect(preflight(JSON.stringify(message)).asksForProgress, JSON.stringify(message)).toBe(sdk.params?._meta?.progressToken !== undefined);
    }
  });

  it('reads every message of a batch, in order', () => {
    const batch = MESSAGES.filter((message) => accepted('JSONRPCMessage', message));
    const peek = preflight(JSON.stringify(batch));
    expect(peek.toolCalls.map((call) => call.name)).toEqual(batch.flatMap((message) => (accepted('CallToolRequest', message) ? [String(accepted('CallToolRequest', message)!.params.name)] : [])));
    expect(peek.parsed).toEqual(batch);
  });

  it("notes the __proto__ keys the SDK's parse drops, so the pipeline can refuse them", () => {
    const text = '{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"tn_course_get","arguments":{"course":"sfu:CMPT 225","__proto__":{"admin":true}}}}';
    const sdk = accepted('CallToolRequest', JSON.parse(text));
    // What makes the peek necessary: the SDK's parsed arguments no longer carry the key.
    expect(Object.keys(sdk!.params.arguments as object)).toEqual(['course']);
    const peek = preflight(text);
    expect([...peek.inputIssues.keys()]).toEqual([9]);
    expect(peek.inputIssues.get(9)!.map((issue) => issue.field)).toEqual(['__proto__']);
    expect(preflight(text.replace('"__proto__"', '"proto"')).inputIssues.size).toBe(0);
  });

  it('leaves what is not JSON, or empty, to the SDK: nothing peeked and nothing parsed', () => {
    for (const text of ['', '   ', '{"jsonrpc":"2.0",', 'not json', '[']) {
      expect(preflight(text)).toEqual({ parsed: undefined, toolCalls: [], resourceReads: [], inputIssues: new Map(), asksForProgress: false });
    }
    for (const value of [42, 'tools/call', null, [null, 1, 'x'], true]) {
      const peek = preflight(JSON.stringify(value));
      expect(peek.parsed).toEqual(value);
      expect([peek.toolCalls, peek.resourceReads, peek.asksForProgress]).toEqual([[], [], false]);
    }
  });
});
