import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { deleteAll, putAll } from '../platform/store/batch-writes.js';
import { queryAll } from '../platform/store/query-all.js';
import { beginsWith, declareAccessPatterns, param } from '../platform/store/access-patterns.js';
import type { Principal } from '../platform/auth/principal.js';
import type { Store } from '../platform/store/dynamo-client.js';
import { ENTITY, sessionKeys } from '../platform/store/keys.js';
import { DomainError } from '../platform/domain-error.js';
import type { ToolContext } from '../mcp/tools/tool-context.js';
import { effectiveExpiry, epochSeconds, PendingDraftSchema, type PendingDraft, type SessionRecord } from './session-model.js';

const NOT_FOUND_HINTS = ['Start a new session with tn_session_start; sessions expire after a period without activity.'];

/** The META item as stored: the record, its TTL and, for a user's session, its place in the owner index. */
function metaItem(record: SessionRecord): Record<string, unknown> {
  return {
    ...sessionKeys.meta(record.sessionId),
    ...(record.ownerId ? sessionKeys.byOwner(record.ownerId, record.lastActivityAt) : {}),
    entity: ENTITY.session,
    ...record,
    ttl: epochSeconds(record.itemsExpireAt),
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

/**
 * Writes an imported session's META unless a live session holds the id: false when one does (a
 * concurrent import of the same snapshot won). Written last, so nothing of an import is visible before it.
 */
export async function putImportedSession(store: Store, record: SessionRecord, now: Date): Promise<boolean> {
  try {
    await store.doc.send(
      new PutCommand({
        TableName: store.tableName,
        Item: metaItem(record),
        ConditionExpression: 'attribute_not_exists(PK) OR expiresAt <= :now',
        ExpressionAttributeValues: { ':now': now.toISOString() },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/** An imported session's events, idempotency records and pending drafts (every item but META). */
export async function putSessionItems(store: Store, items: Record<string, unknown>[]): Promise<void> {
  await putAll(store, items);
}

/** The stored META item, or NOT_FOUND; no access check (callers go through openSession). */
export async function readSession(store: Store, sessionId: string): Promise<SessionRecord> {
  const result = await store.doc.send(new GetCommand({ TableName: store.tableName, Key: sessionKeys.meta(sessionId), ConsistentRead: true }));
  return sessionFromItem(result.Item, sessionId);
}

/** The record a META item holds, or NOT_FOUND when there is none. */
export function sessionFromItem(item: Record<string, unknown> | undefined, sessionId: string): SessionRecord {
  if (!item) throw DomainError.notFound(`No session ${sessionId}.`, NOT_FOUND_HINTS);
  const { PK: _pk, SK: _sk, GSI1PK: _gsiPk, GSI1SK: _gsiSk, entity: _entity, ttl: _ttl, ...record } = item;
  return record as unknown as SessionRecord;
}

/**
 * The session if this caller may use it. Another user's session and an expired one (TTL may not have
 * removed it yet) are both NOT_FOUND: whether a session id exists is not revealed to non-owners.
 */
export async function openSession(store: Store, sessionId: string, principal: Principal, now: Date): Promise<SessionRecord> {
  return openableBy(await readSession(store, sessionId), principal, now);
}

/** The session itself when this caller may use it, else NOT_FOUND (see openSession). */
export function openableBy(session: SessionRecord, principal: Principal, now: Date): SessionRecord {
  const sessionId = session.sessionId;
  const callerId = principal.kind === 'user' ? principal.userId : null;
  if (session.ownerId !== callerId || Date.parse(effectiveExpiry(session)) <= now.getTime()) {
    throw DomainError.notFound(`No session ${sessionId}.`, NOT_FOUND_HINTS);
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
    throw DomainError.invalid('sessionId is required without sign-in.', [{ field: 'sessionId', message: 'required for anonymous callers' }]);
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
  const current = (result.Items ?? []).find(
    (item) => item.status === 'active' && Date.parse(effectiveExpiry(item as SessionRecord)) > now.getTime(),
  );
  if (!current) {
    throw DomainError.notFound('You have no active session; start one with tn_session_start or pass a sessionId.', NOT_FOUND_HINTS);
  }
  return String(current.sessionId);
}

/** The session a tool call is about (the one named, else the caller's current one), if the caller may use it. */
export async function openSessionFor(ctx: Pick<ToolContext, 'services' | 'principal' | 'now'>, sessionId: string | undefined): Promise<SessionRecord> {
  const now = ctx.now();
  const id = await sessionIdFor(ctx.services.store, ctx.principal, sessionId, now);
  return openSession(ctx.services.store, id, ctx.principal, now);
}

/** Pending drafts, oldest first (DRAFT# items exist only while a draft is neither sent nor cancelled). */
export async function listPendingDrafts(store: Store, sessionId: string): Promise<PendingDraft[]> {
  const items = await queryAll(store, {
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
    ExpressionAttributeValues: { ':pk': sessionKeys.partition(sessionId), ':prefix': sessionKeys.draftPrefix },
    ConsistentRead: true,
  });
  return items
    .map((item) => PendingDraftSchema.parse({ ...item, deviceId: item.deviceId ?? null }))
    .sort((a, b) => a.seq - b.seq);
}

/** The key of every item of a session (META, events, records, drafts, devices). */
function partitionKeys(store: Store, sessionId: string): Promise<Record<string, unknown>[]> {
  return queryAll(store, {
    KeyConditionExpression: 'PK = :pk',
    ExpressionAttributeValues: { ':pk': sessionKeys.partition(sessionId) },
    ProjectionExpression: 'PK, SK',
    ConsistentRead: true,
  });
}

/**
 * Gives every item of the session a TTL of at least `itemsTtlAt`, then records it on META (only ever
 * moving it forward). Runs when the sliding expiry outruns the items' TTL: at most once per half
 * retention period of activity. Idempotent, in batches of 25 so a long session does not flood the table.
 */
export async function refreshItemExpiry(store: Store, sessionId: string, itemsTtlAt: string): Promise<boolean> {
  const ttl = epochSeconds(itemsTtlAt);
  const keysOf = await partitionKeys(store, sessionId);
  for (let i = 0; i < keysOf.length; i += 25) {
    await Promise.all(
      keysOf.slice(i, i + 25).map((key) =>
        store.doc
          .send(
            new UpdateCommand({
              TableName: store.tableName,
              Key: { PK: key.PK, SK: key.SK },
              UpdateExpression: 'SET #ttl = :ttl',
              // Never shorten, never resurrect a deleted item.
              ConditionExpression: 'attribute_exists(PK) AND (attribute_not_exists(#ttl) OR #ttl < :ttl)',
              ExpressionAttributeNames: { '#ttl': 'ttl' },
              ExpressionAttributeValues: { ':ttl': ttl },
            }),
          )
          .catch((error: unknown) => {
            if (!(error instanceof ConditionalCheckFailedException)) throw error;
          }),
      ),
    );
  }
  await store.doc
    .send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: sessionKeys.meta(sessionId),
        UpdateExpression: 'SET itemsExpireAt = :at',
        ConditionExpression: 'itemsExpireAt < :at',
        ExpressionAttributeValues: { ':at': itemsTtlAt },
      }),
    )
    .catch((error: unknown) => {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    });
  return true;
}

/** Removes every item of a session, META last: a crash midway leaves an expired session (still unreadable), never a headless log. */
export async function deletePartition(store: Store, sessionId: string): Promise<void> {
  const meta = sessionKeys.meta(sessionId);
  const keysOf = await partitionKeys(store, sessionId);
  await deleteAll(store, [...keysOf.filter((key) => key.SK !== meta.SK), ...keysOf.filter((key) => key.SK === meta.SK)]);
}

export const ACCESS_PATTERNS = /* @__PURE__ */ declareAccessPatterns(() => {
  const SESSION = param('sessionId');
  const ANY_ITEM = { PK: sessionKeys.partition(SESSION), SK: param('sortKey...') };
  return [
    {
      name: 'Create a session',
      entity: ENTITY.session,
      operation: 'PutItem',
      index: 'table',
      key: sessionKeys.meta(SESSION),
      usedBy: ['tn_session_start'],
      notes: 'Condition attribute_not_exists(PK). Every session item carries ttl (epoch seconds) for DynamoDB TTL; a signed-in owner\'s META also sits in GSI1 (owner index).',
    },
    {
      name: 'Read a session (owner, status, expiry, lastSeq)',
      entity: ENTITY.session,
      operation: 'GetItem',
      index: 'table',
      key: sessionKeys.meta(SESSION),
      usedBy: ['every session tool', 'tn_session_import (is the id taken?)'],
      notes: 'Consistent read; another owner or a past expiresAt answers NOT_FOUND.',
    },
    {
      name: "A user's sessions by last activity",
      entity: ENTITY.session,
      operation: 'Query',
      index: 'GSI1',
      key: { GSI1PK: sessionKeys.ownerIndex(param('userId')) },
      usedBy: ['session tools called without a sessionId'],
      notes: 'ScanIndexForward false, Limit 10. GSI1SK = lastActivityAt, moved by every append; the first active, unexpired session is the current one.',
    },
    {
      name: 'Pending drafts',
      entity: ENTITY.pendingDraft,
      operation: 'Query',
      index: 'table',
      key: { PK: sessionKeys.partition(SESSION), SK: beginsWith(sessionKeys.draftPrefix) },
      usedBy: ['tn_session_resume', 'tn_session_sync_status', 'tn_session_cancel_pending', 'tn_session_end'],
      notes: 'A draft item exists only while its draft is neither sent nor cancelled.',
    },
    {
      name: 'Every key of a session',
      entity: [ENTITY.session, ENTITY.sessionEvent, ENTITY.sessionRequest, ENTITY.pendingDraft, ENTITY.deviceCursor],
      operation: 'Query',
      index: 'table',
      key: { PK: sessionKeys.partition(SESSION) },
      usedBy: ['appends whose sliding expiry outran the items\' TTL', 'tn_session_import (clearing an expired session)'],
      notes: 'ProjectionExpression PK, SK; consistent read, page after page.',
    },
    {
      name: "Move a session's item TTLs forward",
      entity: [ENTITY.session, ENTITY.sessionEvent, ENTITY.sessionRequest, ENTITY.pendingDraft, ENTITY.deviceCursor],
      operation: 'UpdateItem',
      index: 'table',
      key: ANY_ITEM,
      usedBy: ['appends whose sliding expiry outran the items\' TTL'],
      notes: 'SET ttl, never shortening or resurrecting (attribute_exists(PK) AND ttl < :ttl), 25 at a time; then META\'s itemsExpireAt, only forward. At most once per half retention period of activity.',
    },
    {
      name: "Delete an expired session's items",
      entity: [ENTITY.session, ENTITY.sessionEvent, ENTITY.sessionRequest, ENTITY.pendingDraft, ENTITY.deviceCursor],
      operation: 'BatchWriteItem',
      index: 'table',
      key: ANY_ITEM,
      usedBy: ['tn_session_import (the id is held by an expired session TTL has not reclaimed yet)'],
      notes: 'DeleteRequests, 25 a batch, in order, META last: a crash midway leaves an expired session, never a headless log.',
    },
    {
      name: "Write an imported session's items",
      entity: [ENTITY.sessionEvent, ENTITY.sessionRequest, ENTITY.pendingDraft],
      operation: 'BatchWriteItem',
      index: 'table',
      keys: [
        { PK: sessionKeys.partition(SESSION), SK: `${sessionKeys.eventPrefix}${param('seq')}` },
        sessionKeys.request(SESSION, param('clientEventId')),
        sessionKeys.draft(SESSION, param('clientEventId')),
      ],
      usedBy: ['tn_session_import'],
      notes: 'Events, the idempotency records and pending drafts they imply; unprocessed items retried with backoff.',
    },
    {
      name: "Restore an imported session's META",
      entity: ENTITY.session,
      operation: 'PutItem',
      index: 'table',
      key: sessionKeys.meta(SESSION),
      usedBy: ['tn_session_import'],
      notes: 'Written after the items, conditioned on attribute_not_exists(PK) OR expiresAt <= :now: a live session is never overwritten, and a lost race takes the winner\'s result.',
    },
  ];
});
