/**
 * A fake LLM provider for tests: one node:http server on 127.0.0.1 that speaks the real wire protocols of
 * OpenAI chat completions (`POST /v1/chat/completions`) and Anthropic messages (`POST /v1/messages`),
 * streaming (SSE) and not, with tool calls and provider-shaped errors. The shapes follow what the AI SDK
 * providers parse (@ai-sdk/openai, @ai-sdk/openai-compatible, @ai-sdk/anthropic), so production code runs
 * against it unchanged: point `baseURL` at `openaiBaseUrl` / `anthropicBaseUrl`.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

interface FakeToolCall { name: string; input: Record<string, unknown> }
interface FakeReply {
  text?: string; // assistant text (default: `Tutor says: <last user message text>`)
  toolCalls?: FakeToolCall[]; // when set, the reply asks for these tool calls instead of text
  status?: number; // when set (e.g. 401, 429, 500, 503), respond with this status and the provider's error JSON
  retryAfterSeconds?: number; // adds a retry-after header to error responses
  delayMs?: number; // wait before the response headers
  chunkDelayMs?: number; // wait between streamed chunks
  chunks?: number; // split text into this many stream deltas (default 4, or fewer for short text)
  hang?: boolean; // accept the request and never answer (until the client aborts or close())
}
interface RecordedRequest {
  protocol: 'openai' | 'anthropic';
  path: string;
  headers: Record<string, string>;
  body: any; // parsed JSON request body
  stream: boolean;
  apiKey: string | undefined; // from `authorization: Bearer` (openai) or `x-api-key` (anthropic)
}
export interface FakeProvider {
  url: string; // http://127.0.0.1:<port>
  openaiBaseUrl: string; // `${url}/v1`
  anthropicBaseUrl: string; // `${url}/v1`
  requests: RecordedRequest[];
  /** Replies used in order, one per request; when empty, `respond` (or the default echo) decides. */
  enqueue(...replies: FakeReply[]): void;
  respond(fn: ((request: RecordedRequest) => FakeReply | Promise<FakeReply>) | undefined): void;
  /** Requests wait (after being recorded) until the returned release function is called. */
  hold(): () => void;
  /** Number of requests currently being served. */
  inFlight(): number;
  reset(): void; // clears requests, queue, respond fn, holds
  close(): Promise<void>; // also ends hanging/held requests
}

type Protocol = RecordedRequest['protocol'];
const ROUTES: Record<string, Protocol> = { '/v1/chat/completions': 'openai', '/v1/messages': 'anthropic' };

/** Error bodies as each provider sends them; messages never echo the caller's key (real OpenAI masks it). */
const ERRORS: Record<number, { openai: [type: string, code: string | null]; anthropic: string; message: string }> = {
  400: { openai: ['invalid_request_error', null], anthropic: 'invalid_request_error', message: 'Invalid request.' },
  401: { openai: ['invalid_request_error', 'invalid_api_key'], anthropic: 'authentication_error', message: 'Incorrect API key provided.' },
  403: { openai: ['invalid_request_error', 'unsupported_country_region_territory'], anthropic: 'permission_error', message: 'Permission denied.' },
  404: { openai: ['invalid_request_error', 'model_not_found'], anthropic: 'not_found_error', message: 'Not found.' },
  429: { openai: ['requests', 'rate_limit_exceeded'], anthropic: 'rate_limit_error', message: 'Rate limit reached, please retry later.' },
  500: { openai: ['server_error', null], anthropic: 'api_error', message: 'The server had an error while processing your request.' },
  503: { openai: ['server_error', null], anthropic: 'overloaded_error', message: 'The server is overloaded, please retry later.' },
  529: { openai: ['server_error', null], anthropic: 'overloaded_error', message: 'Overloaded.' },
};

function errorJson(protocol: Protocol, status: number): object {
  const spec = ERRORS[status] ?? ERRORS[status >= 500 ? 500 : 400]!;
  return protocol === 'openai'
    ? { error: { message: spec.message, type: spec.openai[0], param: null, code: spec.openai[1] } }
    : { type: 'error', error: { type: spec.anthropic, message: spec.message } };
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;
const messagesOf = (body: unknown): Record<string, unknown>[] =>
  isRecord(body) && Array.isArray(body.messages) ? body.messages.filter(isRecord) : [];

/** Text of a message/tool-result content in either protocol: a plain string or an array of `{type:'text'}` parts. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => (isRecord(part) && part.type === 'text' && typeof part.text === 'string' ? part.text : '')).join('');
}

/**
 * Text of the tool results the conversation currently ends with (the turn the model must answer), or undefined.
 * Only trailing results count, so a later plain user question after an earlier tool round trip is echoed instead.
 */
function trailingToolResults(request: RecordedRequest): string | undefined {
  const messages = messagesOf(request.body);
  const results: string[] = [];
  if (request.protocol === 'openai') {
    for (let i = messages.length - 1; i >= 0 && messages[i]!.role === 'tool'; i--) results.unshift(textOf(messages[i]!.content));
  } else {
    const last = messages.at(-1);
    const blocks = last?.role === 'user' && Array.isArray(last.content) ? last.content.filter(isRecord) : [];
    for (const block of blocks) if (block.type === 'tool_result') results.push(textOf(block.content));
  }
  return results.length ? results.join('\n') : undefined;
}

function defaultText(request: RecordedRequest): string {
  const toolText = trailingToolResults(request);
  if (toolText !== undefined) return `Tutor says (after tools): ${toolText.slice(0, 200)}`;
  const userTexts = messagesOf(request.body).filter((m) => m.role === 'user').map((m) => textOf(m.content)).filter(Boolean);
  return `Tutor says: ${userTexts.at(-1) ?? ''}`;
}

const tokens = (chars: number) => Math.max(1, Math.ceil(chars / 4));

function split(text: string, parts: number): string[] {
  if (!text) return [];
  const size = Math.ceil(text.length / Math.max(1, Math.min(parts, text.length)));
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
  return pieces;
}

interface Answer { text: string; toolCalls: (FakeToolCall & { id: string; args: string })[]; inputTokens: number; outputTokens: number; model: string }

/** Non-streaming response bodies: `chat.completion` and `message`. */
function completeBody(protocol: Protocol, a: Answer): object {
  const created = Math.floor(Date.now() / 1000);
  if (protocol === 'openai') {
    const toolCalls = a.toolCalls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.args } }));
    const message = { role: 'assistant', content: a.text || null, refusal: null, ...(toolCalls.length ? { tool_calls: toolCalls } : {}) };
    const usage = { prompt_tokens: a.inputTokens, completion_tokens: a.outputTokens, total_tokens: a.inputTokens + a.outputTokens };
    const finish_reason = toolCalls.length ? 'tool_calls' : 'stop';
    return { id: `chatcmpl-${randomUUID()}`, object: 'chat.completion', created, model: a.model, choices: [{ index: 0, message, logprobs: null, finish_reason }], usage };
  }
  const content = [...(a.text ? [{ type: 'text', text: a.text }] : []), ...a.toolCalls.map((c) => ({ type: 'tool_use', id: c.id, name: c.name, input: c.input }))];
  const stop_reason = a.toolCalls.length ? 'tool_use' : 'end_turn';
  return { id: `msg_${randomUUID()}`, type: 'message', role: 'assistant', model: a.model, content, stop_reason, stop_sequence: null, usage: { input_tokens: a.inputTokens, output_tokens: a.outputTokens } };
}

/** SSE frames in the order the real APIs send them. */
function streamFrames(protocol: Protocol, a: Answer, parts: number, includeUsage: boolean): string[] {
  if (protocol === 'openai') {
    const base = { id: `chatcmpl-${randomUUID()}`, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model: a.model };
    const chunk = (delta: object, finish_reason: string | null = null) =>
      `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason }], ...(includeUsage ? { usage: null } : {}) })}\n\n`;
    const frames = [chunk({ role: 'assistant', content: a.toolCalls.length && !a.text ? null : '', refusal: null })];
    for (const piece of split(a.text, parts)) frames.push(chunk({ content: piece }));
    a.toolCalls.forEach((c, index) => {
      frames.push(chunk({ tool_calls: [{ index, id: c.id, type: 'function', function: { name: c.name, arguments: '' } }] }));
      for (const piece of split(c.args, parts)) frames.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
    });
    frames.push(chunk({}, a.toolCalls.length ? 'tool_calls' : 'stop'));
    if (includeUsage) {
      const usage = { prompt_tokens: a.inputTokens, completion_tokens: a.outputTokens, total_tokens: a.inputTokens + a.outputTokens };
      frames.push(`data: ${JSON.stringify({ ...base, choices: [], usage })}\n\n`);
    }
    return [...frames, 'data: [DONE]\n\n'];
  }
  const event = (data: { type: string } & Record<string, unknown>) => `event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`;
  const message = { id: `msg_${randomUUID()}`, type: 'message', role: 'assistant', model: a.model, content: [], stop_reason: null, stop_sequence: null };
  const frames = [event({ type: 'message_start', message: { ...message, usage: { input_tokens: a.inputTokens, output_tokens: 1 } } })];
  let index = 0;
  if (a.text) {
    frames.push(event({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } }), event({ type: 'ping' }));
    for (const text of split(a.text, parts)) frames.push(event({ type: 'content_block_delta', index, delta: { type: 'text_delta', text } }));
    frames.push(event({ type: 'content_block_stop', index: index++ }));
  }
  for (const c of a.toolCalls) {
    frames.push(event({ type: 'content_block_start', index, content_block: { type: 'tool_use', id: c.id, name: c.name, input: {} } }));
    for (const partial_json of ['', ...split(c.args, parts)]) frames.push(event({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json } }));
    frames.push(event({ type: 'content_block_stop', index: index++ }));
  }
  const stop_reason = a.toolCalls.length ? 'tool_use' : 'end_turn';
  frames.push(event({ type: 'message_delta', delta: { stop_reason, stop_sequence: null }, usage: { output_tokens: a.outputTokens } }));
  return [...frames, event({ type: 'message_stop' })];
}

export async function startFakeProvider(options: { acceptKeys?: string[] } = {}): Promise<FakeProvider> {
  const requests: RecordedRequest[] = [];
  const queue: FakeReply[] = [];
  let responder: ((request: RecordedRequest) => FakeReply | Promise<FakeReply>) | undefined;
  const holds = new Set<symbol>();
  const heldWaiters = new Set<() => void>();
  const active = new Set<Promise<void>>(); // one per request being served; close() waits for them
  let closing: Promise<void> | undefined;

  const wakeHeld = () => { for (const wake of heldWaiters) wake(); heldWaiters.clear(); };

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let gone = false; // the client aborted, or close() cut the connection
    res.once('close', () => { gone = true; });
    // Resolves early when the connection goes away, so aborts and close() never wait out a long delay.
    const pause = (ms: number) => new Promise<void>((resolve) => {
      if (gone || ms <= 0) return resolve();
      const done = () => { clearTimeout(timer); res.off('close', done); resolve(); };
      const timer = setTimeout(done, ms);
      res.once('close', done);
    });
    const path = (req.url ?? '/').split('?')[0]!;
    const protocol = ROUTES[path];
    const sendJson = (status: number, body: object, headers: Record<string, string> = {}) => {
      if (gone) return;
      const requestIdHeader = protocol === 'anthropic' ? 'request-id' : 'x-request-id';
      res.writeHead(status, { 'content-type': 'application/json', [requestIdHeader]: `req_${randomUUID()}`, ...headers }).end(JSON.stringify(body));
    };
    if (!protocol || req.method !== 'POST') return sendJson(404, errorJson(protocol ?? 'openai', 404));

    const raw: Buffer[] = [];
    for await (const piece of req) raw.push(piece as Buffer);
    let body: unknown;
    try { body = JSON.parse(Buffer.concat(raw).toString('utf8')); } catch { return sendJson(400, errorJson(protocol, 400)); }

    const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]));
    const apiKey = protocol === 'openai' ? headers.authorization?.replace(/^Bearer\s+/i, '') : headers['x-api-key'];
    const request: RecordedRequest = { protocol, path, headers, body, stream: isRecord(body) && body.stream === true, apiKey };
    requests.push(request);

    while (holds.size > 0 && !gone && !closing) {
      await new Promise<void>((resolve) => { heldWaiters.add(resolve); res.once('close', resolve); });
    }
    if (gone || closing) return void res.destroy();

    // An unknown key is the provider's decision, not the scenario's: it doesn't consume a queued reply.
    if (options.acceptKeys && (apiKey === undefined || !options.acceptKeys.includes(apiKey))) return sendJson(401, errorJson(protocol, 401));
    const reply: FakeReply = queue.shift() ?? (await responder?.(request)) ?? {};

    if (reply.hang) {
      if (!gone) await new Promise((resolve) => res.once('close', resolve));
      return;
    }
    await pause(reply.delayMs ?? 0);
    if (reply.status !== undefined && reply.status >= 400) {
      const retryAfter: Record<string, string> = reply.retryAfterSeconds !== undefined ? { 'retry-after': String(reply.retryAfterSeconds) } : {};
      return sendJson(reply.status, errorJson(protocol, reply.status), retryAfter);
    }

    const toolCalls = (reply.toolCalls ?? []).map((c) => ({
      ...c, id: protocol === 'openai' ? `call_${randomUUID().replaceAll('-', '')}` : `toolu_${randomUUID().replaceAll('-', '')}`, args: JSON.stringify(c.input),
    }));
    // With tool calls the reply carries text only when the scenario asks for it (like a model thinking aloud).
    const text = reply.text ?? (toolCalls.length ? '' : defaultText(request));
    const answer: Answer = {
      text, toolCalls, model: isRecord(body) && typeof body.model === 'string' ? body.model : 'fake-model',
      inputTokens: tokens(JSON.stringify(messagesOf(body)).length), outputTokens: tokens(text.length + toolCalls.reduce((n, c) => n + c.args.length, 0)),
    };
    if (!request.stream) return sendJson(reply.status ?? 200, completeBody(protocol, answer));

    const includeUsage = isRecord(body) && isRecord(body.stream_options) && body.stream_options.include_usage === true;
    const frames = streamFrames(protocol, answer, reply.chunks ?? 4, includeUsage);
    if (gone) return;
    res.writeHead(reply.status ?? 200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    for (const [i, frame] of frames.entries()) {
      if (i > 0) await pause(reply.chunkDelayMs ?? 0);
      if (gone) return;
      res.write(frame);
    }
    res.end();
  }

  const server = createServer((req, res) => {
    const serving: Promise<void> = serve(req, res)
      .catch((error: unknown) => {
        // A throwing `respond` fn is a test bug; answer 500 so it surfaces as an API error rather than a hang.
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: String(error), type: 'server_error' } }));
        else res.destroy();
      })
      .finally(() => { active.delete(serving); });
    active.add(serving);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    openaiBaseUrl: `${url}/v1`,
    anthropicBaseUrl: `${url}/v1`,
    requests,
    enqueue: (...replies) => { queue.push(...replies); },
    respond: (fn) => { responder = fn; },
    hold() {
      const token = Symbol('hold');
      holds.add(token);
      return () => { holds.delete(token); if (holds.size === 0) wakeHeld(); };
    },
    inFlight: () => active.size,
    reset() {
      requests.length = 0; // in place: callers may keep a reference to `requests`
      queue.length = 0;
      responder = undefined;
      holds.clear();
      wakeHeld();
    },
    close() {
      closing ??= new Promise<void>((resolve, reject) => {
        holds.clear();
        wakeHeld();
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections(); // ends hanging and streaming responses and idle keep-alive sockets
      }).then(async () => { await Promise.all(active); });
      return closing;
    },
  };
}
