import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Principal } from '../shared/auth/principal.js';
import type { Store } from '../shared/store/dynamo-client.js';
import { ENTITY, sessionKeys } from '../shared/store/keys.js';
import { ToolError } from '../shared/tools/errors.js';
import { DAY_MS, epochSeconds, PendingDraftSchema, type PendingDraft, type SessionRecord } from './session-model.js';

const NOT_FOUND_HINTS = ['Start a new session with tn_session_start; sessions expire after a period without activity.'];

/** The META item as stored: the record, its TTL and, for a user's session, its place in the owner index. */
export function metaItem(record: SessionRecord): Record<string, unknown> {
  return {
    ...sessionKeys.meta(record.sessionId),
    ...(record.ownerId ? sessionKeys.byOwner(record.ownerId, record.lastActivityAt) : {}),
    entity: ENTITY.session,
    ...record,
    ttl: epochSeconds(record.expiresAt),
  };
}

export async function createSession(store: Store, record: SessionRecord): Promise<void> {
  await store.doc.send(
    new PutCommand({
      TableName: store.tableName,
      Item: metaItem(record),
      ConditionExpression: 'attribute_not_exists(PK)',
    }),
  );
}

/** The stored META item, or NOT_FOUND; no access check (callers go through openSession). */
export async function readSession(store: Store, sessionId: string): Promise<SessionRecord> {
  const result = await store.doc.send(new GetCommand({ TableName: store.tableName, Key: sessionKeys.meta(sessionId), ConsistentRead: true }));
  if (!result.Item) throw ToolError.notFound(`No session ${sessionId}.`, NOT_FOUND_HINTS);
  const { PK: _pk, SK: _sk, GSI1PK: _gsiPk, GSI1SK: _gsiSk, entity: _entity, ttl: _ttl, ...record } = result.Item;
  return record as SessionRecord;
}

/**
 * The session if this caller may use it. Another user's session and an expired one (TTL may not have
 * removed it yet) are both NOT_FOUND: whether a session id exists is not revealed to non-owners.
 */
export async function openSession(store: Store, sessionId: string, principal: Principal, now: Date): Promise<SessionRecord> {
  const session = await readSession(store, sessionId);
  const callerId = principal.kind === 'user' ? principal.userId : null;
  if (session.ownerId !== callerId || Date.parse(session.expiresAt) <= now.getTime()) {
    throw ToolError.notFound(`No session ${sessionId}.`, NOT_FOUND_HINTS);
  }
  return session;
}

/**
 * The session a call is about: the given id, or (seed 004: the session comes from context when a call
 * omits it) the caller's most recently active session that is neither ended nor expired.
 */
export async function sessionIdFor(store: Store, principal: Principal, sessionId: string | undefined, now: Date): Promise<string> {
  if (sessionId) return sessionId;
  if (principal.kind !== 'user') {
    throw ToolError.badRequest('sessionId is required without sign-in.', [{ field: 'sessionId', message: 'required for anonymous callers' }]);
  }
  const result = await store.doc.send(
    new QueryCommand({
      TableName: store.tableName,
      IndexName: 'GSI1',
      KeyConditionExpression: 'GSI1PK = :owner',
      ExpressionAttributeValues: { ':owner': sessionKeys.ownerIndex(principal.userId) },
      ScanIndexForward: false,
      Limit: 10,
    }),
  );
  const current = (result.Items ?? []).find((item) => item.status === 'active' && Date.parse(String(item.expiresAt)) > now.getTime());
  if (!current) {
    throw ToolError.notFound('You have no active session; start one with tn_session_start or pass a sessionId.', NOT_FOUND_HINTS);
  }
  return String(current.sessionId);
}

/** Pending drafts, oldest first (DRAFT# items exist only while a draft is neither sent nor cancelled). */
export async function listPendingDrafts(store: Store, sessionId: string): Promise<PendingDraft[]> {
  const result = await store.doc.send(
    new QueryCommand({
      TableName: store.tableName,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': sessionKeys.partition(sessionId), ':prefix': sessionKeys.draftPrefix },
      ConsistentRead: true,
    }),
  );
  return (result.Items ?? [])
    .map((item) => PendingDraftSchema.parse({ ...item, deviceId: item.deviceId ?? null }))
    .sort((a, b) => a.seq - b.seq);
}

/**
 * Expiry moves with activity, but TTL is per item: when the oldest item TTL comes within half the
 * retention period, every item of the session is given the current expiry, so an active session never
 * loses its early events. At most once per half-period per session, and idempotent if interrupted.
 */
export async function refreshItemExpiry(store: Store, session: SessionRecord, retentionDays: number, now: Date): Promise<boolean> {
  const halfPeriod = (retentionDays * DAY_MS) / 2;
  if (Date.parse(session.itemsExpireAt) - now.getTime() > halfPeriod) return false;
  const ttl = epochSeconds(session.expiresAt);
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await store.doc.send(
      new QueryCommand({
        TableName: store.tableName,
        KeyConditionExpression: 'PK = :pk',
        ExpressionAttributeValues: { ':pk': sessionKeys.partition(session.sessionId) },
        ProjectionExpression: 'PK, SK',
        ExclusiveStartKey: startKey,
      }),
    );
    await Promise.all(
      (page.Items ?? []).map((key) =>
        store.doc.send(
          new UpdateCommand({
            TableName: store.tableName,
            Key: { PK: key.PK, SK: key.SK },
            UpdateExpression: 'SET #ttl = :ttl',
            // Never shorten: a concurrent append may already have written a later expiry.
            ConditionExpression: 'attribute_exists(PK) AND (attribute_not_exists(#ttl) OR #ttl < :ttl)',
            ExpressionAttributeNames: { '#ttl': 'ttl' },
            ExpressionAttributeValues: { ':ttl': ttl },
          }),
        ).catch((error: unknown) => {
          if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
        }),
      ),
    );
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  await store.doc.send(
    new UpdateCommand({
      TableName: store.tableName,
      Key: sessionKeys.meta(session.sessionId),
      UpdateExpression: 'SET itemsExpireAt = :at',
      ExpressionAttributeValues: { ':at': session.expiresAt },
    }),
  );
  return true;
}
