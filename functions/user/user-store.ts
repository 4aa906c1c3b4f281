import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beginsWith, declareAccessPatterns, param } from '../platform/store/access-patterns.js';
import type { Store } from '../platform/store/dynamo-client.js';
import { queryAll } from '../platform/store/query-all.js';
import { ENTITY, keys, userPk } from '../platform/store/keys.js';

// A user's partition: BYOK credentials, preferences and subscription (quota counters: shared/store/quota-counter.ts).

/** Every item of a user's partition in one read: what a tutor turn needs to know of its caller. */
export function readUserPartition(store: Store, userId: string): Promise<Record<string, unknown>[]> {
  return queryAll(store, { KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': userPk(userId) }, ConsistentRead: true });
}

/** Condition attribute_not_exists(PK): a ULID collision can never overwrite a key. */
export async function putCredential(store: Store, userId: string, credentialId: string, attributes: Record<string, unknown>): Promise<void> {
  await store.doc.send(
    new PutCommand({
      TableName: store.tableName,
      Item: { ...keys.byokCredential(userId, credentialId), entity: ENTITY.byokCredential, ...attributes },
      ConditionExpression: 'attribute_not_exists(PK)',
    }),
  );
}

export async function countCredentials(store: Store, userId: string): Promise<number> {
  const result = await store.doc.send(
    new QueryCommand({
      TableName: store.tableName,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': userPk(userId), ':prefix': keys.byokPrefix },
      Select: 'COUNT',
      ConsistentRead: true,
    }),
  );
  return result.Count ?? 0;
}

/** Up to `limit` credential items (sealed keys included) after `startKey`, oldest first. */
export async function queryCredentials(store: Store, args: { userId: string; limit: number; startKey?: Record<string, unknown> }): Promise<Record<string, unknown>[]> {
  const result = await store.doc.send(
    new QueryCommand({
      TableName: store.tableName,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': userPk(args.userId), ':prefix': keys.byokPrefix },
      Limit: args.limit,
      ExclusiveStartKey: args.startKey,
      ConsistentRead: true,
    }),
  );
  return result.Items ?? [];
}

export async function getCredentialItem(store: Store, userId: string, credentialId: string): Promise<Record<string, unknown> | undefined> {
  const result = await store.doc.send(
    new GetCommand({ TableName: store.tableName, Key: keys.byokCredential(userId, credentialId), ConsistentRead: true }),
  );
  return result.Item;
}

/**
 * Deletes the credential and, in the same transaction, clears it as the default credential when it
 * is one, so preferences never point at a key that no longer exists. False when there is no such credential.
 */
export async function deleteCredentialItem(store: Store, args: { userId: string; credentialId: string; now: Date }, attempt = 1): Promise<boolean> {
  const preferences = await getPreferencesItem(store, args.userId);
  const isDefault = preferences?.defaultCredentialId === args.credentialId;
  try {
    await store.doc.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Delete: {
              TableName: store.tableName,
              Key: keys.byokCredential(args.userId, args.credentialId),
              ConditionExpression: 'attribute_exists(PK)',
            },
          },
          ...(isDefault
            ? [
                {
                  Update: {
                    TableName: store.tableName,
                    Key: keys.preferences(args.userId),
                    UpdateExpression: 'SET #updatedAt = :now REMOVE #default',
                    ConditionExpression: '#default = :credentialId',
                    ExpressionAttributeNames: { '#default': 'defaultCredentialId', '#updatedAt': 'updatedAt' },
                    ExpressionAttributeValues: { ':credentialId': args.credentialId, ':now': args.now.toISOString() },
                  },
                },
              ]
            : []),
        ],
      }),
    );
    return true;
  } catch (error) {
    if (!(error instanceof TransactionCanceledException)) throw error;
    const [deleteReason, preferencesReason] = error.CancellationReasons ?? [];
    if (deleteReason?.Code === 'ConditionalCheckFailed') return false;
    // The default changed between our read and the write: decide again with fresh preferences.
    if (preferencesReason?.Code === 'ConditionalCheckFailed' && attempt < 3) return deleteCredentialItem(store, args, attempt + 1);
    throw error;
  }
}

export async function getPreferencesItem(store: Store, userId: string): Promise<Record<string, unknown> | undefined> {
  const result = await store.doc.send(new GetCommand({ TableName: store.tableName, Key: keys.preferences(userId), ConsistentRead: true }));
  return result.Item;
}

/** Partial merge in one UpdateItem: fields given are set (or removed when null), others untouched; the whole item comes back. */
export async function updatePreferencesItem(store: Store, userId: string, fields: Record<string, unknown>, now: Date): Promise<Record<string, unknown> | undefined> {
  const names: Record<string, string> = { '#entity': 'entity', '#updatedAt': 'updatedAt' };
  const values: Record<string, unknown> = { ':entity': ENTITY.preferences, ':updatedAt': now.toISOString() };
  const sets = ['#entity = :entity', '#updatedAt = :updatedAt'];
  const removes: string[] = [];
  for (const [field, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    names[`#${field}`] = field;
    if (value === null) {
      removes.push(`#${field}`);
    } else {
      values[`:${field}`] = value;
      sets.push(`#${field} = :${field}`);
    }
  }
  const result = await store.doc.send(
    new UpdateCommand({
      TableName: store.tableName,
      Key: keys.preferences(userId),
      UpdateExpression: `SET ${sets.join(', ')}${removes.length ? ` REMOVE ${removes.join(', ')}` : ''}`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
      ReturnValues: 'ALL_NEW',
    }),
  );
  return result.Attributes;
}

export async function getSubscriptionItem(store: Store, userId: string): Promise<Record<string, unknown> | undefined> {
  const result = await store.doc.send(new GetCommand({ TableName: store.tableName, Key: keys.subscription(userId) }));
  return result.Item;
}

export async function putSubscription(store: Store, userId: string, record: Record<string, unknown>): Promise<void> {
  await store.doc.send(new PutCommand({ TableName: store.tableName, Item: { ...keys.subscription(userId), entity: ENTITY.subscription, ...record } }));
}

export const ACCESS_PATTERNS = /* @__PURE__ */ declareAccessPatterns(() => {
  const USER = param('userId');
  const CREDENTIAL = keys.byokCredential(USER, param('credentialId'));
  return [
    {
      name: "A user's whole partition (credentials, preferences, subscription, counters)",
      entity: [ENTITY.byokCredential, ENTITY.preferences, ENTITY.subscription, ENTITY.quotaCounter],
      operation: 'Query',
      index: 'table',
      key: { PK: userPk(USER) },
      usedBy: ['tn_session_ask (its caller: sealed keys, preferences and plan in one read)'],
      notes: 'Consistent read. The partition stays small: at most the plan\'s credentials, two settings items, and counters that TTL removes a day after their window.',
    },
    {
      name: "A user's BYOK credentials",
      entity: ENTITY.byokCredential,
      operation: 'Query',
      index: 'table',
      key: { PK: userPk(USER), SK: beginsWith(keys.byokPrefix) },
      usedBy: ['tn_user_byok_list', 'tn_user_byok_add (Select COUNT)'],
      notes: 'Consistent read. A list page asks Limit + 1 (the extra tells hasMore) from ExclusiveStartKey carried in the signed cursor; add counts to enforce the per-user maximum.',
    },
    {
      name: 'Add a BYOK credential',
      entity: ENTITY.byokCredential,
      operation: 'PutItem',
      index: 'table',
      key: CREDENTIAL,
      usedBy: ['tn_user_byok_add'],
      notes: 'Condition attribute_not_exists(PK): a ULID collision can never overwrite a key. The key itself is sealed (envelope encryption); only its last four characters are readable.',
    },
    {
      name: 'Get a BYOK credential',
      entity: ENTITY.byokCredential,
      operation: 'GetItem',
      index: 'table',
      key: CREDENTIAL,
      usedBy: ['tn_user_preferences_set (the default credential must exist)'],
    },
    {
      name: 'Delete a BYOK credential (and clear it as default)',
      entity: [ENTITY.byokCredential, ENTITY.preferences],
      operation: 'TransactWriteItems',
      index: 'table',
      keys: [CREDENTIAL, keys.preferences(USER)],
      usedBy: ['tn_user_byok_delete'],
      notes: 'Delete conditioned on attribute_exists(PK): a second delete is NOT_FOUND. When the preferences (read first) name it as default, REMOVE defaultCredentialId on condition it still does; a lost race reads again (3 attempts).',
    },
    {
      name: 'Get preferences',
      entity: ENTITY.preferences,
      operation: 'GetItem',
      index: 'table',
      key: keys.preferences(USER),
      usedBy: ['tn_user_preferences_get', 'tn_session_start', 'tn_session_ask', 'tn_user_byok_delete (is it the default?)'],
      notes: 'Consistent read; absent fields take the defaults.',
    },
    {
      name: 'Merge preferences',
      entity: ENTITY.preferences,
      operation: 'UpdateItem',
      index: 'table',
      key: keys.preferences(USER),
      usedBy: ['tn_user_preferences_set'],
      notes: 'SET for given fields, REMOVE for null ones; fields not named are untouched. ReturnValues ALL_NEW.',
    },
    {
      name: 'Get subscription',
      entity: ENTITY.subscription,
      operation: 'GetItem',
      index: 'table',
      key: keys.subscription(USER),
      usedBy: ['tn_user_subscription', 'tn_user_quota', 'tn_user_byok_add (plan limit)', 'tn_session_ask (plan limit)'],
      notes: 'No item is the free plan.',
    },
    {
      name: 'Set subscription plan',
      entity: ENTITY.subscription,
      operation: 'PutItem',
      index: 'table',
      key: keys.subscription(USER),
      usedBy: ['tn plan set (operator CLI)'],
      notes: 'No tool lets a user change their own plan.',
    },
  ];
});
