import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { ANONYMOUS } from '../../functions/platform/auth/principal.js';
import { createStore, type Store } from '../../functions/platform/store/dynamo-client.js';
import { sessionKeys } from '../../functions/platform/store/keys.js';
import { appendEvents } from '../../functions/session/event-log-store.js';
import { DAY_MS, epochSeconds, expiryAfter, itemsExpiryFor, type SessionRecord } from '../../functions/session/session-model.js';
import { createSession, openSession, readSession } from '../../functions/session/session-store.js';
import { ensureTable } from '../../local/ensure-table.js';
import { unrecorded } from '../support/store/command-recorder.js';

const RETENTION_DAYS = 30;
const T0 = new Date('2026-11-01T00:00:00.000Z');
const day = (n: number) => new Date(T0.getTime() + n * DAY_MS);

let store: Store;
beforeAll(async () => {
  const tableName = `tn-session-expiry-${ulid()}`;
  store = createStore({ region: 'us-west-2', tableName, dynamoDbEndpoint: inject('dynamoDbEndpoint') });
  await ensureTable(store.client, tableName);
});

async function newSession(): Promise<SessionRecord> {
  const expiresAt = expiryAfter(T0, RETENTION_DAYS).toISOString();
  const record: SessionRecord = {
    sessionId: ulid(T0.getTime()),
    ownerId: null,
    status: 'active',
    context: { course: null, courseTitle: null, topic: null, tutoringStyle: 'socratic', language: 'en' },
    course: null,
    createdAt: T0.toISOString(),
    lastActivityAt: T0.toISOString(),
    expiresAt,
    endedAt: null,
    lastSeq: 0,
    itemsExpireAt: itemsExpiryFor(expiresAt, RETENTION_DAYS),
    summary: null,
  };
  await createSession(store, record);
  return record;
}

const append = (sessionId: string, at: Date, content: string) =>
  appendEvents(store, {
    sessionId,
    now: () => at,
    retentionDays: RETENTION_DAYS,
    plan: () => ({ events: [{ type: 'draft', role: 'user', content, deviceId: null, clientEventId: null, refersTo: null }] }),
  });

async function itemTtls(sessionId: string): Promise<number[]> {
  const result = await unrecorded(() => store.doc.send(
    new QueryCommand({ TableName: store.tableName, KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': sessionKeys.partition(sessionId) } }),
  ));
  return (result.Items ?? []).map((item) => Number(item.ttl));
}

describe('session retention with DynamoDB TTL', () => {
  it('keeps every item alive at least until the session expires, moving all TTLs when the sliding expiry catches up', async () => {
    const session = await newSession();
    await append(session.sessionId, day(1), 'early');
    // Day 1: expiry day 31, items carry day 45 (half a period of slack); nothing to move.
    let meta = await readSession(store, session.sessionId);
    expect(meta.expiresAt).toBe(day(31).toISOString());
    expect(meta.itemsExpireAt).toBe(day(45).toISOString());
    for (const ttl of await itemTtls(session.sessionId)) expect(ttl).toBeGreaterThanOrEqual(epochSeconds(day(45)));

    // Day 16: expiry day 46 would outrun the items (day 45): every item moves to day 61.
    await append(session.sessionId, day(16), 'later');
    meta = await readSession(store, session.sessionId);
    expect(meta.expiresAt).toBe(day(46).toISOString());
    expect(meta.itemsExpireAt).toBe(day(61).toISOString());
    const ttls = await itemTtls(session.sessionId);
    expect(ttls).toHaveLength(3);
    for (const ttl of ttls) expect(ttl).toBeGreaterThanOrEqual(epochSeconds(day(61)));

    // Readable until its expiry (day 46), whose items all outlive it; not after.
    await expect(openSession(store, session.sessionId, ANONYMOUS, day(45))).resolves.toMatchObject({ lastSeq: 2 });
    await expect(openSession(store, session.sessionId, ANONYMOUS, day(47))).rejects.toMatchObject({ kind: 'not-found' });
  });

  it('treats a session whose item TTLs were not moved as expired when they run out, never as readable with holes', async () => {
    const session = await newSession();
    // As if a refresh had failed: META's expiry ran ahead of the items' TTL (day 45).
    await unrecorded(() => store.doc.send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: sessionKeys.meta(session.sessionId),
        UpdateExpression: 'SET expiresAt = :later',
        ExpressionAttributeValues: { ':later': day(60).toISOString() },
      }),
    ));
    await expect(openSession(store, session.sessionId, ANONYMOUS, day(44))).resolves.toBeDefined();
    await expect(openSession(store, session.sessionId, ANONYMOUS, day(46))).rejects.toMatchObject({ kind: 'not-found' });
  });
});
