import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sessionKeys } from '../../functions/platform/store/keys.js';
import { expectFailure, expectOk } from '../support/rest-expectations.js';
import type { FakeProvider } from '../support/fake-llm-provider.js';
import { startTutoringServer, type TutoringFixture } from '../support/tutoring-fixture.js';
import { SECOND_TOKEN, startTestServer, TEST_TOKEN, type TestServer } from '../support/test-server.js';
import { unrecorded } from '../support/store/command-recorder.js';

const OPENAI_KEY = 'sk-proj-LIFEsecretLIFEsecretLIFE2468';
const OPERATOR_KEY = 'operator-key-LIFEcycle-0123456789';
const CMPT_120_TITLE = 'Introduction to Computing Science and Programming I';

let fixture: TutoringFixture;
let server: TestServer;
let provider: FakeProvider;

const providerEnv = () => fixture.env;

beforeAll(async () => {
  fixture = await startTutoringServer({
    prefix: 'life',
    openaiKey: OPENAI_KEY,
    acceptKeys: [OPERATOR_KEY],
    env: (fake) => ({
      TN_DEFAULT_LLM_PROVIDER: 'openai-compatible',
      TN_DEFAULT_LLM_MODEL: 'tiny',
      TN_DEFAULT_LLM_API_KEY: OPERATOR_KEY,
      TN_DEFAULT_LLM_BASE_URL: fake.openaiBaseUrl,
    }),
  });
  ({ server, provider } = fixture);
});

afterAll(async () => {
  await fixture?.close();
});

beforeEach(() => provider.reset());

const ok = (tool: string, input: unknown, token: string | null = TEST_TOKEN, on: TestServer = server) => expectOk(on, tool, input, token);

const fails = (tool: string, input: unknown, code: string, status: number, token: string | null = TEST_TOKEN, on: TestServer = server) =>
  expectFailure(on, tool, input, code, status, token);

async function startSession(input: Record<string, unknown> = {}, token: string | null = TEST_TOKEN): Promise<string> {
  return (await ok('tn_session_start', input, token)).sessionId;
}

async function events(sessionId: string, token: string | null = TEST_TOKEN): Promise<any[]> {
  const body = await ok('tn_session_history', { sessionId, limit: 100 }, token);
  expect(body.hasMore).toBe(false);
  return body.items;
}

const latestSeq = async (sessionId: string) => (await ok('tn_session_resume', { sessionId, recent: 0 })).latestSeq as number;

async function partitionItems(sessionId: string): Promise<Record<string, any>[]> {
  const result = await unrecorded(() => server.services.store.doc.send(
    new QueryCommand({
      TableName: server.config.tableName,
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': sessionKeys.partition(sessionId) },
      ConsistentRead: true,
    }),
  ));
  expect(result.LastEvaluatedKey).toBeUndefined();
  return result.Items ?? [];
}

const systemPromptOf = (request: { body: any }): string => {
  expect(request.body.messages[0].role).toBe('system');
  return request.body.messages[0].content;
};

describe('drafts', () => {
  it('saves a draft without calling the model, lists it as pending, and sends it later under the same clientEventId', async () => {
    const sessionId = await startSession({ topic: 'drafts' });
    const draft = await ok('tn_session_ask', { sessionId, message: 'What is recursion?', clientEventId: 'd1', draft: true, deviceId: 'phone' });
    expect(draft).toMatchObject({ status: 'draft', response: '', clientEventId: 'd1', questionSeq: 1, answerSeq: null, model: null, lookups: [] });
    expect(draft.eventsEmitted).toHaveLength(1);
    const draftId = draft.eventsEmitted[0];
    expect(provider.requests).toHaveLength(0);

    // Saving it again changes nothing.
    expect(await ok('tn_session_ask', { sessionId, message: 'What is recursion?', clientEventId: 'd1', draft: true })).toMatchObject({ status: 'draft', eventsEmitted: [draftId] });
    expect(await latestSeq(sessionId)).toBe(1);

    const pending = { clientEventId: 'd1', eventId: draftId, seq: 1, content: 'What is recursion?', deviceId: 'phone', createdAt: expect.any(String) };
    expect((await ok('tn_session_resume', { sessionId })).pendingDrafts).toEqual([pending]);
    expect((await ok('tn_session_sync_status', { sessionId, deviceId: 'laptop' })).pendingDrafts).toEqual([pending]);
    expect((await events(sessionId)).map((e) => [e.type, e.content, e.clientEventId])).toEqual([['draft', 'What is recursion?', 'd1']]);

    // Another message under the same clientEventId is refused while it is a draft...
    await fails('tn_session_ask', { sessionId, message: 'What is iteration?', clientEventId: 'd1', draft: true }, 'CONFLICT', 409);
    await fails('tn_session_ask', { sessionId, message: 'What is iteration?', clientEventId: 'd1' }, 'CONFLICT', 409);

    const sent = await ok('tn_session_ask', { sessionId, message: 'What is recursion?', clientEventId: 'd1', draft: false, deviceId: 'laptop' });
    expect(sent).toMatchObject({ status: 'answered', clientEventId: 'd1', questionSeq: 2, answerSeq: 3, model: { source: 'byok', provider: 'openai' } });
    expect(sent.response).toBe('Tutor says: What is recursion?');
    expect(sent.eventsEmitted).toHaveLength(3);
    expect(sent.eventsEmitted[0]).toBe(draftId);
    expect(provider.requests).toHaveLength(1);
    // The draft is not sent to the model a second time as history.
    expect(provider.requests[0]!.body.messages.slice(1)).toEqual([{ role: 'user', content: 'What is recursion?' }]);

    const log = await events(sessionId);
    expect(log.map((e) => e.eventId)).toEqual(sent.eventsEmitted);
    expect(log[1]).toMatchObject({ type: 'user_message', role: 'user', content: 'What is recursion?', clientEventId: 'd1', refersTo: draftId, deviceId: 'laptop' });
    expect(log[2]).toMatchObject({ type: 'assistant_message', role: 'assistant', refersTo: sent.eventsEmitted[1], clientEventId: 'd1' });
    expect((await ok('tn_session_resume', { sessionId })).pendingDrafts).toEqual([]);
    expect((await ok('tn_session_sync_status', { sessionId, deviceId: 'laptop' })).pendingDrafts).toEqual([]);

    // ...and after it was sent; the same message is a replay.
    await fails('tn_session_ask', { sessionId, message: 'What is iteration?', clientEventId: 'd1', draft: false }, 'CONFLICT', 409);
    expect(await ok('tn_session_ask', { sessionId, message: 'What is recursion?', clientEventId: 'd1' })).toMatchObject({
      status: 'replayed',
      response: sent.response,
      eventsEmitted: sent.eventsEmitted,
    });
    expect(await ok('tn_session_ask', { sessionId, message: 'What is recursion?', clientEventId: 'd1', draft: true })).toMatchObject({ status: 'replayed' });
    expect(provider.requests).toHaveLength(1);
    expect(await latestSeq(sessionId)).toBe(3);
  });
});

describe('retries and concurrent sends', () => {
  it('two devices sending the same draft at once call the model once', async () => {
    const sessionId = await startSession({});
    await ok('tn_session_ask', { sessionId, message: 'Shared draft', clientEventId: 'race-1', draft: true, deviceId: 'phone' });
    const release = provider.hold();
    const first = server.rest('tn_session_ask', { sessionId, message: 'Shared draft', clientEventId: 'race-1', deviceId: 'phone' });
    try {
      await expect.poll(() => provider.requests.length, { timeout: 10_000 }).toBe(1);
      const second = await fails('tn_session_ask', { sessionId, message: 'Shared draft', clientEventId: 'race-1', deviceId: 'laptop' }, 'CONFLICT', 409);
      expect(second.details.reason).toBe('answer in progress');
      expect(second.details.retryAfter).toBeGreaterThan(0);
    } finally {
      release();
    }
    const answered = await first;
    expect(answered.status).toBe(200);
    expect(answered.body).toMatchObject({ status: 'answered', questionSeq: 2, answerSeq: 3 });
    expect(await ok('tn_session_ask', { sessionId, message: 'Shared draft', clientEventId: 'race-1', deviceId: 'laptop' })).toMatchObject({
      status: 'replayed',
      eventsEmitted: answered.body.eventsEmitted,
    });
    expect(provider.requests).toHaveLength(1);
    expect((await events(sessionId)).map((e) => e.type)).toEqual(['draft', 'user_message', 'assistant_message']);
  });

  it('a provider failure keeps the question, charges nothing, and a retry with the same clientEventId answers it', async () => {
    const sessionId = await startSession({});
    const quotaBefore = (await ok('tn_user_quota', {})).prompts.current;
    // Every attempt fails (however many the SDK makes), then the provider recovers.
    provider.respond(() => ({ status: 500 }));
    const failed = await fails('tn_session_ask', { sessionId, message: 'Will it fail?', clientEventId: 'f-1' }, 'SERVICE_UNAVAILABLE', 503);
    expect(provider.requests.length).toBeGreaterThan(0);
    provider.respond(undefined);
    expect(failed.details.retryAfter).toEqual(expect.any(Number));
    expect(JSON.stringify(failed)).not.toContain(OPENAI_KEY);
    expect((await events(sessionId)).map((e) => [e.seq, e.type, e.clientEventId])).toEqual([[1, 'user_message', 'f-1']]);
    expect((await ok('tn_user_quota', {})).prompts.current).toBe(quotaBefore);

    const retried = await ok('tn_session_ask', { sessionId, message: 'Will it fail?', clientEventId: 'f-1' });
    expect(retried).toMatchObject({ status: 'answered', questionSeq: 1, answerSeq: 2 });
    expect(retried.eventsEmitted[0]).toBe((await events(sessionId))[0].eventId);
    expect((await events(sessionId)).map((e) => e.type)).toEqual(['user_message', 'assistant_message']);
    expect((await ok('tn_user_quota', {})).prompts.current).toBe(quotaBefore + 1);
  });

  it('a key the provider rejects is UNPROCESSABLE_ENTITY for a BYOK user, without echoing the key', async () => {
    const sessionId = await startSession({});
    provider.enqueue({ status: 401 });
    const refused = await fails('tn_session_ask', { sessionId, message: 'Bad key?', clientEventId: 'k-1' }, 'UNPROCESSABLE_ENTITY', 422);
    expect(refused.message).toContain('401');
    expect(JSON.stringify(refused)).not.toContain(OPENAI_KEY);
    expect(await ok('tn_session_ask', { sessionId, message: 'Bad key?', clientEventId: 'k-1' })).toMatchObject({ status: 'answered', questionSeq: 1, answerSeq: 2 });
  });
});

describe('cancel pending drafts', () => {
  it('cancels named drafts or all of them, reports the rest, and a cancelled draft cannot be sent', async () => {
    const sessionId = await startSession({});
    const ids: Record<string, string> = {};
    for (const name of ['c1', 'c2', 'c3']) {
      ids[name] = (await ok('tn_session_ask', { sessionId, message: `draft ${name}`, clientEventId: name, draft: true, deviceId: 'phone' })).eventsEmitted[0];
    }

    const named = await ok('tn_session_cancel_pending', { sessionId, clientEventIds: ['c2', 'unknown-1'], deviceId: 'web' });
    expect(named.cancelled.map((d: any) => [d.clientEventId, d.eventId, d.seq, d.content])).toEqual([['c2', ids.c2, 2, 'draft c2']]);
    expect(named.notPending).toEqual(['unknown-1']);
    expect(named.eventsEmitted).toHaveLength(1);
    expect((await ok('tn_session_resume', { sessionId })).pendingDrafts.map((d: any) => d.clientEventId)).toEqual(['c1', 'c3']);

    const all = await ok('tn_session_cancel_pending', { sessionId });
    expect(all.cancelled.map((d: any) => d.clientEventId)).toEqual(['c1', 'c3']);
    expect(all.notPending).toEqual([]);
    expect(all.eventsEmitted).toHaveLength(2);
    expect((await ok('tn_session_resume', { sessionId })).pendingDrafts).toEqual([]);

    // Nothing left: cancelling again writes nothing.
    expect(await ok('tn_session_cancel_pending', { sessionId })).toEqual({ cancelled: [], notPending: [], eventsEmitted: [] });
    expect(await ok('tn_session_cancel_pending', { sessionId, clientEventIds: ['c1'] })).toEqual({ cancelled: [], notPending: ['c1'], eventsEmitted: [] });
    expect(await latestSeq(sessionId)).toBe(6);

    await fails('tn_session_ask', { sessionId, message: 'draft c1', clientEventId: 'c1' }, 'CONFLICT', 409);
    await fails('tn_session_ask', { sessionId, message: 'draft c3', clientEventId: 'c3', draft: true }, 'CONFLICT', 409);
    expect(provider.requests).toHaveLength(0);

    const log = await events(sessionId);
    expect(log.map((e) => e.type)).toEqual(['draft', 'draft', 'draft', 'draft_cancelled', 'draft_cancelled', 'draft_cancelled']);
    expect(log.slice(3).map((e) => [e.clientEventId, e.refersTo, e.content, e.deviceId])).toEqual([
      ['c2', ids.c2, 'draft c2', 'web'],
      ['c1', ids.c1, 'draft c1', null],
      ['c3', ids.c3, 'draft c3', null],
    ]);
    expect(log.slice(3).map((e) => e.eventId)).toEqual([...named.eventsEmitted, ...all.eventsEmitted]);

    // A sent message is not a pending draft.
    await ok('tn_session_ask', { sessionId, message: 'Sent right away', clientEventId: 'sent-1' });
    expect(await ok('tn_session_cancel_pending', { sessionId, clientEventIds: ['sent-1'] })).toMatchObject({ cancelled: [], notPending: ['sent-1'] });
  });
});

describe('ending a session', () => {
  it('cancels pending drafts, closes the log, refuses further asks, and is idempotent', async () => {
    const sessionId = await startSession({ topic: 'end' });
    const asked = await ok('tn_session_ask', { sessionId, message: 'Quick question', clientEventId: 'e-q' });
    const e1 = (await ok('tn_session_ask', { sessionId, message: 'draft one', clientEventId: 'e1', draft: true })).eventsEmitted[0];
    const e2 = (await ok('tn_session_ask', { sessionId, message: 'draft two', clientEventId: 'e2', draft: true })).eventsEmitted[0];

    const ended = await ok('tn_session_end', { sessionId, reason: 'finished the exercise', deviceId: 'web' });
    expect(ended).toMatchObject({ sessionId, status: 'ended', latestSeq: 7, cancelledDrafts: ['e1', 'e2'], alreadyEnded: false });
    expect(Date.parse(ended.endedAt)).not.toBeNaN();

    const log = await events(sessionId);
    expect(log.map((e) => e.type)).toEqual(['user_message', 'assistant_message', 'draft', 'draft', 'draft_cancelled', 'draft_cancelled', 'session_ended']);
    expect(log.slice(4, 6).map((e) => e.refersTo)).toEqual([e1, e2]);
    expect(log.at(-1)).toMatchObject({ seq: 7, type: 'session_ended', content: 'finished the exercise', deviceId: 'web', clientEventId: null });

    const resumed = await ok('tn_session_resume', { sessionId });
    expect(resumed.state).toMatchObject({ status: 'ended', endedAt: ended.endedAt, latestSeq: 7 });
    expect(resumed.pendingDrafts).toEqual([]);
    expect(await ok('tn_session_sync_status', { sessionId, deviceId: 'cli' })).toMatchObject({ status: 'ended', latestSeq: 7 });

    const refused = await fails('tn_session_ask', { sessionId, message: 'One more thing', clientEventId: 'after-end' }, 'UNPROCESSABLE_ENTITY', 422);
    expect(refused.details.reason).toContain('ended');
    await fails('tn_session_ask', { sessionId, message: 'A draft', clientEventId: 'after-end-draft', draft: true }, 'UNPROCESSABLE_ENTITY', 422);
    await fails('tn_session_ask', { sessionId, message: 'draft one', clientEventId: 'e1' }, 'CONFLICT', 409);
    // A retry of an answered ask still gets its answer.
    expect(await ok('tn_session_ask', { sessionId, message: 'Quick question', clientEventId: 'e-q' })).toMatchObject({ status: 'replayed', response: asked.response });
    expect(provider.requests).toHaveLength(1);

    const again = await ok('tn_session_end', { sessionId, reason: 'twice' });
    expect(again).toMatchObject({ sessionId, status: 'ended', latestSeq: 7, endedAt: ended.endedAt, cancelledDrafts: [], alreadyEnded: true });
    expect(await events(sessionId)).toEqual(log);
    expect((await ok('tn_session_export', { sessionId })).events).toEqual(log);
  });
});

describe('history pagination', () => {
  it('pages through every event in seq order with opaque cursors, and from a given seq', async () => {
    const sessionId = await startSession({});
    await ok('tn_session_ask', { sessionId, message: 'First', clientEventId: 'p-1' });
    await ok('tn_session_ask', { sessionId, message: 'Second', clientEventId: 'p-2' });
    for (const name of ['p-3', 'p-4', 'p-5']) await ok('tn_session_ask', { sessionId, message: name, clientEventId: name, draft: true });
    const all = await events(sessionId);
    expect(all.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6, 7]);

    const pages: any[] = [];
    let cursor: string | undefined;
    do {
      const page = await ok('tn_session_history', { sessionId, limit: 2, ...(cursor ? { cursor } : {}) });
      pages.push(page);
      cursor = page.nextCursor;
      expect(page.hasMore).toBe(cursor !== undefined);
      expect(page).toMatchObject({ totalCount: 7, latestSeq: 7 });
      expect(pages.length).toBeLessThanOrEqual(4);
    } while (cursor);
    expect(pages.map((p) => p.items.map((e: any) => e.seq))).toEqual([[1, 2], [3, 4], [5, 6], [7]]);
    expect(pages.flatMap((p) => p.items)).toEqual(all);
    expect(pages[0].nextCursor).not.toContain('SESSION#');

    const after = await ok('tn_session_history', { sessionId, afterSeq: 4, limit: 10 });
    expect(after.items.map((e: any) => e.seq)).toEqual([5, 6, 7]);
    expect(after.hasMore).toBe(false);
    expect(after.nextCursor).toBeUndefined();
    const afterPaged = await ok('tn_session_history', { sessionId, afterSeq: 4, limit: 2 });
    expect(afterPaged.items.map((e: any) => e.seq)).toEqual([5, 6]);
    expect(afterPaged.hasMore).toBe(true);
    expect((await ok('tn_session_history', { sessionId, cursor: afterPaged.nextCursor, limit: 2 })).items.map((e: any) => e.seq)).toEqual([7]);
    expect(await ok('tn_session_history', { sessionId, afterSeq: 7 })).toMatchObject({ items: [], hasMore: false, latestSeq: 7 });

    // A modified cursor, or one of another session, is refused naming the field.
    const [body, mac] = pages[0].nextCursor.split('.');
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body, 'base64url').toString()), p: { seq: 0 } })).toString('base64url');
    for (const bad of [`${forged}.${mac}`, `${body}.${mac.slice(0, -2)}AA`, 'not-a-cursor']) {
      const refused = await fails('tn_session_history', { sessionId, cursor: bad, limit: 2 }, 'BAD_REQUEST', 400);
      expect(refused.details.fields.map((f: any) => f.field)).toEqual(['cursor']);
    }
    const other = await startSession({});
    const refused = await fails('tn_session_history', { sessionId: other, cursor: pages[0].nextCursor }, 'BAD_REQUEST', 400);
    expect(refused.details.fields[0].field).toBe('cursor');
    await fails('tn_session_history', { sessionId, limit: 0 }, 'BAD_REQUEST', 400);
  });
});

describe('ownership', () => {
  it('another user gets NOT_FOUND for every session tool, as for a session that does not exist, and writes nothing', async () => {
    const sessionId = await startSession({ topic: 'private' });
    await ok('tn_session_ask', { sessionId, message: 'Mine', clientEventId: 'own-1' });
    await ok('tn_session_ask', { sessionId, message: 'A draft of mine', clientEventId: 'own-draft', draft: true });
    const before = await partitionItems(sessionId);
    const requestsBefore = provider.requests.length;
    const missing = ulid();

    const calls: [string, Record<string, unknown>][] = [
      ['tn_session_history', {}],
      ['tn_session_ask', { message: 'Let me in', clientEventId: 'bob-1' }],
      ['tn_session_ask', { message: 'Mine', clientEventId: 'own-1' }],
      ['tn_session_ask', { message: 'A draft', clientEventId: 'bob-d', draft: true }],
      ['tn_session_resume', { deviceId: 'bob-laptop' }],
      ['tn_session_export', {}],
      ['tn_session_end', { reason: 'taking over' }],
      ['tn_session_sync_status', { deviceId: 'bob-laptop' }],
      ['tn_session_cancel_pending', {}],
    ];
    for (const [tool, input] of calls) {
      const theirs = await fails(tool, { sessionId, ...input }, 'NOT_FOUND', 404, SECOND_TOKEN);
      const nonexistent = await fails(tool, { sessionId: missing, ...input }, 'NOT_FOUND', 404, SECOND_TOKEN);
      // The answer does not reveal that the session exists.
      expect(theirs.message.replace(sessionId, 'ID')).toBe(nonexistent.message.replace(missing, 'ID'));
      expect(JSON.stringify(theirs)).not.toContain('Mine');
    }

    expect(provider.requests).toHaveLength(requestsBefore);
    expect(await partitionItems(sessionId)).toEqual(before);
    expect(await latestSeq(sessionId)).toBe(3);
    expect((await ok('tn_session_resume', { sessionId })).pendingDrafts.map((d: any) => d.clientEventId)).toEqual(['own-draft']);
  });
});

describe('expiry', () => {
  it('gives every item of the partition a TTL that outlives the session\'s expiry', async () => {
    const started = await ok('tn_session_start', { topic: 'ttl' });
    const { sessionId } = started;
    const createdTtl = Math.ceil(Date.parse(started.expiresAt) / 1000);
    const [meta0] = await partitionItems(sessionId);
    expect(meta0).toMatchObject({ SK: 'META', expiresAt: started.expiresAt });
    // Items carry half a retention period (15 days) of slack beyond the expiry.
    expect(meta0!.ttl).toBe(createdTtl + 15 * 86_400);

    await ok('tn_session_ask', { sessionId, message: 'Question', clientEventId: 't-1', deviceId: 'cli' });
    await ok('tn_session_ask', { sessionId, message: 'Later', clientEventId: 't-2', draft: true, deviceId: 'cli' });
    await ok('tn_session_sync_status', { sessionId, deviceId: 'web' });

    const items = await partitionItems(sessionId);
    const kinds = items.map((item) => String(item.SK).split('#')[0]).sort();
    expect(kinds).toEqual(['DEVICE', 'DRAFT', 'EVENT', 'EVENT', 'EVENT', 'META', 'REQUEST', 'REQUEST']);
    const meta = items.find((item) => item.SK === 'META')!;
    expect(meta.ttl).toBe(Math.ceil(Date.parse(meta.itemsExpireAt) / 1000));
    expect(meta.ttl).toBeGreaterThan(Math.ceil(Date.parse(meta.expiresAt) / 1000));
    for (const item of items) {
      expect(typeof item.ttl, `${item.SK} ttl`).toBe('number');
      expect(Number.isInteger(item.ttl)).toBe(true);
      expect(item.ttl, `${item.SK} ttl`).toBeGreaterThanOrEqual(createdTtl);
      expect(item.ttl, `${item.SK} ttl`).toBeLessThanOrEqual(meta.ttl);
    }
    // The session's expiry moves with activity: the state reports the META's.
    expect((await ok('tn_session_resume', { sessionId, recent: 0 })).state.expiresAt).toBe(meta.expiresAt);
  });

  it('treats an expired session as gone even before TTL removes it', async () => {
    const sessionId = await startSession({});
    await ok('tn_session_ask', { sessionId, message: 'Before', clientEventId: 'x-1' });
    await unrecorded(() => server.services.store.doc.send(
      new UpdateCommand({
        TableName: server.config.tableName,
        Key: sessionKeys.meta(sessionId),
        UpdateExpression: 'SET expiresAt = :past',
        ExpressionAttributeValues: { ':past': new Date(Date.now() - 1000).toISOString() },
      }),
    ));
    const before = await partitionItems(sessionId);
    const requestsBefore = provider.requests.length;
    await fails('tn_session_history', { sessionId }, 'NOT_FOUND', 404);
    await fails('tn_session_resume', { sessionId }, 'NOT_FOUND', 404);
    await fails('tn_session_ask', { sessionId, message: 'After', clientEventId: 'x-2' }, 'NOT_FOUND', 404);
    await fails('tn_session_ask', { sessionId, message: 'Before', clientEventId: 'x-1' }, 'NOT_FOUND', 404);
    await fails('tn_session_ask', { sessionId, message: 'Draft', clientEventId: 'x-3', draft: true }, 'NOT_FOUND', 404);
    await fails('tn_session_export', { sessionId }, 'NOT_FOUND', 404);
    await fails('tn_session_sync_status', { sessionId, deviceId: 'web' }, 'NOT_FOUND', 404);
    await fails('tn_session_end', { sessionId }, 'NOT_FOUND', 404);
    await fails('tn_session_cancel_pending', { sessionId }, 'NOT_FOUND', 404);
    expect(provider.requests).toHaveLength(requestsBefore);
    expect(await partitionItems(sessionId)).toEqual(before);
  });
});

describe('anonymous sessions', () => {
  it('are refused when the operator offers no default model', async () => {
    const plain = await startTestServer(providerEnv(), { catalog: 'shared' });
    try {
      const refused = await fails('tn_session_start', { topic: 'anonymous' }, 'UNAUTHORIZED', 401, null, plain);
      expect(refused.message).toMatch(/sign in/i);
      // Signed-in users are unaffected.
      expect((await ok('tn_session_start', { topic: 'signed in' }, TEST_TOKEN, plain)).state.owner).toBe('user');
    } finally {
      await plain.close();
    }
  });

  it('run on the operator\'s model, and neither side can read the other\'s sessions', async () => {
    const started = await ok('tn_session_start', { topic: 'anonymous', course: 'sfu:CMPT 120' }, null);
    expect(started.state).toMatchObject({ owner: 'anonymous', status: 'active', context: { tutoringStyle: 'socratic', courseTitle: CMPT_120_TITLE } });
    const anonId = started.sessionId;
    const asked = await ok('tn_session_ask', { sessionId: anonId, message: 'Hi, no account here', clientEventId: 'anon-1' }, null);
    expect(asked).toMatchObject({ status: 'answered', questionSeq: 1, answerSeq: 2, model: { source: 'operator', provider: 'openai-compatible', model: 'tiny' } });
    expect(provider.requests).toHaveLength(1);
    expect(provider.requests[0]!.apiKey).toBe(OPERATOR_KEY);
    expect(provider.requests[0]!.body.model).toBe('tiny');
    expect((await events(anonId, null)).map((e) => e.eventId)).toEqual(asked.eventsEmitted);

    // Signed-in users cannot see it.
    for (const token of [TEST_TOKEN, SECOND_TOKEN]) {
      await fails('tn_session_history', { sessionId: anonId }, 'NOT_FOUND', 404, token);
      await fails('tn_session_ask', { sessionId: anonId, message: 'Hijack', clientEventId: 'user-1' }, 'NOT_FOUND', 404, token);
      await fails('tn_session_export', { sessionId: anonId }, 'NOT_FOUND', 404, token);
    }
    // An anonymous caller cannot see a user's session.
    const userSession = await startSession({ topic: 'mine' });
    await ok('tn_session_ask', { sessionId: userSession, message: 'Private', clientEventId: 'u-1' });
    expect(provider.requests.at(-1)!.apiKey).toBe(OPENAI_KEY);
    await fails('tn_session_history', { sessionId: userSession }, 'NOT_FOUND', 404, null);
    await fails('tn_session_resume', { sessionId: userSession }, 'NOT_FOUND', 404, null);
    await fails('tn_session_ask', { sessionId: userSession, message: 'Peek', clientEventId: 'anon-2' }, 'NOT_FOUND', 404, null);
    await fails('tn_session_end', { sessionId: userSession }, 'NOT_FOUND', 404, null);
    expect(await latestSeq(userSession)).toBe(2);
    expect(await events(anonId, null)).toHaveLength(2);
  });
});

describe('course grounding and tutoring style', () => {
  it('refuses a course that is not in the catalog', async () => {
    const refused = await fails('tn_session_start', { course: 'sfu:ZZZZ 999' }, 'NOT_FOUND', 404);
    expect(refused.message).toContain('ZZZZ 999');
  });

  it('grounds the prompt in the catalog entry and follows the style: override first, then preferences', async () => {
    const promptFor = async (start: Record<string, unknown>): Promise<{ state: any; prompt: string }> => {
      const started = await ok('tn_session_start', { course: 'sfu:CMPT 120', ...start });
      const before = provider.requests.length;
      await ok('tn_session_ask', { sessionId: started.sessionId, message: 'How do loops work?', clientEventId: 'style-1' });
      expect(provider.requests).toHaveLength(before + 1);
      return { state: started.state, prompt: systemPromptOf(provider.requests.at(-1)!) };
    };

    await ok('tn_user_preferences_set', { tutoringStyle: 'balanced' });
    const direct = await promptFor({ tutoringStyle: 'direct', topic: 'loops' });
    expect(direct.state.context).toMatchObject({ course: 'sfu:CMPT 120', courseTitle: CMPT_120_TITLE, tutoringStyle: 'direct', topic: 'loops' });
    expect(direct.prompt).toContain('Explain directly');
    expect(direct.prompt).not.toContain('Socratically');
    expect(direct.prompt).not.toContain('Balance the two');
    expect(direct.prompt).toContain(`Course: sfu:CMPT 120 — ${CMPT_120_TITLE}`);
    expect(direct.prompt).toContain('Prerequisites: BC Math 12 or equivalent is recommended.');
    expect(direct.prompt).toMatch(/Description: An elementary introduction to computing science/);
    expect(direct.prompt).toContain('Topic of this session: loops');

    const fromPreference = await promptFor({});
    expect(fromPreference.state.context.tutoringStyle).toBe('balanced');
    expect(fromPreference.prompt).toContain('Balance the two');
    expect(fromPreference.prompt).not.toContain('Explain directly');

    await ok('tn_user_preferences_set', { tutoringStyle: 'socratic' });
    const socratic = await promptFor({});
    expect(socratic.state.context.tutoringStyle).toBe('socratic');
    expect(socratic.prompt).toContain('Socratically');
    expect(socratic.prompt).not.toContain('Explain directly');
    expect(socratic.prompt).toContain(CMPT_120_TITLE);

    // The style is fixed when the session starts: changing the preference later does not move it.
    const started = await ok('tn_session_start', { course: 'sfu:CMPT 120' });
    await ok('tn_user_preferences_set', { tutoringStyle: 'direct' });
    await ok('tn_session_ask', { sessionId: started.sessionId, message: 'Still socratic?', clientEventId: 'style-2' });
    expect(systemPromptOf(provider.requests.at(-1)!)).toContain('Socratically');

    // Without a course, no course lines.
    const bare = await ok('tn_session_start', { topic: 'anything' });
    await ok('tn_session_ask', { sessionId: bare.sessionId, message: 'Hello', clientEventId: 'style-3' });
    const barePrompt = systemPromptOf(provider.requests.at(-1)!);
    expect(barePrompt).not.toContain('Course:');
    expect(barePrompt).toContain('Explain directly');
  });
});
