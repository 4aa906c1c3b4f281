import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { beginsWith, declareAccessPatterns, param } from './access-patterns.js';
import type { Store } from './dynamo-client.js';
import { ENTITY, keys, userPk } from './keys.js';

export interface QuotaWindow {
  /** Stable id of this window, part of the counter's key. */
  key: string;
  /** Human label: `day`, `minute`, or `<n>ms`. */
  label: string;
  startsAt: Date;
  endsAt: Date;
}

/** Fixed windows aligned to the epoch (UTC days), so every instance agrees on the current window. */
export function quotaWindow(windowMs: number, now: Date): QuotaWindow {
  const start = Math.floor(now.getTime() / windowMs) * windowMs;
  const label = windowMs === 86_400_000 ? 'day' : windowMs === 60_000 ? 'minute' : windowMs === 3_600_000 ? 'hour' : `${windowMs}ms`;
  const key = label === 'day' ? new Date(start).toISOString().slice(0, 10) : `${windowMs}-${start}`;
  return { key, label, startsAt: new Date(start), endsAt: new Date(start + windowMs) };
}

export interface ConsumeResult {
  admitted: boolean;
  /** Count after the attempt (unchanged when refused). */
  current: number;
  max: number;
  window: QuotaWindow;
}

/**
 * The quota primitive: one counter item per user, kind and window, incremented with a conditional
 * update that fails at the limit. DynamoDB serialises writes to one item, so concurrent callers
 * (across any number of Lambdas) can never admit more than `max`.
 */
export async function consumeQuota(
  store: Store,
  args: { userId: string; kind: string; max: number; window: QuotaWindow; amount?: number },
): Promise<ConsumeResult> {
  const amount = args.amount ?? 1;
  try {
    const result = await store.doc.send(new UpdateCommand({ ...consumeUpdate(store, args), ReturnValues: 'UPDATED_NEW' }));
    return { admitted: true, current: Number(result.Attributes?.count ?? amount), max: args.max, window: args.window };
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return refusal(store, args);
    throw error;
  }
}

/**
 * The same conditional increment as a transaction item, so a write that must only happen when the
 * quota admits it (a tutor question) takes its unit in the same transaction. When the transaction
 * fails on this item, `refusal` tells the count that refused it.
 */
export function consumeQuotaItem(store: Store, args: { userId: string; kind: string; max: number; window: QuotaWindow; amount?: number }) {
  return { Update: consumeUpdate(store, args) };
}

export async function refusal(store: Store, args: { userId: string; kind: string; max: number; window: QuotaWindow }): Promise<ConsumeResult> {
  const current = await readCounter(store, args.userId, args.kind, args.window);
  return { admitted: false, current, max: args.max, window: args.window };
}

function consumeUpdate(store: Store, args: { userId: string; kind: string; max: number; window: QuotaWindow; amount?: number }) {
  const amount = args.amount ?? 1;
  return {
    TableName: store.tableName,
    Key: keys.quotaCounter(args.userId, args.kind, args.window.key),
    UpdateExpression: 'ADD #count :amount SET #entity = :entity, #kind = :kind, #windowLabel = :label, #windowEnd = :end, #ttl = :ttl',
    ConditionExpression: 'attribute_not_exists(#count) OR #count <= :ceiling',
    ExpressionAttributeNames: {
      '#count': 'count',
      '#entity': 'entity',
      '#kind': 'kind',
      '#windowLabel': 'windowLabel',
      '#windowEnd': 'windowEndsAt',
      '#ttl': 'ttl',
    },
    ExpressionAttributeValues: {
      ':amount': amount,
      ':ceiling': args.max - amount,
      ':entity': ENTITY.quotaCounter,
      ':kind': args.kind,
      ':label': args.window.label,
      ':end': args.window.endsAt.toISOString(),
      // Keep the counter a day past its window so a late reader still sees the final count.
      ':ttl': Math.ceil(args.window.endsAt.getTime() / 1000) + 86_400,
    },
  };
}

/** Gives back units taken by consumeQuota when the work they paid for did not happen. */
export async function releaseQuota(
  store: Store,
  args: { userId: string; kind: string; window: QuotaWindow; amount?: number },
): Promise<void> {
  try {
    await store.doc.send(new UpdateCommand(releaseQuotaItem(store, args).Update));
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
}

/** The same give-back as a transaction item, for a release that must happen together with another write. */
export function releaseQuotaItem(store: Store, args: { userId: string; kind: string; window: QuotaWindow; amount?: number }) {
  const amount = args.amount ?? 1;
  return {
    Update: {
      TableName: store.tableName,
      Key: keys.quotaCounter(args.userId, args.kind, args.window.key),
      UpdateExpression: 'ADD #count :negative',
      ConditionExpression: '#count >= :amount',
      ExpressionAttributeNames: { '#count': 'count' },
      ExpressionAttributeValues: { ':negative': -amount, ':amount': amount },
    },
  };
}

export async function readCounter(store: Store, userId: string, kind: string, window: QuotaWindow): Promise<number> {
  const counters = await listCounters(store, userId, `${kind}#${window.key}`);
  return counters[0]?.count ?? 0;
}

export interface CounterItem {
  kind: string;
  count: number;
  windowLabel: string;
  windowEndsAt: string;
}

/** All counters of a user (optionally narrowed by `<kind>#<windowKey>` prefix), in one Query. */
export async function listCounters(store: Store, userId: string, prefix = ''): Promise<CounterItem[]> {
  const result = await store.doc.send(
    new QueryCommand({
      TableName: store.tableName,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': userPk(userId), ':prefix': keys.quotaCounterPrefix(prefix) },
      ConsistentRead: true,
    }),
  );
  return (result.Items ?? []).map((item) => ({
    kind: String(item.kind),
    count: Number(item.count ?? 0),
    windowLabel: String(item.windowLabel),
    windowEndsAt: String(item.windowEndsAt),
  }));
}

export const ACCESS_PATTERNS = /* @__PURE__ */ declareAccessPatterns(() => {
  const COUNTER = keys.quotaCounter(param('userId'), param('kind'), param('windowKey'));
  return [
    {
      name: 'Consume units of a quota window',
      entity: ENTITY.quotaCounter,
      operation: 'UpdateItem',
      index: 'table',
      key: COUNTER,
      usedBy: ['rate-limited tools', 'tn_session_ask (prompts per day)'],
      notes: 'ADD count :amount on condition attribute_not_exists(count) OR count <= :max - :amount; fails at the limit. Anonymous callers share one owner. ttl = a day past the window.',
    },
    {
      name: 'Give back units of a quota window',
      entity: ENTITY.quotaCounter,
      operation: 'UpdateItem',
      index: 'table',
      key: COUNTER,
      usedBy: ['tn_session_ask (the prompt it paid for was not answered)'],
      notes: 'ADD count -:amount on condition count >= :amount.',
    },
    {
      name: 'Read quota counters of the current windows',
      entity: ENTITY.quotaCounter,
      operation: 'Query',
      index: 'table',
      key: { PK: userPk(param('userId')), SK: beginsWith(keys.quotaCounterPrefix()) },
      usedBy: ['tn_user_quota', 'rate-limited tools (the count when refused, narrowed to <kind>#<windowKey>)'],
      notes: 'Consistent read. Expired windows are filtered out in code and reclaimed by TTL.',
    },
  ];
});
