import { paginateQuery, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Store } from './dynamo-client.js';

/** Every item of a Query, page after page (the SDK's paginator): for partitions we read whole (a course, a source's scope, a grant). */
export async function queryAll(store: Store, input: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey'>): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  for await (const page of paginateQuery({ client: store.doc }, { ...input, TableName: store.tableName })) items.push(...(page.Items ?? []));
  return items;
}
