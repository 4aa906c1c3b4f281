import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Store } from './dynamo-client.js';

/** Every item of a Query, following LastEvaluatedKey: for partitions we read whole (a course, a source's scope). */
export async function queryAll(store: Store, input: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey'>): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await store.doc.send(new QueryCommand({ ...input, TableName: store.tableName, ExclusiveStartKey: startKey }));
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return items;
}
