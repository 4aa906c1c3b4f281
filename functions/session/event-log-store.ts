import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { queryAll } from '../platform/store/query-all.js';
import { between, declareAccessPatterns, param } from '../platform/store/access-patterns.js';
import { ulid } from 'ulid';
import type { Store } from '../platform/store/dynamo-client.js';
import { ENTITY, keys, sessionKeys } from '../platform/store/keys.js';
import { epochSeconds, expiryAfter, itemsExpiryFor, previewFrom, SessionEventSchema, type EventType, type SessionEvent, type SessionRecord } from './session-model.js';
import { readSession, refreshItemExpiry, sessionFromItem } from './session-store.js';

export interface NewEvent {
  type: EventType;
  role: 'user' | 'assistant';
  content: string;
  deviceId: string | null;
  clientEventId: string | null;
  refersTo: string | null;
}

export type TransactItem = NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']>[number];

/** What one append writes, decided from the session as it is at that attempt. */
export interface AppendPlan {
  events: NewEvent[];
  /** Written in the same transaction; a failed condition on one of them aborts the append. */
  /** `ttlAt`: the TTL every item written with the events must carry. */
  items?: (appended: SessionEvent[], ttlAt: string) => TransactItem[];
  /** Extra META changes, e.g. status on end. */
  metaSet?: Record<string, unknown>;
}

/** A condition on one of the plan's own items failed: the caller decides what that means. */
export class AppendConditionFailed extends Error {
  constructor(readonly itemIndex: number) {
    super(`append condition failed on item ${itemIndex}`);
  }
}

const MAX_ATTEMPTS = 40;

/** A session's first student message names it in lists: set once, by the append that writes it. */
function previewSet(session: SessionRecord, events: SessionEvent[]): { preview?: string } {
  if (session.preview) return {};
  const preview = previewFrom(events);
  return preview ? { preview } : {};
}

/**
 * Appends events with the next seqs, gap-free under any concurrency: the META update is conditioned on
 * the lastSeq we read, and the event puts and META update commit in one transaction, so either every
 * seq we took is written or none is. A lost race re-reads META and plans again (the plan sees the new
 * state, e.g. a session ended meanwhile).
 */
export async function appendEvents(
  store: Store,
  args: {
    sessionId: string;
    now: () => Date;
    retentionDays: number;
    plan: (session: SessionRecord) => AppendPlan;
    /** The session as the caller just read it: the first attempt's guess, saving a read; a stale one only costs a retry. */
    initial?: SessionRecord;
  },
): Promise<{ session: SessionRecord; events: SessionEvent[] }> {
  for (let attempt = 1; ; attempt++) {
    const session = attempt === 1 && args.initial ? args.initial : await readSession(store, args.sessionId);
    const plan = args.plan(session);
    if (!plan.events.length && !plan.metaSet) return { session, events: [] };
    const now = args.now();
    const expiresAt = new Date(Math.max(expiryAfter(now, args.retentionDays).getTime(), Date.parse(session.expiresAt))).toISOString();
    // New items outlive the new expiry; older ones are moved after the commit when it outran them.
    const itemsTtlAt = Date.parse(expiresAt) > Date.parse(session.itemsExpireAt) ? itemsExpiryFor(expiresAt, args.retentionDays) : session.itemsExpireAt;
    const events: SessionEvent[] = plan.events.map((event, index) => ({
      eventId: ulid(now.getTime()),
      seq: session.lastSeq + index + 1,
      createdAt: now.toISOString(),
      ...event,
    }));
    const lastSeq = session.lastSeq + events.length;
    const metaSet: Record<string, unknown> = {
      lastSeq,
      lastActivityAt: now.toISOString(),
      expiresAt,
      ttl: epochSeconds(itemsTtlAt),
      // The owner index orders by last activity.
      ...(session.ownerId ? { GSI1SK: now.toISOString() } : {}),
      ...previewSet(session, events),
      ...plan.metaSet,
    };
    const names = Object.fromEntries(Object.keys(metaSet).map((key, i) => [`#m${i}`, key]));
    const values = Object.fromEntries(Object.values(metaSet).map((value, i) => [`:m${i}`, value]));
    const extraItems = plan.items?.(events, itemsTtlAt) ?? [];
    try {
      await store.doc.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: store.tableName,
                Key: sessionKeys.meta(args.sessionId),
                UpdateExpression: `SET ${Object.keys(names).map((name, i) => `${name} = :m${i}`).join(', ')}`,
                ConditionExpression: '#lastSeq = :expected',
                ExpressionAttributeNames: { ...names, '#lastSeq': 'lastSeq' },
                ExpressionAttributeValues: { ...values, ':expected': session.lastSeq },
              },
            },
            ...events.map((event) => ({
              Put: {
                TableName: store.tableName,
                Item: { ...sessionKeys.event(args.sessionId, event.seq), entity: ENTITY.sessionEvent, ...event, ttl: epochSeconds(itemsTtlAt) },
                ConditionExpression: 'attribute_not_exists(PK)',
              },
            })),
            ...extraItems,
          ],
        }),
      );
      const appended: SessionRecord = { ...session, ...previewSet(session, events), ...(plan.metaSet as Partial<SessionRecord>), lastSeq, lastActivityAt: now.toISOString(), expiresAt };
      if (itemsTtlAt !== session.itemsExpireAt) {
        // Best effort: until it succeeds META keeps the old itemsExpireAt, which bounds when the session
        // stays readable, and the next append tries again.
        appended.itemsExpireAt = (await refreshItemExpiry(store, args.sessionId, itemsTtlAt).catch(() => false)) ? itemsTtlAt : session.itemsExpireAt;
      }
      return { session: appended, events };
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
      const reasons = error.CancellationReasons ?? [];
      const firstExtra = 1 + events.length;
      const metaHeld = reasons[0]?.Code === 'None';
      if (metaHeld && reasons.slice(1, firstExtra).some((reason) => reason.Code === 'ConditionalCheckFailed')) {
        // lastSeq matched but an event with the next seq already exists: the log is inconsistent, retrying cannot help.
        throw new Error(`session ${args.sessionId} has events beyond lastSeq ${session.lastSeq}`);
      }
      const failedExtra = reasons.findIndex((reason, index) => index >= firstExtra && reason.Code === 'ConditionalCheckFailed');
      if (failedExtra >= 0) throw new AppendConditionFailed(failedExtra - firstExtra);
      if (attempt >= MAX_ATTEMPTS) throw error;
      // Another writer took the seq (or the transaction collided): back off with jitter and plan again.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(200, 5 * attempt)));
    }
  }
}

function toEvent(item: Record<string, unknown>): SessionEvent {
  return SessionEventSchema.parse({
    eventId: item.eventId,
    seq: item.seq,
    type: item.type,
    createdAt: item.createdAt,
    role: item.role,
    content: item.content,
    deviceId: item.deviceId ?? null,
    clientEventId: item.clientEventId ?? null,
    refersTo: item.refersTo ?? null,
  });
}

const MAX_SEQ = 9_999_999_999;

/**
 * Events with seq in (afterSeq, afterSeq + limit], ascending; one extra read tells whether more exist.
 * Follows DynamoDB's 1 MB pages, so long messages never cut a page short.
 */
export async function readEventsAfter(store: Store, sessionId: string, afterSeq: number, limit: number): Promise<{ events: SessionEvent[]; hasMore: boolean }> {
  if (afterSeq >= MAX_SEQ) return { events: [], hasMore: false };
  const items = await queryAll(store, {
    KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
    ExpressionAttributeValues: {
      ':pk': sessionKeys.partition(sessionId),
      ':from': sessionKeys.eventSk(afterSeq + 1),
      ':to': sessionKeys.eventSk(Math.min(afterSeq + limit + 1, MAX_SEQ)),
    },
    ConsistentRead: true,
  });
  const events = items.map(toEvent);
  return { events: events.slice(0, limit), hasMore: events.length > limit };
}

/** The latest `limit` events, ascending. */
export async function readLatestEvents(store: Store, sessionId: string, limit: number, lastSeq: number): Promise<SessionEvent[]> {
  return (await readEventsAfter(store, sessionId, Math.max(0, lastSeq - limit), limit)).events;
}

/** Every event, ascending, paging through DynamoDB's 1 MB pages. */
export async function readAllEvents(store: Store, sessionId: string): Promise<SessionEvent[]> {
  const all: SessionEvent[] = [];
  let after = 0;
  for (;;) {
    const page = await readEventsAfter(store, sessionId, after, 500);
    all.push(...page.events);
    if (!page.hasMore) return all;
    after = page.events.at(-1)!.seq;
  }
}

/**
 * META and the latest events in one Query: META sorts right after the last event, so the key range
 * from the first event to META, read backwards, starts with META. A 1 MB page may hold fewer events
 * than asked for; callers check which seqs they got.
 */
export async function readSessionAndLatestEvents(store: Store, sessionId: string, limit: number): Promise<{ session: SessionRecord; events: SessionEvent[] }> {
  const result = await store.doc.send(
    new QueryCommand({
      TableName: store.tableName,
      KeyConditionExpression: 'PK = :pk AND SK BETWEEN :first AND :meta',
      ExpressionAttributeValues: { ':pk': sessionKeys.partition(sessionId), ':first': sessionKeys.eventSk(1), ':meta': sessionKeys.meta(sessionId).SK },
      ScanIndexForward: false,
      Limit: limit + 1,
      ConsistentRead: true,
    }),
  );
  const [first, ...rest] = result.Items ?? [];
  const session = sessionFromItem(first?.SK === sessionKeys.meta(sessionId).SK ? first : undefined, sessionId);
  return { session, events: rest.map(toEvent).reverse() };
}

export async function readEvent(store: Store, sessionId: string, seq: number): Promise<SessionEvent | undefined> {
  const result = await store.doc.send(new GetCommand({ TableName: store.tableName, Key: sessionKeys.event(sessionId, seq), ConsistentRead: true }));
  return result.Item ? toEvent(result.Item) : undefined;
}

export const ACCESS_PATTERNS = /* @__PURE__ */ declareAccessPatterns(() => {
  const SESSION = param('sessionId');
  const EVENT = { PK: sessionKeys.partition(SESSION), SK: `${sessionKeys.eventPrefix}${param('seq')}` };
  return [
    {
      name: 'Append events with the next seqs',
      entity: [ENTITY.session, ENTITY.sessionEvent, ENTITY.sessionRequest, ENTITY.pendingDraft],
      operation: 'TransactWriteItems',
      index: 'table',
      keys: [
        sessionKeys.meta(SESSION),
        EVENT,
        sessionKeys.request(SESSION, param('clientEventId')),
        sessionKeys.draft(SESSION, param('clientEventId')),
        keys.quotaCounter(param('userId'), param('kind'), param('windowKey')),
      ],
      usedBy: ['tn_session_ask', 'tn_session_end', 'tn_session_cancel_pending'],
      notes:
        'META updated on condition lastSeq = :read, each event put on attribute_not_exists(PK) (seq zero-padded to 10 digits), with the plan\'s idempotency-record and draft puts, updates and deletes; a new question also takes its prompt of the day\'s quota (conditional ADD on the counter). Gap-free seqs: the META condition loses the race for all but one writer, who commits its events; the others re-read and retry.',
    },
    {
      name: 'Events by seq range',
      entity: ENTITY.sessionEvent,
      operation: 'Query',
      index: 'table',
      key: { PK: sessionKeys.partition(SESSION), SK: between(`${sessionKeys.eventPrefix}${param('from')}`, `${sessionKeys.eventPrefix}${param('to')}`) },
      usedBy: ['tn_session_history', 'tn_session_sync_status', 'tn_session_resume (latest events)', 'tn_session_export', 'tn_session_import (is it the same log?)', 'tn_session_ask (prompt history)'],
      notes: 'Consistent read; one event past the range tells whether more exist. Follows 1 MB pages, so long messages never cut a page short.',
    },
    {
      name: 'A session and its latest events',
      entity: [ENTITY.session, ENTITY.sessionEvent],
      operation: 'Query',
      index: 'table',
      key: { PK: sessionKeys.partition(SESSION), SK: between(sessionKeys.eventSk(1), sessionKeys.meta(SESSION).SK) },
      usedBy: ['tn_session_ask (the session and the prompt history in one read)'],
      notes: 'Consistent read, ScanIndexForward false, Limit = events + 1: META comes first, then the events newest first.',
    },
    {
      name: 'One event by seq',
      entity: ENTITY.sessionEvent,
      operation: 'GetItem',
      index: 'table',
      key: EVENT,
      usedBy: ['tn_session_ask (a retried ask: its question, or the answer already given)'],
    },
  ];
});
