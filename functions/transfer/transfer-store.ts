import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beginsWith, declareAccessPatterns, param } from '../platform/store/access-patterns.js';
import { storedRows } from '../catalog/ingestion/record-packs.js';
import { getAll } from '../platform/store/batch-reads.js';
import { unpackBodies } from '../platform/store/packed-value.js';
import type { Store } from '../platform/store/dynamo-client.js';
import { catalogKeys, ENTITY } from '../platform/store/keys.js';
import { queryAll } from '../platform/store/query-all.js';
import type { TransferRule } from './rule-model.js';

/** Round trips made by one call, for the benchmark and for `_meta`. */
export class RoundTrips {
  count = 0;
}

/** The pair's rules for the given codes from their course listings: a Query per code, then the rules by id. */
export async function listedRules(store: Store, sender: string, receiver: string, codes: string[], trips: RoundTrips): Promise<TransferRule[]> {
  const listed = await Promise.all(codes.map((code) => outgoingRuleIds(store, sender, code, trips, receiver)));
  return getRules(store, listed.flat().map((entry) => entry.ruleId), trips);
}

/** Full active rules by id (BatchGetItem, 100 keys a request, in parallel). */
export async function getRules(store: Store, ruleIds: string[], trips: RoundTrips): Promise<TransferRule[]> {
  const items = await getAll(store, [...new Set(ruleIds)].map((id) => catalogKeys.transferRule(id)), () => trips.count++);
  return items.filter((item) => item.status === 'active').map(ruleOf);
}

/** A stored rule item's rule, packed or not. */
export const ruleOf = (item: Record<string, unknown>): TransferRule => unpackBodies(item).rule as TransferRule;

export async function getRule(store: Store, ruleId: string): Promise<{ rule: TransferRule; status: string } | undefined> {
  const result = await store.doc.send(new GetCommand({ TableName: store.tableName, Key: catalogKeys.transferRule(ruleId) }));
  return result.Item ? { rule: ruleOf(result.Item), status: String(result.Item.status) } : undefined;
}

export interface PairPage {
  rules: TransferRule[];
  lastKey?: Record<string, unknown>;
}

/** A page of an institution pair's rules, optionally narrowed to a subject or a course (GSI1 prefix). */
export async function pairRules(
  store: Store,
  args: { sender: string; receiver: string; prefix?: string; limit: number; startKey?: Record<string, unknown> },
): Promise<PairPage> {
  const result = await store.doc.send(
    new QueryCommand({
      TableName: store.tableName,
      IndexName: 'GSI1',
      KeyConditionExpression: args.prefix ? 'GSI1PK = :pk AND begins_with(GSI1SK, :prefix)' : 'GSI1PK = :pk',
      FilterExpression: '#status = :active',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':pk': catalogKeys.transferPair(args.sender, args.receiver), ':active': 'active', ...(args.prefix ? { ':prefix': args.prefix } : {}) },
      Limit: args.limit,
      ExclusiveStartKey: args.startKey,
    }),
  );
  return { rules: (result.Items ?? []).map(ruleOf), ...(result.LastEvaluatedKey ? { lastKey: result.LastEvaluatedKey } : {}) };
}

/** Every rule of a pair for one sending course code (history of a course's rules). */
export async function pairRulesForCourse(store: Store, sender: string, receiver: string, code: string): Promise<TransferRule[]> {
  const items = await queryAll(store, {
    IndexName: 'GSI1',
    KeyConditionExpression: 'GSI1PK = :pk AND begins_with(GSI1SK, :prefix)',
    ExpressionAttributeValues: { ':pk': catalogKeys.transferPair(sender, receiver), ':prefix': catalogKeys.pairCoursePrefix(code) },
  });
  return items.map(ruleOf);
}

/** The active rules listed under one sending course, towards one receiver or every receiver. */
export async function outgoingRuleIds(store: Store, sender: string, code: string, trips: RoundTrips, receiver?: string): Promise<{ receiver: string; ruleId: string }[]> {
  trips.count++;
  // Listings live in the course's pack (or, stored before packs, as items of their own): one Query reads both.
  const items = await queryAll(store, {
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
    ExpressionAttributeValues: { ':pk': catalogKeys.coursePartition(sender, code), ':prefix': catalogKeys.courseTransferPrefix('outgoing') },
  });
  const towards = receiver === undefined ? undefined : catalogKeys.courseTransferPrefix('outgoing', receiver);
  return items
    .flatMap(storedRows)
    .filter((row) => row.status === 'active' && (!towards || String(row.SK).startsWith(towards)))
    .map((row) => ({ receiver: String((row.equivalence as { otherInstitution: string }).otherInstitution), ruleId: String(row.ruleId) }));
}

export interface AwardingPage {
  ruleIds: string[];
  lastKey?: Record<string, unknown>;
}

/** A page of the active rules that award one receiving course, from one sender or any (reverse lookup). */
export async function rulesAwarding(
  store: Store,
  args: { receiver: string; code: string; sender?: string; limit: number; startKey?: Record<string, unknown> },
): Promise<AwardingPage> {
  const result = await store.doc.send(
    new QueryCommand({
      TableName: store.tableName,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      FilterExpression: '#status = :active',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':pk': catalogKeys.coursePartition(args.receiver, args.code),
        ':prefix': catalogKeys.courseTransferPrefix('incoming', args.sender),
        ':active': 'active',
      },
      Limit: args.limit,
      ExclusiveStartKey: args.startKey,
    }),
  );
  return { ruleIds: (result.Items ?? []).map((item) => String(item.ruleId)), ...(result.LastEvaluatedKey ? { lastKey: result.LastEvaluatedKey } : {}) };
}

export const ACCESS_PATTERNS = /* @__PURE__ */ declareAccessPatterns(() => {
  const SENDER = param('sender');
  const RECEIVER = param('receiver');
  const RULE = catalogKeys.transferRule(param('ruleId'));
  const PAIR = catalogKeys.transferPair(SENDER, RECEIVER);
  return [
    {
      name: 'Transfer rules by id, in bulk',
      entity: ENTITY.transferRule,
      operation: 'BatchGetItem',
      index: 'table',
      key: RULE,
      usedBy: ['tn_transfer_resolve (a pair not indexed yet)', 'tn_transfer_compare', 'tn_transfer_search with targetCourse'],
      notes: 'Up to 100 keys a request, requests in parallel; unprocessed keys retried with backoff. Retired rules are filtered in code.',
    },
    {
      name: 'A transfer rule by id',
      entity: ENTITY.transferRule,
      operation: 'GetItem',
      index: 'table',
      key: RULE,
      usedBy: ['tn_transfer_details'],
    },
    {
      name: 'Rules of an institution pair',
      entity: ENTITY.transferRule,
      operation: 'Query',
      index: 'GSI1',
      keys: [
        { GSI1PK: PAIR },
        { GSI1PK: PAIR, GSI1SK: beginsWith(catalogKeys.pairCoursePrefix(param('code'))) },
        { GSI1PK: PAIR, GSI1SK: beginsWith(catalogKeys.pairSubjectPrefix(param('subject'))) },
      ],
      usedBy: ['tn_transfer_search (a page; narrowed to a course or subject)', 'tn_transfer_resolve (near misses of a pair not indexed yet)', 'tn_transfer_details (history)'],
      notes: `\`GSI1SK = ${catalogKeys.pairRule(SENDER, RECEIVER, param('firstCode'), param('effectiveStart'), param('ruleId')).GSI1SK}\`. Search pages with Limit and LastEvaluatedKey as the cursor, FilterExpression status = active.`,
    },
    {
      name: 'Rules listed under one sending course, towards one receiver or every receiver',
      entity: [ENTITY.transferListing, ENTITY.catalogPack],
      operation: 'Query',
      index: 'table',
      key: { PK: catalogKeys.coursePartition(SENDER, param('code')), SK: beginsWith(catalogKeys.courseTransferPrefix('outgoing')) },
      usedBy: ['tn_transfer_resolve (a pair not indexed yet; one per given course, in parallel)', 'tn_transfer_compare (every receiver)'],
      notes: `The course's listings towards every receiver are rows of one pack (\`${catalogKeys.outgoingListingPack('<source>')}\`, owned per sender, each row per pair); listings stored before packs are items of their own under the same prefix. Rows narrowed to one receiver in code. Rule ids only (status active); the rules follow in one BatchGetItem per 100 ids.`,
    },
    {
      name: 'Rules awarding one receiving course (reverse lookup)',
      entity: ENTITY.transferListing,
      operation: 'Query',
      index: 'table',
      key: { PK: catalogKeys.coursePartition(RECEIVER, param('code')), SK: beginsWith(catalogKeys.courseTransferPrefix('incoming')) },
      usedBy: ['tn_transfer_search with targetCourse'],
      notes: 'begins_with narrows to one sender when given. A page of rule ids (Limit, LastEvaluatedKey as the cursor), then one BatchGetItem.',
    },
  ];
});
