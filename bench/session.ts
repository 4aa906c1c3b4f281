import { createOpenAI } from '@ai-sdk/openai';
import { generateText, isStepCount, streamText } from 'ai';
import { DEFAULT_MODELS } from '../functions/session/tutor/language-model.js';
import { buildTutorPrompt } from '../functions/session/tutor/tutor-prompt.js';
import { TUTOR_LOOKUPS, tutorLookupTools } from '../functions/session/tutor/tutor-tools.js';
import type { SessionEvent, SessionRecord } from '../functions/session/session-model.js';
import type { Store } from '../functions/platform/store/dynamo-client.js';
import type { ToolContext } from '../functions/mcp/tools/tool-context.js';
import type { ContractRunner } from '../functions/mcp/tools/invoke-tool.js';
import { forwardedOnly } from '../functions/mcp/tools/define-tool.js';
import { ToolRegistry } from '../functions/mcp/tools/registry.js';
import { ANSWER } from './instant-provider.js';
import { round, summarize } from './stats.js';

// Tutoring asks against the instant provider (bench/instant-provider.ts), so what is left is our own
// cost: MCP transport, the tool pipeline, DynamoDB Local, the AI SDK. Conversations are kept to
// TURNS_PER_SESSION asks (a new session after that) so the history each ask reads stays realistic.

const TURNS_PER_SESSION = 10;
const QUESTION = 'How do I write a for loop over a list?';
/** The product's defaults (TN_TUTOR_MAX_TOOL_CALLS, the model of an OpenAI key without one). */
const MAX_TOOL_CALLS = 4;
const MODEL = DEFAULT_MODELS.openai;

export interface SessionTarget {
  /** The local server's base URL, e.g. http://127.0.0.1:8787 */
  url: string;
  token: string;
  /** The instant provider's OpenAI base URL, for the direct baseline. */
  providerBaseUrl: string;
  /** The server's store, to count and time its DynamoDB calls per ask (a rough profile). */
  store: Store;
}

export async function measureSession(target: SessionTarget, options: { warmup: number; samples: number; concurrency: number; seconds: number }) {
  const client = new Client(target);
  await client.ensureByokKey();

  // Warm-up: both server paths (streaming and plain) and both direct SDK paths.
  const warm = new Conversations(await client.startSessions(Math.ceil(options.warmup / TURNS_PER_SESSION)));
  for (let i = 0; i < options.warmup; i++) {
    await client.ask(warm.next(), { progress: i % 2 === 0 });
    await directAsk(target.providerBaseUrl, new DirectHistory(), { stream: i % 2 === 0 });
  }

  // Latency, one ask at a time, interleaved so all four see the same machine: an ask with a progress
  // token (first progress event, final result), the same turn sent straight to the provider with the AI
  // SDK as the product sends it (streamText), then an ask without a token and its direct twin (generateText).
  const sessions = await client.startSessions(2 * Math.ceil(options.samples / TURNS_PER_SESSION));
  const streamed = { conversation: new Conversations(sessions.filter((_, i) => i % 2 === 0)), history: new DirectHistory() };
  const plain = { conversation: new Conversations(sessions.filter((_, i) => i % 2 === 1)), history: new DirectHistory() };
  const profile = new DynamoDbProfile(target.store);
  const s = { firstProgress: [] as number[], result: [] as number[], store: [] as number[], directFirst: [] as number[], directFinish: [] as number[] };
  const p = { result: [] as number[], store: [] as number[], direct: [] as number[] };
  for (let i = 0; i < options.samples; i++) {
    const [timing, storeMs] = await profile.during(() => client.ask(streamed.conversation.next(), { progress: true }));
    const direct = await directAsk(target.providerBaseUrl, streamed.history, { stream: true });
    s.firstProgress.push(timing.firstProgressMs!);
    s.result.push(timing.resultMs);
    s.store.push(storeMs);
    s.directFirst.push(direct.firstDeltaMs!);
    s.directFinish.push(direct.finishMs);
    const [plainTiming, plainStoreMs] = await profile.during(() => client.ask(plain.conversation.next(), { progress: false }));
    p.result.push(plainTiming.resultMs);
    p.store.push(plainStoreMs);
    p.direct.push((await directAsk(target.providerBaseUrl, plain.history, { stream: false })).finishMs);
  }
  const dynamoDb = profile.stop(2 * options.samples);

  // Throughput without a progress token: `concurrency` clients, each on its own sessions (made
  // beforehand: enough for every client to run at its sequential speed), then all on ONE session.
  const perClient = Math.ceil((options.seconds * 1000) / summarize(p.result).p50 / TURNS_PER_SESSION) + 1;
  const pools = await Promise.all(Array.from({ length: options.concurrency }, () => client.startSessions(perClient)));
  const ownSessions = await throughput(client, pools.map((mine) => new Conversations(mine)), options.seconds);
  const shared = await client.startSessions(1);
  const oneSession = await throughput(client, pools.map(() => new Conversations(shared, Infinity)), options.seconds);

  const ours = { firstProgressMs: summarize(s.firstProgress), resultMs: summarize(s.result), dynamoDbBusyMs: summarize(s.store) };
  const direct = { firstDeltaMs: summarize(s.directFirst), finishMs: summarize(s.directFinish) };
  const plainOurs = { resultMs: summarize(p.result), dynamoDbBusyMs: summarize(p.store) };
  const plainDirect = { resultMs: summarize(p.direct) };
  // What is neither DynamoDB nor the provider call: transport, MCP, the tool pipeline, prompt building.
  const rest = (total: number[], store: number[], provider: number[]) => summarize(total.map((t, i) => t - store[i]! - provider[i]!));
  return {
    answerChars: ANSWER.length,
    turnsPerSession: TURNS_PER_SESSION,
    streamed: {
      ours: { name: 'tn_session_ask with a progress token, raw POST /mcp/session (SSE): first notifications/progress, final result; DynamoDB busy time', ...ours },
      directProvider: { name: 'AI SDK streamText on the instant provider, same prompt, history and tools: first text-delta, end of stream', ...direct },
      serverOverheadMs: {
        firstProgress: { p50: round(ours.firstProgressMs.p50 - direct.firstDeltaMs.p50, 2), p99: round(ours.firstProgressMs.p99 - direct.firstDeltaMs.p99, 2) },
        result: { p50: round(ours.resultMs.p50 - direct.finishMs.p50, 2), p99: round(ours.resultMs.p99 - direct.finishMs.p99, 2) },
        resultBesidesDynamoDb: rest(s.result, s.store, s.directFinish),
      },
    },
    plain: {
      ours: { name: 'tn_session_ask without a progress token (one non-streaming provider call); DynamoDB busy time', ...plainOurs },
      directProvider: { name: 'AI SDK generateText on the instant provider, same prompt, history and tools', ...plainDirect },
      serverOverheadMs: {
        result: { p50: round(plainOurs.resultMs.p50 - plainDirect.resultMs.p50, 2), p99: round(plainOurs.resultMs.p99 - plainDirect.resultMs.p99, 2) },
        resultBesidesDynamoDb: rest(p.result, p.store, p.direct),
      },
    },
    dynamoDbPerAsk: { name: 'DynamoDB commands the server sent per ask (both latency runs), and their summed time (parallel calls both counted)', ...dynamoDb },
    throughput: {
      ownSessions: { name: `${options.concurrency} clients, each on its own sessions (${TURNS_PER_SESSION} asks each), no progress token`, ...ownSessions },
      oneSession: { name: `${options.concurrency} clients on ONE session (append contention), no progress token`, ...oneSession },
    },
  };
}

/** Raw JSON-RPC over HTTP, the way bench/protocol-overhead.ts callOnce does (stateless: no initialize). */
class Client {
  private id = 0;
  constructor(private readonly target: SessionTarget) {}

  async rest(tool: string, input: unknown): Promise<any> {
    const response = await fetch(`${this.target.url}/v1/tools/${tool}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${this.target.token}` },
      body: JSON.stringify(input),
    });
    const body = await response.json();
    if (response.status !== 200) throw new Error(`${tool}: ${response.status} ${JSON.stringify(body).slice(0, 300)}`);
    return body;
  }

  /** One OpenAI key, the default, for the tutor (the bench data dir persists between runs: reuse one if there). */
  async ensureByokKey() {
    const listed = await this.rest('tn_user_byok_list', { limit: 50 });
    let openai = listed.items.find((c: any) => c.provider === 'openai');
    openai ??= await this.rest('tn_user_byok_add', { provider: 'openai', apiKey: 'sk-proj-BENCHbenchBENCHbench0001', label: 'bench' });
    await this.rest('tn_user_preferences_set', { defaultCredentialId: openai.credentialId });
  }

  /** Starts `count` sessions, 16 at a time. */
  async startSessions(count: number): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < count; i += 16) {
      const batch = Array.from({ length: Math.min(16, count - i) }, async () => (await this.rest('tn_session_start', {})).sessionId as string);
      ids.push(...(await Promise.all(batch)));
    }
    return ids;
  }

  /** One ask; times the first progress event (when asked for) and the result event as the body arrives. */
  async ask(sessionId: string, options: { progress: boolean }): Promise<{ firstProgressMs?: number; resultMs: number }> {
    const id = ++this.id;
    const params = { name: 'tn_session_ask', arguments: { sessionId, message: QUESTION }, ...(options.progress ? { _meta: { progressToken: `p${id}` } } : {}) };
    const started = performance.now();
    const response = await fetch(`${this.target.url}/mcp/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${this.target.token}` },
      body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params }),
    });
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    let firstProgressMs: number | undefined;
    let resultMs: number | undefined;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
      if (firstProgressMs === undefined && text.includes('"notifications/progress"')) firstProgressMs = performance.now() - started;
      if (resultMs === undefined && text.includes('"result"')) resultMs = performance.now() - started;
    }
    const progressEvents = text.split('"notifications/progress"').length - 1;
    if (response.status !== 200 || resultMs === undefined || text.includes('"isError":true') || !text.includes('\\"status\\":\\"answered\\"')) {
      throw new Error(`tn_session_ask: unexpected response ${response.status} ${text.slice(0, 300)}`);
    }
    if (options.progress && progressEvents === 0) throw new Error(`tn_session_ask: no progress events ${text.slice(0, 300)}`);
    return { firstProgressMs, resultMs };
  }
}

/** Hands out pre-made session ids, the next one every `turns` asks; the last one is kept when they run out. */
class Conversations {
  private index = 0;
  private asked = 0;
  constructor(
    private readonly sessions: string[],
    private readonly turns = TURNS_PER_SESSION,
  ) {}

  next(): string {
    if (this.asked >= this.turns && this.index < this.sessions.length - 1) {
      this.index++;
      this.asked = 0;
    }
    this.asked++;
    return this.sessions[this.index]!;
  }
}

/** Asks/s with one client per conversation for `seconds`. */
async function throughput(client: Client, conversations: Conversations[], seconds: number) {
  let completed = 0;
  let failed = 0;
  const deadline = performance.now() + seconds * 1000;
  const started = performance.now();
  const cpu = process.cpuUsage();
  await Promise.all(
    conversations.map(async (conversation) => {
      while (performance.now() < deadline) {
        try {
          await client.ask(conversation.next(), { progress: false });
          completed++;
        } catch {
          failed++;
        }
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  // Server, clients and instant provider share this process; DynamoDB Local is a separate (Java) one.
  const nodeCpuCores = round((used.user + used.system) / 1e6 / elapsed, 2);
  return { asksPerSecond: round(completed / elapsed, 1), failed, concurrency: conversations.length, nodeCpuCores };
}

/** The history the direct baseline sends: the same turns the server's sessions accumulate. */
class DirectHistory {
  events: SessionEvent[] = [];
  private seq = 0;

  add(role: 'user' | 'assistant', content: string) {
    if (role === 'user' && this.events.length >= TURNS_PER_SESSION * 2) this.events = [];
    const type = role === 'user' ? 'user_message' : 'assistant_message';
    const eventId = `01JD${String(++this.seq).padStart(22, '0')}`;
    const at = new Date().toISOString();
    this.events.push({ eventId, seq: this.events.length + 1, type, role, content, createdAt: at, deviceId: null, clientEventId: null, refersTo: null });
  }
}

const registry = new ToolRegistry('tn_', TUTOR_LOOKUPS.map(forwardedOnly));
// Described to the model, never executed: the instant provider calls no tools.
const neverRuns: ContractRunner = () => Promise.reject(new Error('the bench provider calls no tools'));
const session: SessionRecord = {
  sessionId: '01JD0000000000000000000000',
  ownerId: 'bench',
  status: 'active',
  context: { course: null, courseTitle: null, topic: null, tutoringStyle: 'socratic', language: 'en' },
  course: null,
  createdAt: new Date().toISOString(),
  lastActivityAt: new Date().toISOString(),
  expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
  endedAt: null,
  lastSeq: 0,
  itemsExpireAt: new Date(Date.now() + 86_400_000).toISOString(),
  summary: null,
};

/** What answer-question.ts and run-turn.ts do for one turn, minus the server around them. */
async function directAsk(baseUrl: string, history: DirectHistory, how: { stream: boolean }): Promise<{ firstDeltaMs?: number; finishMs: number }> {
  const started = performance.now();
  const prompt = buildTutorPrompt({ session, history: history.events, question: QUESTION, responseLength: 'standard', maxToolCalls: MAX_TOOL_CALLS });
  const options = {
    model: createOpenAI({ apiKey: 'sk-proj-BENCHbenchBENCHbench0001', baseURL: baseUrl }).chat(MODEL),
    instructions: prompt.instructions,
    messages: prompt.messages,
    tools: await tutorLookupTools({ registry, contractRunner: neverRuns } as unknown as ToolContext, MAX_TOOL_CALLS, { started: 0, calls: [] }),
    stopWhen: isStepCount(MAX_TOOL_CALLS + 1),
    prepareStep: ({ stepNumber }: { stepNumber: number }) => (stepNumber >= MAX_TOOL_CALLS ? { toolChoice: 'none' as const } : undefined),
    maxRetries: 0,
    abortSignal: AbortSignal.any([new AbortController().signal, AbortSignal.timeout(60_000)]),
  };
  let text = '';
  let firstDeltaMs: number | undefined;
  if (how.stream) {
    const result = streamText({ ...options, onError: () => undefined });
    for await (const part of result.stream) {
      if (part.type === 'text-delta' && part.text) {
        firstDeltaMs ??= performance.now() - started;
        text += part.text;
      } else if (part.type === 'error') {
        throw part.error;
      }
    }
  } else {
    text = (await generateText(options)).text;
  }
  const finishMs = performance.now() - started;
  if (text !== ANSWER) throw new Error(`direct provider: unexpected answer ${text.slice(0, 100)}`);
  history.add('user', QUESTION);
  history.add('assistant', text);
  return { firstDeltaMs, finishMs };
}

/**
 * Counts and times the DynamoDB commands the server's document client sends during `during()`; its busy
 * time counts overlapping calls once (the history read and the preferences read run in parallel).
 */
class DynamoDbProfile {
  private static readonly NAME = 'benchDynamoDbProfile';
  private readonly byCommand = new Map<string, { calls: number; ms: number }>();
  private recording = false;
  private inFlight = 0;
  private busySince = 0;
  private busyMs = 0;

  constructor(private readonly store: Store) {
    store.doc.middlewareStack.add(
      (next, context) => async (args) => {
        if (!this.recording) return next(args);
        const started = performance.now();
        if (this.inFlight++ === 0) this.busySince = started;
        try {
          return await next(args);
        } finally {
          const ended = performance.now();
          if (--this.inFlight === 0) this.busyMs += ended - this.busySince;
          const command = context.commandName ?? 'unknown';
          const entry = this.byCommand.get(command) ?? { calls: 0, ms: 0 };
          entry.calls++;
          entry.ms += ended - started;
          this.byCommand.set(command, entry);
        }
      },
      { step: 'initialize', name: DynamoDbProfile.NAME },
    );
  }

  /** Runs `fn`, returning its result and how long the store was busy meanwhile. */
  async during<T>(fn: () => Promise<T>): Promise<[T, number]> {
    this.recording = true;
    this.busyMs = 0;
    try {
      return [await fn(), this.busyMs];
    } finally {
      this.recording = false;
    }
  }

  stop(asks: number) {
    this.store.doc.middlewareStack.remove(DynamoDbProfile.NAME);
    const entries = [...this.byCommand.entries()].sort((a, b) => b[1].ms - a[1].ms);
    const calls = entries.reduce((n, [, e]) => n + e.calls, 0);
    const ms = entries.reduce((n, [, e]) => n + e.ms, 0);
    return {
      callsPerAsk: round(calls / asks, 2),
      msPerAsk: round(ms / asks, 2),
      byCommand: Object.fromEntries(entries.map(([command, e]) => [command, { callsPerAsk: round(e.calls / asks, 2), msPerAsk: round(e.ms / asks, 2) }])),
    };
  }
}
