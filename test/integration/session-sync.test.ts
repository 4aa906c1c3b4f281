import { DeleteCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { checksumOf, type SessionSnapshot } from '../../functions/session/snapshot.js';
import { sessionKeys } from '../../functions/platform/store/keys.js';
import { expectFailure, expectOk } from '../support/rest-expectations.js';
import type { FakeProvider } from '../support/fake-llm-provider.js';
import { startTutoringServer, type TutoringFixture } from '../support/tutoring-fixture.js';
import { SECOND_TOKEN, TEST_TOKEN, type TestServer } from '../support/test-server.js';
import { unrecorded } from '../support/store/command-recorder.js';

const OPENAI_KEY = 'sk-proj-SYNCsecretSYNCsecretSYNC7311';

let fixture: TutoringFixture;
let server: TestServer;
let provider: FakeProvider;

beforeAll(async () => {
  fixture = await startTutoringServer({ prefix: 'sync', openaiKey: OPENAI_KEY });
  ({ server, provider } = fixture);
});

afterAll(async () => {
  await fixture?.close();
});

beforeEach(() => provider.reset());

const ok = (tool: string, input: unknown, token: string | null = TEST_TOKEN) => expectOk(server, tool, input, token);

const fails = (tool: string, input: unknown, code: string, status: number, token: string | null = TEST_TOKEN) =>
  expectFailure(server, tool, input, code, status, token);

async function startSession(input: Record<string, unknown> = { course: 'sfu:CMPT 120', topic: 'sync' }): Promise<string> {
  return (await ok('tn_session_start', input)).sessionId;
}

async function history(sessionId: string): Promise<any[]> {
  const body = await ok('tn_session_history', { sessionId, limit: 100 });
  expect(body.hasMore).toBe(false);
  return body.items;
}

async function partitionItems(sessionId: string): Promise<Record<string, any>[]> {
  const items: Record<string, any>[] = [];
  let startKey: Record<string, any> | undefined;
  do {
    const page = await unrecorded(() => server.services.store.doc.send(
      new QueryCommand({
        TableName: server.config.tableName,
        KeyConditionExpression: 'PK = :pk',
        ExpressionAttributeValues: { ':pk': sessionKeys.partition(sessionId) },
        ConsistentRead: true,
        ExclusiveStartKey: startKey,
      }),
    ));
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return items;
}

/** What TTL eventually does: every item of the session's partition is gone. */
async function deletePartition(sessionId: string): Promise<number> {
  const items = await partitionItems(sessionId);
  for (const item of items) {
    await unrecorded(() => server.services.store.doc.send(new DeleteCommand({ TableName: server.config.tableName, Key: { PK: item.PK, SK: item.SK } })));
  }
  expect(await partitionItems(sessionId)).toEqual([]);
  return items.length;
}

/** An expired session that TTL has not removed yet. */
async function expire(sessionId: string): Promise<void> {
  await unrecorded(() => server.services.store.doc.send(
    new UpdateCommand({
      TableName: server.config.tableName,
      Key: sessionKeys.meta(sessionId),
      UpdateExpression: 'SET expiresAt = :past',
      ExpressionAttributeValues: { ':past': new Date(Date.now() - 60_000).toISOString() },
    }),
  ));
}

describe('multi-device sync status', () => {
  it('tells each device what it has not seen, remembers what it gave, and which events came from elsewhere', async () => {
    const sessionId = await startSession();
    const empty = await ok('tn_session_sync_status', { sessionId, deviceId: 'web' });
    expect(empty).toMatchObject({ sessionId, status: 'active', latestSeq: 0, lastSeenSeq: 0, inSync: true, unseenCount: 0, unseen: [], fromOtherDevices: [], pendingDrafts: [], hasMoreUnseen: false });

    const asked = await ok('tn_session_ask', { sessionId, message: 'What does range(3) produce?', clientEventId: 'cli-1', deviceId: 'cli' });
    expect(asked).toMatchObject({ status: 'answered', questionSeq: 1, answerSeq: 2 });
    const [questionId, answerId] = asked.eventsEmitted;

    const web = await ok('tn_session_sync_status', { sessionId, deviceId: 'web' });
    expect(web).toMatchObject({ sessionId, status: 'active', latestSeq: 2, lastSeenSeq: 0, inSync: false, unseenCount: 2, hasMoreUnseen: false, pendingDrafts: [] });
    expect(web.unseen.map((e: any) => [e.seq, e.eventId, e.type, e.deviceId])).toEqual([
      [1, questionId, 'user_message', 'cli'],
      [2, answerId, 'assistant_message', 'cli'],
    ]);
    expect(web.unseen[0].content).toBe('What does range(3) produce?');
    expect(web.unseen[1].content).toBe(asked.response);
    expect(web.fromOtherDevices).toEqual([questionId, answerId]);

    // The server remembered what it gave "web".
    const again = await ok('tn_session_sync_status', { sessionId, deviceId: 'web' });
    expect(again).toMatchObject({ latestSeq: 2, lastSeenSeq: 2, inSync: true, unseenCount: 0, unseen: [], fromOtherDevices: [], hasMoreUnseen: false });

    // An explicit lastSeenSeq wins over the remembered one.
    const fromZero = await ok('tn_session_sync_status', { sessionId, deviceId: 'web', lastSeenSeq: 0 });
    expect(fromZero).toMatchObject({ lastSeenSeq: 0, inSync: false, unseenCount: 2 });
    expect(fromZero.unseen.map((e: any) => e.eventId)).toEqual([questionId, answerId]);
    expect(fromZero.fromOtherDevices).toEqual([questionId, answerId]);
    const fromOne = await ok('tn_session_sync_status', { sessionId, deviceId: 'web', lastSeenSeq: 1 });
    expect(fromOne).toMatchObject({ lastSeenSeq: 1, unseenCount: 1 });
    expect(fromOne.unseen.map((e: any) => e.seq)).toEqual([2]);
    // ...and an older explicit poll does not move the remembered cursor back.
    expect(await ok('tn_session_sync_status', { sessionId, deviceId: 'web' })).toMatchObject({ lastSeenSeq: 2, inSync: true });

    // "cli" wrote both events but was never given them: unseen, yet not from another device.
    const cli = await ok('tn_session_sync_status', { sessionId, deviceId: 'cli' });
    expect(cli).toMatchObject({ latestSeq: 2, lastSeenSeq: 0, inSync: false, unseenCount: 2 });
    expect(cli.unseen.map((e: any) => e.eventId)).toEqual([questionId, answerId]);
    expect(cli.fromOtherDevices).toEqual([]);

    // Now "web" asks: "cli" sees two events from another device, "web" sees its own two.
    const fromWeb = await ok('tn_session_ask', { sessionId, message: 'And range(1, 4)?', clientEventId: 'web-1', deviceId: 'web' });
    const cliNext = await ok('tn_session_sync_status', { sessionId, deviceId: 'cli' });
    expect(cliNext).toMatchObject({ latestSeq: 4, lastSeenSeq: 2, unseenCount: 2, inSync: false });
    expect(cliNext.unseen.map((e: any) => e.seq)).toEqual([3, 4]);
    expect(cliNext.fromOtherDevices).toEqual(fromWeb.eventsEmitted);
    const webNext = await ok('tn_session_sync_status', { sessionId, deviceId: 'web' });
    expect(webNext.unseen.map((e: any) => e.eventId)).toEqual(fromWeb.eventsEmitted);
    expect(webNext.fromOtherDevices).toEqual([]);

    // Events written without a deviceId count as another device's for everybody.
    const anonymousDevice = await ok('tn_session_ask', { sessionId, message: 'No device here', clientEventId: 'nodev-1' });
    const webLast = await ok('tn_session_sync_status', { sessionId, deviceId: 'web' });
    expect(webLast.unseen.map((e: any) => e.deviceId)).toEqual([null, null]);
    expect(webLast.fromOtherDevices).toEqual(anonymousDevice.eventsEmitted);
  });

  it('delivers at most 50 unseen events per poll, counts them all, and gives the rest on the next poll', async () => {
    const sessionId = await startSession({ topic: 'many drafts' });
    for (let i = 1; i <= 53; i++) {
      await ok('tn_session_ask', { sessionId, message: `draft ${i}`, clientEventId: `many-${i}`, draft: true, deviceId: 'phone' });
    }
    const first = await ok('tn_session_sync_status', { sessionId, deviceId: 'laptop' });
    expect(first).toMatchObject({ latestSeq: 53, lastSeenSeq: 0, unseenCount: 53, hasMoreUnseen: true, inSync: false });
    expect(first.unseen.map((e: any) => e.seq)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(first.pendingDrafts).toHaveLength(53);
    const second = await ok('tn_session_sync_status', { sessionId, deviceId: 'laptop' });
    expect(second).toMatchObject({ lastSeenSeq: 50, unseenCount: 3, hasMoreUnseen: false });
    expect(second.unseen.map((e: any) => e.seq)).toEqual([51, 52, 53]);
    expect(await ok('tn_session_sync_status', { sessionId, deviceId: 'laptop' })).toMatchObject({ lastSeenSeq: 53, inSync: true });
    expect(provider.requests).toHaveLength(0);
  });

  it('rejects a malformed deviceId with BAD_REQUEST naming the field', async () => {
    const sessionId = await startSession({});
    const body = await fails('tn_session_sync_status', { sessionId, deviceId: 'my laptop!' }, 'BAD_REQUEST', 400);
    expect(body.details.fields.map((f: any) => f.field)).toContain('deviceId');
  });
});

describe('resume', () => {
  it('returns state, latestSeq, the most recent events and pending drafts', async () => {
    const sessionId = await startSession({ course: 'sfu:CMPT 120', topic: 'resume', tutoringStyle: 'balanced' });
    const first = await ok('tn_session_ask', { sessionId, message: 'First question', clientEventId: 'r-1', deviceId: 'cli' });
    const second = await ok('tn_session_ask', { sessionId, message: 'Second question', clientEventId: 'r-2', deviceId: 'cli' });
    const draft = await ok('tn_session_ask', { sessionId, message: 'Half-typed', clientEventId: 'r-draft', draft: true, deviceId: 'phone' });
    const allIds = [...first.eventsEmitted, ...second.eventsEmitted, ...draft.eventsEmitted];
    expect(allIds).toHaveLength(5);

    const resumed = await ok('tn_session_resume', { sessionId, recent: 3 });
    expect(resumed.latestSeq).toBe(5);
    expect(resumed.state).toMatchObject({
      sessionId,
      status: 'active',
      owner: 'user',
      latestSeq: 5,
      endedAt: null,
      context: { course: 'sfu:CMPT 120', courseTitle: 'Introduction to Computing Science and Programming I', topic: 'resume', tutoringStyle: 'balanced', language: 'en' },
    });
    expect(Date.parse(resumed.state.expiresAt)).toBeGreaterThan(Date.now());
    expect(resumed.recentEvents.map((e: any) => e.seq)).toEqual([3, 4, 5]);
    expect(resumed.recentEvents.map((e: any) => e.eventId)).toEqual(allIds.slice(2));
    expect(resumed.recentEvents[2]).toMatchObject({ type: 'draft', content: 'Half-typed', deviceId: 'phone', clientEventId: 'r-draft' });
    expect(resumed.pendingDrafts).toEqual([
      { clientEventId: 'r-draft', eventId: draft.eventsEmitted[0], seq: 5, content: 'Half-typed', deviceId: 'phone', createdAt: expect.any(String) },
    ]);

    const all = await ok('tn_session_resume', { sessionId });
    expect(all.recentEvents.map((e: any) => e.eventId)).toEqual(allIds);
    const none = await ok('tn_session_resume', { sessionId, recent: 0 });
    expect(none.recentEvents).toEqual([]);
    expect(none.latestSeq).toBe(5);
    const one = await ok('tn_session_resume', { sessionId, recent: 1 });
    expect(one.recentEvents.map((e: any) => e.seq)).toEqual([5]);
    await fails('tn_session_resume', { sessionId, recent: 101 }, 'BAD_REQUEST', 400);
  });

  it('with a deviceId, counts what it returned as seen by that device', async () => {
    const sessionId = await startSession({});
    await ok('tn_session_ask', { sessionId, message: 'Hello', clientEventId: 'rs-1', deviceId: 'cli' });
    // Without a deviceId nothing is remembered.
    await ok('tn_session_resume', { sessionId });
    expect(await ok('tn_session_sync_status', { sessionId, deviceId: 'tablet' })).toMatchObject({ lastSeenSeq: 0, unseenCount: 2 });
    await ok('tn_session_resume', { sessionId, deviceId: 'web' });
    expect(await ok('tn_session_sync_status', { sessionId, deviceId: 'web' })).toMatchObject({ lastSeenSeq: 2, inSync: true, unseen: [] });
  });
});

describe('export and import', () => {
  it('round-trips a session through a snapshot, idempotently, and keeps idempotency keys working', async () => {
    const sessionId = await startSession({ course: 'sfu:CMPT 120', topic: 'export' });
    const q1 = await ok('tn_session_ask', { sessionId, message: 'What is a list?', clientEventId: 'exp-1', deviceId: 'cli' });
    const q2 = await ok('tn_session_ask', { sessionId, message: 'How do I append?', clientEventId: 'exp-2', deviceId: 'cli' });
    const pending = await ok('tn_session_ask', { sessionId, message: 'Kept for later', clientEventId: 'exp-draft', draft: true, deviceId: 'web' });
    const n = 5;

    // Export.
    const snapshot: SessionSnapshot = await ok('tn_session_export', { sessionId });
    expect(snapshot.schemaVersion).toBe('tutor-nexus.session-export/1');
    expect(snapshot.events.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(snapshot.events.map((e) => e.eventId)).toEqual([...q1.eventsEmitted, ...q2.eventsEmitted, ...pending.eventsEmitted]);
    expect(snapshot.session).toMatchObject({ sessionId, latestSeq: n, status: 'active', owner: 'user', course: { ref: 'sfu:CMPT 120' } });
    expect(snapshot.checksum).toMatch(/^sha256:[0-9a-f]{64}$/);
    const { checksum, ...body } = snapshot;
    expect(checksumOf(body)).toBe(checksum);
    const exportedJson = JSON.stringify(snapshot);
    expect(exportedJson).not.toContain(OPENAI_KEY);
    expect(exportedJson).not.toContain('SYNCsecret');
    expect(exportedJson).not.toContain(fixture.env.TN_LOCAL_USER_ID!);
    const storedBefore = await history(sessionId);
    expect(storedBefore).toEqual(snapshot.events);

    // Importing what the server already holds changes nothing.
    const present = await ok('tn_session_import', { snapshot });
    expect(present).toMatchObject({ status: 'already-present', sessionId, latestSeq: n });

    // A modified snapshot is refused and the stored session is untouched.
    const tampered = structuredClone(snapshot);
    tampered.events[1]!.content = 'The tutor said something else entirely.';
    const refused = await fails('tn_session_import', { snapshot: tampered }, 'UNPROCESSABLE_ENTITY', 422);
    expect(refused.details.fields.map((f: any) => f.field)).toContain('snapshot.checksum');
    expect(await history(sessionId)).toEqual(storedBefore);

    // Someone else cannot import over it, nor learn it exists: they get a copy under an id of their own.
    const copy = await ok('tn_session_import', { snapshot }, SECOND_TOKEN);
    expect(copy).toMatchObject({ status: 'imported', latestSeq: n });
    expect(copy.sessionId).not.toBe(sessionId);
    expect(copy.sessionId.slice(0, 10)).toBe(sessionId.slice(0, 10));
    expect(await ok('tn_session_import', { snapshot }, SECOND_TOKEN)).toMatchObject({ status: 'already-present', sessionId: copy.sessionId });
    expect((await ok('tn_session_history', { sessionId: copy.sessionId, limit: 100 }, SECOND_TOKEN)).items).toEqual(snapshot.events);
    await fails('tn_session_history', { sessionId: copy.sessionId }, 'NOT_FOUND', 404);
    await fails('tn_session_history', { sessionId }, 'NOT_FOUND', 404, SECOND_TOKEN);
    expect(await history(sessionId)).toEqual(storedBefore);
    expect((await ok('tn_session_resume', { sessionId, recent: 0 })).state.owner).toBe('user');

    // TTL removes the whole partition.
    expect(await deletePartition(sessionId)).toBeGreaterThan(n);
    await fails('tn_session_history', { sessionId }, 'NOT_FOUND', 404);

    // Import restores it under the same id, with the same events.
    const imported = await ok('tn_session_import', { snapshot });
    expect(imported).toMatchObject({ status: 'imported', sessionId, latestSeq: n });
    expect(Date.parse(imported.expiresAt)).toBeGreaterThan(Date.now());
    const restored = await history(sessionId);
    expect(restored.map((e) => [e.eventId, e.seq, e.content])).toEqual(snapshot.events.map((e) => [e.eventId, e.seq, e.content]));
    expect(restored).toEqual(snapshot.events);
    const resumed = await ok('tn_session_resume', { sessionId, recent: 0 });
    expect(resumed.state).toMatchObject({ sessionId, latestSeq: n, status: 'active', context: snapshot.session.context });
    expect(resumed.pendingDrafts.map((d: any) => [d.clientEventId, d.eventId, d.seq])).toEqual([['exp-draft', pending.eventsEmitted[0], 5]]);

    // ...once.
    expect(await ok('tn_session_import', { snapshot })).toMatchObject({ status: 'already-present', sessionId, latestSeq: n });

    // A retry of an ask answered before the export is replayed, not asked again.
    const providerCalls = provider.requests.length;
    const replayed = await ok('tn_session_ask', { sessionId, message: 'What is a list?', clientEventId: 'exp-1', deviceId: 'cli' });
    expect(replayed).toMatchObject({ status: 'replayed', response: q1.response, eventsEmitted: q1.eventsEmitted, questionSeq: 1, answerSeq: 2 });
    expect(provider.requests).toHaveLength(providerCalls);
    await fails('tn_session_ask', { sessionId, message: 'Something else', clientEventId: 'exp-2' }, 'CONFLICT', 409);

    // New asks continue the log.
    const next = await ok('tn_session_ask', { sessionId, message: 'And pop?', clientEventId: 'exp-3', deviceId: 'web' });
    expect(next).toMatchObject({ status: 'answered', questionSeq: n + 1, answerSeq: n + 2 });
    expect(provider.requests).toHaveLength(providerCalls + 1);
    // The restored draft can still be sent.
    const sent = await ok('tn_session_ask', { sessionId, message: 'Kept for later', clientEventId: 'exp-draft', deviceId: 'web' });
    expect(sent).toMatchObject({ status: 'answered', questionSeq: n + 3, answerSeq: n + 4 });
    expect(sent.eventsEmitted[0]).toBe(pending.eventsEmitted[0]);
    expect((await history(sessionId)).map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('refuses snapshots whose seqs do not run 1..n even with a valid checksum, and snapshots of other versions', async () => {
    const sessionId = await startSession({});
    await ok('tn_session_ask', { sessionId, message: 'One', clientEventId: 'gap-1' });
    const snapshot: SessionSnapshot = await ok('tn_session_export', { sessionId });
    const { checksum: _checksum, ...body } = snapshot;
    const gapped = { ...body, events: [{ ...body.events[0]!, seq: 1 }, { ...body.events[1]!, seq: 3 }] };
    const refused = await fails('tn_session_import', { snapshot: { ...gapped, checksum: checksumOf(gapped) } }, 'UNPROCESSABLE_ENTITY', 422);
    expect(refused.details.fields[0].field).toBe('snapshot.events');
    expect(refused.details.reason).toContain('events[1].seq is 3, expected 2');
    const wrongVersion = await fails('tn_session_import', { snapshot: { ...snapshot, schemaVersion: 'tutor-nexus.session-export/2' } }, 'BAD_REQUEST', 400);
    expect(wrongVersion.details.fields.map((f: any) => f.field)).toContain('snapshot.schemaVersion');
  });

  it('accepts a snapshot whose timestamps carry other RFC 3339 offsets, and stores them in UTC', async () => {
    const sessionId = await startSession({});
    await ok('tn_session_ask', { sessionId, message: 'Offsets', clientEventId: 'off-1' });
    const snapshot: SessionSnapshot = await ok('tn_session_export', { sessionId });
    const { checksum: _checksum, ...body } = snapshot;
    // The same instants written in Vancouver winter time (UTC-08:00).
    const pacific = (utc: string) => new Date(Date.parse(utc) - 8 * 3600_000).toISOString().replace('Z', '-08:00');
    const rewritten = {
      ...body,
      session: { ...body.session, createdAt: pacific(body.session.createdAt), lastActivityAt: pacific(body.session.lastActivityAt), expiresAt: pacific(body.session.expiresAt) },
      events: body.events.map((event) => ({ ...event, createdAt: pacific(event.createdAt) })),
      exportedAt: pacific(body.exportedAt),
    };
    expect(rewritten.events[0]!.createdAt).toMatch(/-08:00$/);
    expect(await deletePartition(sessionId)).toBeGreaterThan(0);
    const imported = await ok('tn_session_import', { snapshot: { ...rewritten, checksum: checksumOf(rewritten) } });
    expect(imported).toMatchObject({ status: 'imported', sessionId, latestSeq: 2 });
    expect(await history(sessionId)).toEqual(snapshot.events);
  });

  it('needs a signed-in user to import', async () => {
    const sessionId = await startSession({});
    const snapshot = await ok('tn_session_export', { sessionId });
    await fails('tn_session_import', { snapshot }, 'UNAUTHORIZED', 401, null);
  });

  it('restores an expired session (not yet removed by TTL) from its snapshot', async () => {
    const sessionId = await startSession({});
    const asked = await ok('tn_session_ask', { sessionId, message: 'Before expiry', clientEventId: 'ex-1' });
    const snapshot: SessionSnapshot = await ok('tn_session_export', { sessionId });
    await expire(sessionId);
    await fails('tn_session_history', { sessionId }, 'NOT_FOUND', 404);
    // Bob cannot take it over either: his import is a copy under an id of his own.
    expect((await ok('tn_session_import', { snapshot }, SECOND_TOKEN)).sessionId).not.toBe(sessionId);
    const imported = await ok('tn_session_import', { snapshot });
    expect(imported).toMatchObject({ status: 'imported', latestSeq: 2 });
    expect(Date.parse(imported.expiresAt)).toBeGreaterThan(Date.now());
    expect(await history(sessionId)).toEqual(snapshot.events);
    expect(await ok('tn_session_ask', { sessionId, message: 'Before expiry', clientEventId: 'ex-1' })).toMatchObject({ status: 'replayed', response: asked.response });
    expect(await ok('tn_session_ask', { sessionId, message: 'After import', clientEventId: 'ex-2' })).toMatchObject({ status: 'answered', questionSeq: 3, answerSeq: 4 });
  });

  // An expired session TTL has not removed yet must be cleared by the import, or its later events
  // would stay visible past latestSeq and block every append.
  describe('over an expired session that has more events than the snapshot', () => {
    /** Exports after one ask, asks once more, lets the session expire and imports the older snapshot. */
    async function importOlderSnapshot(): Promise<{ sessionId: string; snapshot: SessionSnapshot }> {
      const sessionId = await startSession({});
      await ok('tn_session_ask', { sessionId, message: 'In the snapshot', clientEventId: 'old-1' });
      const snapshot: SessionSnapshot = await ok('tn_session_export', { sessionId });
      await ok('tn_session_ask', { sessionId, message: 'After the export', clientEventId: 'old-2' });
      await expire(sessionId);
      expect(await ok('tn_session_import', { snapshot })).toMatchObject({ status: 'imported', latestSeq: 2 });
      return { sessionId, snapshot };
    }

    it('history shows only the snapshot\'s events', async () => {
      const { sessionId, snapshot } = await importOlderSnapshot();
      const restored = await ok('tn_session_history', { sessionId, limit: 100 });
      expect(restored.latestSeq).toBe(2);
      expect(restored.items).toEqual(snapshot.events);
    });

    it('the next ask continues at seq 3', async () => {
      const { sessionId } = await importOlderSnapshot();
      const next = await server.rest('tn_session_ask', { sessionId, message: 'Continue', clientEventId: 'old-3' });
      expect(next.body).toMatchObject({ status: 'answered', questionSeq: 3, answerSeq: 4 });
      expect(next.status).toBe(200);
    });

    it('an ask made only after the export is not replayed from the expired session', async () => {
      const { sessionId } = await importOlderSnapshot();
      const again = await server.rest('tn_session_ask', { sessionId, message: 'After the export', clientEventId: 'old-2' });
      expect(again.body.status).not.toBe('replayed');
    });
  });
});
