/**
 * The single table, described once: the CDK stack and local table creation both read this,
 * so the deployed table and the local one cannot drift apart.
 *
 * Each index projects only what its queries read (ADR 0042): every item on an index is written to it
 * again, so ALL would store and write each catalog aggregate two or three times.
 */
export const TABLE_DEFINITION = {
  partitionKey: 'PK',
  sortKey: 'SK',
  /** Epoch seconds; DynamoDB TTL deletes items after this time. */
  timeToLiveAttribute: 'ttl',
  globalSecondaryIndexes: [
    {
      // Sparse listings: a user's sessions (what tn_session_list shows of each, and the status and expiry that
      // decide which is current: session-list-store.ts OWNER_INDEX_ATTRIBUTES), what an OAuth grant issued
      // (keys only), an institution's course fragments and an institution pair's rules (their body).
      indexName: 'GSI1',
      partitionKey: 'GSI1PK',
      sortKey: 'GSI1SK',
      nonKeyAttributes: ['status', 'sessionId', 'context', 'createdAt', 'expiresAt', 'itemsExpireAt', 'endedAt', 'lastSeq', 'preview', 'rows'],
    },
    {
      // What a source owns within a scope, with each item's hash of what the source listed: a re-run compares hashes.
      // Read whole, never ranged: no sort key (the base table's keys come with every entry).
      indexName: 'GSI2',
      partitionKey: 'GSI2PK',
      nonKeyAttributes: ['listedHash'],
    },
  ],
} as const;

export type IndexName = (typeof TABLE_DEFINITION.globalSecondaryIndexes)[number]['indexName'];

type IndexDefinition = { indexName: string; partitionKey: string; sortKey?: string; nonKeyAttributes: readonly string[] };
const INDEXES: readonly IndexDefinition[] = TABLE_DEFINITION.globalSecondaryIndexes;

/** The CreateTable input for DynamoDB Local (and any plain DynamoDB). All keys are strings. */
export function createTableInput(tableName: string) {
  const { partitionKey, sortKey } = TABLE_DEFINITION;
  const attributeNames = [partitionKey, sortKey, ...INDEXES.flatMap((g) => (g.sortKey ? [g.partitionKey, g.sortKey] : [g.partitionKey]))];
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST' as const,
    AttributeDefinitions: attributeNames.map((name) => ({ AttributeName: name, AttributeType: 'S' as const })),
    KeySchema: [
      { AttributeName: partitionKey, KeyType: 'HASH' as const },
      { AttributeName: sortKey, KeyType: 'RANGE' as const },
    ],
    GlobalSecondaryIndexes: INDEXES.map((g) => ({
      IndexName: g.indexName,
      KeySchema: [{ AttributeName: g.partitionKey, KeyType: 'HASH' as const }, ...(g.sortKey ? [{ AttributeName: g.sortKey, KeyType: 'RANGE' as const }] : [])],
      Projection: { ProjectionType: 'INCLUDE' as const, NonKeyAttributes: [...g.nonKeyAttributes] },
    })),
  };
}
