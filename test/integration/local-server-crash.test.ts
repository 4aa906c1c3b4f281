import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeProvider, type FakeProvider } from '../support/fake-llm-provider.js';
import { alive, emulatorsOn, startServerProcess, waitUntil, type ServerProcess } from '../support/server-process.js';
import { createPersonalAccessToken } from '../../functions/platform/auth/personal-access-tokens.js';
import { startDynamoDbLocal } from '../../local/dynamodb-local.js';
import { runTn } from '../support/cli-process.js';
import { commandOf, descendantsOf } from '../support/server-process.js';
import { connectClient, startTestServer, TEST_TOKEN } from '../support/test-server.js';

/**
 * Crashes as they happen to a local server: `kill -9` of the server or of its DynamoDB Local while a
 * tutor answer streams, then what a student's retry gets (issue 28, classes 8 and 9). Real processes,
 * real kills, the real emulator on a data directory.
 */
const TOKEN = 'crash-test-token-4f9a1c7e2b8d';
let provider: FakeProvider;
const running: ServerProcess[] = [];
const dirs: string[] = [];

beforeAll(async () => {
  provider = await startFakeProvider();
});
afterEach(async () => {
  for (const server of running.splice(0)) server.kill();
  provider.reset();
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});
afterAll(async () => provider?.close());

async function dataDir(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tn-crash-'));
  dirs.push(dir);
  return dir;
}

async function start(dir: string): Promise<ServerProcess> {
  const server = await startServerProcess(dir, {
    TN_LOCAL_TOKEN: TOKEN,
    TN_DEFAULT_LLM_PROVIDER: 'openai-compatible',
    TN_DEFAULT_LLM_MODEL: 'crash-model',
    TN_DEFAULT_LLM_API_KEY: 'operator-key-crash',
    TN_DEFAULT_LLM_BASE_URL: provider.openaiBaseUrl,
  });
  running.push(server);
  return server;
}

async function rest(url: string, tool: string, input: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(`${url}/v1/tools/${tool}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(input),
  });
  return { status: response.status, body: await response.json() };
}

/** Starts an ask over MCP with progress and resolves once the answer is streaming (its first delta arrived). */
async function askUntilStreaming(url: string, args: { sessionId: string; message: string; clientEventId: string }, chunkDelayMs: number) {
  // A long answer in chunks: the kill lands in the middle of it.
  provider.respond(() => ({ text: 'A long answer about recursion, streamed in pieces. '.repeat(8), chunks: 40, chunkDelayMs }));
  const client = await connectClient(url, { token: TOKEN, era: 'modern' });
  let streaming: () => void;
  const firstDelta = new Promise<void>((resolve) => (streaming = resolve));
  const call = client
    .callTool({ name: 'tn_session_ask', arguments: args }, { onprogress: () => streaming(), timeout: 60_000 })
    .then(
      (result) => ({ result }),
      (error: unknown) => ({ error }),
    );
  await Promise.race([firstDelta, call]);
  return { call, close: () => client.close().catch(() => undefined) };
}

describe('a crash in the middle of a streamed answer (class 8)', () => {
  it('kill -9 of the server: after a restart, the retry with the same clientEventId is answered at once and charged once', { timeout: 180_000 }, async () => {
    const dir = await dataDir();
    const first = await start(dir);
    const sessionId = (await rest(first.url, 'tn_session_start', { topic: 'recursion' })).body.sessionId as string;
    const ask = { sessionId, message: 'Explain recursion with an example.', clientEventId: 'crash-server-1' };
    const streaming = await askUntilStreaming(first.url, ask, 150);
    expect(provider.requests).toHaveLength(1);
    const jvm = first.jvm()!;
    first.child.kill('SIGKILL');
    await streaming.call;
    await streaming.close();
    // Its emulator goes with it (class 9): nothing is left running on the database.
    expect(await waitUntil(() => !alive(jvm), 15_000)).toBe(true);

    const second = await start(dir);
    provider.respond(undefined);
    const startedAt = Date.now();
    const retried = await rest(second.url, 'tn_session_ask', ask);
    expect(retried.status, JSON.stringify(retried.body)).toBe(200);
    expect(retried.body).toMatchObject({ status: 'answered', questionSeq: 1, answerSeq: 2 });
    // Answered, not told to wait for a lease the dead process held.
    expect(Date.now() - startedAt).toBeLessThan(10_000);
    expect((await rest(second.url, 'tn_user_quota', {})).body.prompts.current).toBe(1);
    // The same retry again is a replay: no third provider call, no second charge.
    expect((await rest(second.url, 'tn_session_ask', ask)).body.status).toBe('replayed');
    expect(provider.requests).toHaveLength(2);
    expect((await rest(second.url, 'tn_user_quota', {})).body.prompts.current).toBe(1);
  });

  it('kill -9 of DynamoDB Local: /healthz says so, the emulator is started again, and the retry is answered at once and charged once', { timeout: 180_000 }, async () => {
    const dir = await dataDir();
    const server = await start(dir);
    const sessionId = (await rest(server.url, 'tn_session_start', { topic: 'loops' })).body.sessionId as string;
    const ask = { sessionId, message: 'When do I use a while loop?', clientEventId: 'crash-emulator-1' };
    // The rest of the answer arrives in about a second: before a new emulator could be serving.
    const streaming = await askUntilStreaming(server.url, ask, 25);
    const jvm = server.jvm()!;
    process.kill(jvm, 'SIGKILL');
    // Health reflects the table: unavailable while the emulator is down.
    const health: number[] = [];
    expect(await waitUntil(async () => (health.push((await fetch(`${server.url}/healthz`)).status), health.includes(503)), 10_000, 50)).toBe(true);
    const outcome = (await streaming.call) as { result?: { isError?: boolean; content?: { text: string }[] } };
    await streaming.close();
    // The answer could not be stored: an error the student can retry, never a stack or a 500. (Had a new
    // emulator been serving already, it would have been stored, and the retry below a replay.)
    const stored = outcome.result?.isError !== true;
    if (!stored) expect(JSON.parse(outcome.result!.content![0]!.text).code).toBe('SERVICE_UNAVAILABLE');

    // The supervisor started a new emulator on the same database; the server never went away.
    expect(await waitUntil(async () => (await fetch(`${server.url}/healthz`)).status === 200, 60_000, 250)).toBe(true);
    expect(server.jvm()).not.toBe(jvm);
    expect(emulatorsOn(path.join(dir, 'dynamodb'))).toHaveLength(1);
    provider.respond(undefined);
    const startedAt = Date.now();
    const retried = await rest(server.url, 'tn_session_ask', ask);
    expect(retried.status, JSON.stringify(retried.body)).toBe(200);
    expect(retried.body).toMatchObject({ status: stored ? 'replayed' : 'answered', questionSeq: 1, answerSeq: 2 });
    expect(Date.now() - startedAt).toBeLessThan(10_000);
    expect((await rest(server.url, 'tn_user_quota', {})).body.prompts.current).toBe(1);
  });
});

describe('one emulator per data directory (class 9)', () => {
  it('refuses a second server on a data directory in use, a restart after kill -9 runs exactly one emulator on it, and an operator command uses that one', { timeout: 180_000 }, async () => {
    const dir = await dataDir();
    const dbDir = path.join(dir, 'dynamodb');
    const first = await start(dir);
    expect(emulatorsOn(dbDir)).toHaveLength(1);
    await expect(start(dir)).rejects.toThrow(/in use by process \d+/);
    expect(emulatorsOn(dbDir)).toHaveLength(1);
    expect((await fetch(`${first.url}/healthz`)).status).toBe(200);

    const jvm = first.jvm()!;
    first.child.kill('SIGKILL');
    expect(await waitUntil(() => !alive(jvm), 15_000)).toBe(true);
    await expectNextStartServesWithOneEmulator(dir, dbDir);
  });
});

/**
 * The next `npm start` on the directory serves with one emulator, and an operator command run while it
 * serves uses that emulator (no second one) and mints a token the server accepts.
 */
async function expectNextStartServesWithOneEmulator(dir: string, dbDir: string): Promise<void> {
  const again = await start(dir);
  expect(emulatorsOn(dbDir)).toHaveLength(1);
  expect((await rest(again.url, 'tn_user_quota', {})).status).toBe(200);

  // An operator command on the directory while the server runs uses the server's emulator: no second one.
  const tn = runTn(['token', 'create', '--user', 'operator-made', '--scopes', 'quota:read'], { TN_DATA_DIR: dir, TN_DYNAMODB_ENDPOINT: '', TN_LOG_LEVEL: 'ERROR' });
  let most = 0;
  while ((await Promise.race([tn.exited.then(() => true), new Promise((resolve) => setTimeout(() => resolve(false), 200))])) === false) most = Math.max(most, emulatorsOn(dbDir).length);
  expect(await tn.exited, tn.stderr()).toBe(0);
  expect(most).toBeLessThanOrEqual(1);
  const made = /(tnp_[A-Za-z0-9_-]+)/.exec(tn.stdout())![1]!;
  const quota = await fetch(`${again.url}/v1/tools/tn_user_quota`, { method: 'POST', headers: { authorization: `Bearer ${made}`, 'content-type': 'application/json' }, body: '{}' });
  expect(quota.status).toBe(200);
  expect(emulatorsOn(dbDir)).toHaveLength(1);
}

describe('an emulator that cannot be kept running (class 8)', () => {
  it('stops npm start with exit code 1 and the reason, leaving no emulator and no lock behind, and the next start serves', { timeout: 240_000 }, async () => {
    const dir = await dataDir();
    const dbDir = path.join(dir, 'dynamodb');
    const server = await start(dir);
    let code: number | null | undefined;
    void server.exited.then((exitCode) => (code = exitCode));
    // Every JVM the server starts is killed as soon as it appears, until the server gives up on it.
    const killed = new Set<number>();
    const gaveUp = await waitUntil(
      () => {
        if (code !== undefined) return true;
        const jvm = server.jvm();
        if (jvm && !killed.has(jvm) && alive(jvm)) {
          killed.add(jvm);
          process.kill(jvm, 'SIGKILL');
        }
        return false;
      },
      180_000,
      50,
    );
    expect(gaveUp, server.output()).toBe(true);
    expect(code).toBe(1);
    expect(server.output()).toMatch(/Tutor Nexus is stopping: DynamoDB Local (exited \d+ times within a minute|exited \(.*\) and could not be started again)/);
    expect(server.output()).not.toMatch(/\n\s+at .+:\d+:\d+/); // a reason, not a stack
    expect(killed.size).toBeGreaterThanOrEqual(1);
    expect(await waitUntil(() => emulatorsOn(dbDir).length === 0, 15_000)).toBe(true);
    expect(existsSync(path.join(dbDir, 'tutor-nexus.lock'))).toBe(false);

    await expectNextStartServesWithOneEmulator(dir, dbDir);
  });
});

describe('a server whose table is gone (class 8)', () => {
  it('answers every call SERVICE_UNAVAILABLE with when to retry, and /healthz 503, never a 500 or a stack', { timeout: 180_000 }, async () => {
    // A server without a supervisor (its table is someone else's emulator), so the table stays down.
    const emulator = await startDynamoDbLocal({ inMemory: true });
    const server = await startTestServer({ TN_DYNAMODB_ENDPOINT: emulator.endpoint });
    try {
      // A personal access token is checked against the table: its check fails as the tools do.
      const personal = await createPersonalAccessToken(server.services.store, { userId: 'local-user', permissions: ['quota:read'], expiresInDays: 1 });
      expect((await server.rest('tn_user_quota', {}, personal.token)).status).toBe(200);
      expect((await server.rest('tn_user_quota', {})).status).toBe(200);
      const jvm = descendantsOf(process.pid).find((pid) => commandOf(pid).includes(`tn.port=${emulator.port}`))!;
      expect(jvm).toBeDefined();
      process.kill(jvm, 'SIGKILL');
      await emulator.exited;

      const health = await fetch(`${server.url}/healthz`);
      expect(health.status).toBe(503);
      expect(await health.json()).toMatchObject({ status: 'unavailable', store: 'unreachable' });
      const calls = [
        await server.rest('tn_user_quota', {}),
        await server.rest('tn_session_start', { topic: 'recursion' }),
        await server.rest('tn_user_quota', {}, personal.token),
      ];
      for (const call of calls) {
        expect(call.status, JSON.stringify(call.body)).toBe(503);
        expect(call.body).toMatchObject({ code: 'SERVICE_UNAVAILABLE', details: { retryAfter: expect.any(Number) }, requestId: expect.any(String) });
        expect(JSON.stringify(call.body)).not.toMatch(/ECONNREFUSED|\bat .+:\d+:\d+/);
      }
      const mcp = await connectClient(server.url, { token: TEST_TOKEN });
      const result = (await mcp.callTool({ name: 'tn_user_quota', arguments: {} })) as { isError?: boolean; content: { text: string }[] };
      expect(result.isError).toBe(true);
      expect(JSON.parse(result.content[0]!.text)).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
      await mcp.close();
    } finally {
      await server.close();
      await emulator.stop();
    }
  });
});
