import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { ulid } from 'ulid';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createPersonalAccessToken } from '../../functions/platform/auth/personal-access-tokens.js';
import { ensureTable } from '../../local/ensure-table.js';
import { startFakeProvider, type FakeProvider } from '../support/fake-llm-provider.js';
import { apiGatewayEvent, installLambdaStreamingRuntime, lambdaContext } from '../support/lambda-runtime.js';

const OPENAI_KEY = 'sk-proj-LAMBDAsecretSECRETsecret0004';

let sessionHandler: unknown;
let token: string;
let provider: FakeProvider;
let services: Awaited<ReturnType<typeof import('../../functions/platform/services.js').createServices>>;

beforeAll(async () => {
  provider = await startFakeProvider({ acceptKeys: [OPENAI_KEY] });
  Object.assign(process.env, {
    TN_TABLE_NAME: `tn-session-lambda-${ulid()}`,
    TN_DYNAMODB_ENDPOINT: inject('dynamoDbEndpoint'),
    TN_DATA_DIR: await mkdtemp(path.join(os.tmpdir(), 'tn-session-lambda-')),
    TN_OPENAI_BASE_URL: provider.openaiBaseUrl,
  });
  const { createServices } = await import('../../functions/platform/services.js');
  const { loadConfig } = await import('../../functions/platform/config.js');
  services = await createServices(loadConfig());
  await ensureTable(services.store.client, services.config.tableName);
  ({ token } = await createPersonalAccessToken(services.store, { userId: 'lambda-student' }));
  const { addCredential } = await import('../../functions/user/byok-credentials.js');
  await addCredential(services, { userId: 'lambda-student', provider: 'openai', apiKey: OPENAI_KEY, label: 'openai', maxCredentials: 5, now: new Date() });
  installLambdaStreamingRuntime();
  ({ handler: sessionHandler } = await import('../../functions/session/handler.js'));
});
afterAll(async () => {
  await provider?.close();
});

/** Runs the streaming handler and keeps each write with the time it arrived, as API Gateway would see them. */
async function invokeRecordingWrites(event: unknown) {
  const writes: { at: number; text: string }[] = [];
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      writes.push({ at: performance.now(), text: Buffer.from(chunk).toString('utf8') });
      callback();
    },
  });
  await (sessionHandler as (e: unknown, s: Writable, c: unknown) => Promise<void>)(event, stream, lambdaContext());
  return writes;
}

function mcpEvent(body: unknown) {
  const base = apiGatewayEvent({ method: 'POST', path: '/mcp/session', body, token });
  const headers = { ...base.headers, accept: 'application/json, text/event-stream' };
  return { ...base, headers, multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, [v!]])) };
}

describe('session Lambda entry (middy streaming mode, as behind API Gateway response streaming)', () => {
  it('writes progress notifications to the response stream while the provider is still answering', async () => {
    const started = await invokeRecordingWrites(apiGatewayEvent({ method: 'POST', path: '/v1/tools/tn_session_start', body: {}, token }));
    const sessionId = JSON.parse(started.map((w) => w.text).join('')).sessionId;
    expect(sessionId).toMatch(/^[0-9A-Z]{26}$/);

    provider.enqueue({ text: 'A loop repeats a block of code while a condition holds.', chunks: 4, chunkDelayMs: 150 });
    const writes = await invokeRecordingWrites(
      mcpEvent({
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 'tn_session_ask', arguments: { sessionId, message: 'What is a loop?' }, _meta: { progressToken: 'p-1' } },
      }),
    );
    const progressWrites = writes.filter((w) => w.text.includes('notifications/progress'));
    const resultWrite = writes.find((w) => w.text.includes('"result"'));
    expect(progressWrites.length).toBeGreaterThanOrEqual(3);
    expect(resultWrite).toBeDefined();
    // Streamed, not buffered: the first delta left the function well before the answer was complete.
    expect(resultWrite!.at - progressWrites[0]!.at).toBeGreaterThan(200);
    const body = writes.map((w) => w.text).join('');
    const deltas = [...body.matchAll(/"message":"([^"]*)"/g)].map((m) => m[1]).join('');
    expect(deltas).toBe('A loop repeats a block of code while a condition holds.');
    expect(provider.requests.at(-1)!.stream).toBe(true);
  });
});

/**
 * A Lambda client that runs the real session handler in-process: Invoke returns its whole output,
 * InvokeWithResponseStream yields its writes as they happen.
 */
function streamingLambda(handler: unknown) {
  return {
    async send(command: { input: { Payload?: Uint8Array } }) {
      const event = JSON.parse(Buffer.from(command.input.Payload!).toString('utf8'));
      if (command.constructor.name === 'InvokeCommand') {
        const writes = await invokeRecordingWrites(event);
        return { Payload: Buffer.from(writes.map((w) => w.text).join('')) };
      }
      const queue: Uint8Array[] = [];
      let done = false;
      let wake: (() => void) | undefined;
      const stream = new Writable({
        write(chunk, _encoding, callback) {
          queue.push(Buffer.from(chunk));
          wake?.();
          callback();
        },
      });
      void (handler as (e: unknown, s: Writable, c: unknown) => Promise<void>)(event, stream, lambdaContext()).finally(() => {
        done = true;
        wake?.();
      });
      async function* events() {
        for (;;) {
          if (queue.length) yield { PayloadChunk: { Payload: queue.shift()! } };
          else if (done) return;
          else await new Promise<void>((resolve) => (wake = resolve));
        }
      }
      return { EventStream: events() };
    },
  };
}

describe('/mcp router relaying a streamed answer', () => {
  it('passes each progress update on as it arrives when the client asked for progress', async () => {
    const { remoteExecutor } = await import('../../functions/mcp/http/remote-executor.js');
    const { ALL_DOMAIN_TOOLS } = await import('../../functions/all-tools.js');
    const { ToolRegistry } = await import('../../functions/mcp/tools/registry.js');
    const registry = new ToolRegistry('tn_', ALL_DOMAIN_TOOLS);
    const principal = { kind: 'user' as const, userId: 'lambda-student', permissions: new Set(['session:read', 'session:write']), via: 'jwt' as const };
    const base = { principal, traceId: 'c'.repeat(32), services, registry };
    const executor = remoteExecutor(streamingLambda(sessionHandler) as never, { session: 'session-fn' });

    const started = await executor(registry.get('tn_session_start')!, {}, { ...base, toolName: 'tn_session_start', requestId: ulid() });
    expect(started, JSON.stringify(started)).toMatchObject({ ok: true });
    const sessionId = (started as { data: { sessionId: string } }).data.sessionId;

    provider.enqueue({ text: 'Recursion is a function calling itself on a smaller input.', chunks: 4, chunkDelayMs: 150 });
    const progress: { at: number; message?: string }[] = [];
    const answered = await executor(
      registry.get('tn_session_ask')!,
      { sessionId, message: 'What is recursion?' },
      { ...base, toolName: 'tn_session_ask', requestId: ulid(), reportProgress: async (update) => void progress.push({ at: performance.now(), message: update.message }) },
    );
    const finishedAt = performance.now();
    expect(answered.ok).toBe(true);
    const response = (answered as { data: { response: string } }).data.response;
    expect(response).toBe('Recursion is a function calling itself on a smaller input.');
    expect(progress.length).toBeGreaterThanOrEqual(3);
    expect(progress.map((p) => p.message).join('')).toBe(response);
    expect(finishedAt - progress[0]!.at).toBeGreaterThan(200);
  });
});
