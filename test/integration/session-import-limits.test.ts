import { ulid } from 'ulid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerSessionId } from '../../functions/session/session-import.js';
import { deletePartition } from '../../functions/session/session-store.js';
import { checksumOf, type SessionSnapshot } from '../../functions/session/snapshot.js';
import { startFakeProvider, type FakeProvider } from '../support/fake-llm-provider.js';
import { SECOND_TOKEN, startTestServer, TEST_TOKEN, type TestServer } from '../support/test-server.js';

/**
 * tn_session_import held to what the tools can write, with no oracle and no squatting (issue 28,
 * class 10), over the REST twin as the web app and the CLI call it.
 */
const ALICE = 'import-alice';
const BOB = 'import-bob';
let server: TestServer;
let provider: FakeProvider;

beforeAll(async () => {
  provider = await startFakeProvider();
  server = await startTestServer({
    TN_LOCAL_USER_ID: ALICE,
    TN_LOCAL_TOKENS: `${SECOND_TOKEN}=${BOB}`,
    TN_DEFAULT_LLM_PROVIDER: 'openai-compatible',
    TN_DEFAULT_LLM_MODEL: 'import-model',
    TN_DEFAULT_LLM_API_KEY: 'operator-key-0123456789',
    TN_DEFAULT_LLM_BASE_URL: provider.openaiBaseUrl,
  });
});
afterAll(async () => {
  await server?.close();
  await provider?.close();
});

async function ok(tool: string, input: unknown, token: string | null = TEST_TOKEN) {
  const answer = await server.rest(tool, input, token);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body;
}

/** A session with one question and its answer, exported by its owner. */
async function exported(token = TEST_TOKEN): Promise<SessionSnapshot> {
  const { sessionId } = await ok('tn_session_start', { topic: 'imports' }, token);
  await ok('tn_session_ask', { sessionId, message: 'What is a snapshot?' }, token);
  return ok('tn_session_export', { sessionId }, token);
}

/** The snapshot with its body changed and its checksum made to match: what a forger can always do. */
function forged(snapshot: SessionSnapshot, change: (copy: SessionSnapshot) => void): SessionSnapshot {
  const copy = structuredClone(snapshot);
  change(copy);
  const { checksum: _checksum, ownerProof: _proof, ...body } = copy;
  return { ...body, checksum: checksumOf(body) } as SessionSnapshot;
}

describe('what an import may hold', () => {
  it('refuses a student message longer than an ask accepts, and an answer too large to store, as BAD_REQUEST naming the field', async () => {
    const snapshot = await exported();
    const longQuestion = forged(snapshot, (s) => (s.events[0]!.content = 'q'.repeat(10_001)));
    const refused = await server.rest('tn_session_import', { snapshot: longQuestion });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'BAD_REQUEST' });
    expect(refused.body.details.fields.map((f: { field: string }) => f.field)).toContain('snapshot.events.0.content');

    // An answer over 400 KB used to reach DynamoDB and come back as a 500.
    const hugeAnswer = forged(snapshot, (s) => (s.events[1]!.content = 'a'.repeat(450 * 1024)));
    const tooBig = await server.rest('tn_session_import', { snapshot: hugeAnswer });
    expect(tooBig.status).toBe(400);
    expect(tooBig.body.details.fields[0].field).toBe('snapshot.events.1.content');
    expect(JSON.stringify(tooBig.body)).not.toMatch(/ValidationException|stack/i);

    const badDevice = forged(snapshot, (s) => (s.events[0]!.deviceId = 'x'.repeat(65)));
    expect((await server.rest('tn_session_import', { snapshot: badDevice })).body.details.fields[0].field).toBe('snapshot.events.0.deviceId');
  });
});

describe('which id an import takes', () => {
  it('answers the same for an id someone else holds as for one no one holds: no existence oracle', async () => {
    const alices = await exported();
    const unknown = forged(alices, (s) => (s.session.sessionId = ulid()));
    const held = await ok('tn_session_import', { snapshot: forged(alices, () => undefined) }, SECOND_TOKEN);
    const free = await ok('tn_session_import', { snapshot: unknown }, SECOND_TOKEN);
    // Both are copies under an id of Bob's own, derived the same way: nothing tells which original exists.
    expect(held.sessionId).toBe(callerSessionId(BOB, alices.session.sessionId));
    expect(free.sessionId).toBe(callerSessionId(BOB, unknown.session.sessionId));
    expect([held.status, free.status]).toEqual(['imported', 'imported']);
  });

  it("cannot be squatted: an id derived for Alice can only ever be Alice's", async () => {
    const bobs = await exported(SECOND_TOKEN);
    const alicesCopyId = callerSessionId(ALICE, bobs.session.sessionId);
    // Bob forges a snapshot naming the id Alice's copy of his session would get...
    const squat = await ok('tn_session_import', { snapshot: forged(bobs, (s) => (s.session.sessionId = alicesCopyId)) }, SECOND_TOKEN);
    expect(squat.sessionId).not.toBe(alicesCopyId);
    // ...and Alice still imports her copy there.
    const copy = await ok('tn_session_import', { snapshot: bobs });
    expect(copy).toMatchObject({ status: 'imported', sessionId: alicesCopyId });
    expect(await ok('tn_session_import', { snapshot: bobs })).toMatchObject({ status: 'already-present', sessionId: alicesCopyId });
  });

  it("restores the owner's own session under its id from the proof their export carries, once it is gone here; the proof is no one else's", async () => {
    const snapshot = await exported();
    expect(snapshot.ownerProof).toEqual(expect.any(String));
    const { sessionId } = snapshot.session;
    // As if TTL had reclaimed it.
    await deletePartition(server.services.store, sessionId);
    expect((await ok('tn_session_import', { snapshot }, SECOND_TOKEN)).sessionId).toBe(callerSessionId(BOB, sessionId));
    expect(await ok('tn_session_import', { snapshot })).toMatchObject({ status: 'imported', sessionId });
    expect((await ok('tn_session_history', { sessionId })).items).toHaveLength(2);
  });
});

describe('how often', () => {
  it('limits imports per user to 20 an hour, as RATE_LIMITED with the limit and when to retry', async () => {
    const own = await startTestServer({ TN_LOCAL_USER_ID: `limited-${ulid()}` });
    try {
      const snapshot = forged((await exported()) as SessionSnapshot, (s) => (s.session.sessionId = ulid()));
      const statuses: number[] = [];
      for (let i = 0; i < 21; i++) statuses.push((await own.rest('tn_session_import', { snapshot })).status);
      expect(statuses.slice(0, 20).every((s) => s === 200)).toBe(true);
      const limited = await own.rest('tn_session_import', { snapshot });
      expect(limited.status).toBe(429);
      expect(limited.body.details).toMatchObject({ retryAfter: expect.any(Number), limit: { max: 20, window: 'hour' } });
    } finally {
      await own.close();
    }
  });
});
