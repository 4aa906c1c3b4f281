import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { activeRowsOf, rowsOf } from '../catalog/ingestion/aggregates.js';
import { beginsWith, declareAccessPatterns, param } from '../platform/store/access-patterns.js';
import type { Store } from '../platform/store/dynamo-client.js';
import { catalogKeys, ENTITY } from '../platform/store/keys.js';
import { queryAll } from '../platform/store/query-all.js';
import type { TransferRule } from './rule-model.js';

/** Round trips made by one call, for the benchmark and for `_meta`. */
export class RoundTrips {
  count = 0;
}

/** A stored rule item's rule (its one row), or an index entry's projecting the rows. */
export const ruleOf = (item: Record<string, unknown>): TransferRule => rowsOf(item)[0]!.rule as TransferRule;

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

/**
 * A page of the active rules that can award one receiving course, from one sender or any (reverse
 * lookup): the course's own incoming items (one per sender, each holding its rules), in one Query,
 * ordered by sender and rule id; the page continues after `after`.
 */
export async function rulesAwarding(store: Store, args: { receiver: string; code: string; sender?: string; limit: number; after?: string }): Promise<{ rules: TransferRule[]; last?: string }> {
  const items = await queryAll(store, {
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
    ExpressionAttributeValues: { ':pk': catalogKeys.coursePartition(args.receiver, args.code), ':prefix': catalogKeys.transfersInPrefix(args.sender) },
  });
  const order = (rule: TransferRule) => `${rule.senderInstitution}#${rule.ruleId}`;
  const rules = items
    .flatMap(activeRowsOf)
    .map((row) => row.rule as TransferRule)
    .filter((rule) => args.after === undefined || order(rule) > args.after)
    .sort((a, b) => (order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0));
  const page = rules.slice(0, args.limit);
  return { rules: page, ...(rules.length > args.limit ? { last: order(page.at(-1)!) } : {}) };
}

export const ACCESS_PATTERNS = /* @__PURE__ */ declareAccessPatterns(() => {
  const PAIR = catalogKeys.transferPair(param('sender'), param('receiver'));
  return [
    {
      name: 'A transfer rule by id',
      entity: ENTITY.transferRule,
      operation: 'GetItem',
      index: 'table',
      key: catalogKeys.transferRule(param('ruleId')),
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
      usedBy: ['tn_transfer_search (a page; narrowed to a course or subject)', 'tn_transfer_details (history)'],
      notes: `\`GSI1SK = ${catalogKeys.pairRule(param('sender'), param('receiver'), param('firstCode'), param('effectiveStart'), param('ruleId')).GSI1SK}\`, projecting the rule (rows) and status. Search pages with Limit and LastEvaluatedKey as the cursor, FilterExpression status = active.`,
    },
    {
      name: 'Rules that can award one receiving course (reverse lookup)',
      entity: ENTITY.courseTransfers,
      operation: 'Query',
      index: 'table',
      keys: [
        { PK: catalogKeys.coursePartition(param('receiver'), param('code')), SK: beginsWith(catalogKeys.transfersInPrefix()) },
        { PK: catalogKeys.coursePartition(param('receiver'), param('code')), SK: beginsWith(catalogKeys.transfersInPrefix(param('sender'))) },
      ],
      usedBy: ['tn_transfer_search with targetCourse'],
      notes: "The course's own adjacency items: one per sender, holding that sender's rules that can award the course in any form (history included, filtered in code). Paged in code by sender and rule id.",
    },
  ];
});
