import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { rowsOf } from '../../functions/catalog/ingestion/aggregates.js';
import type { Store } from '../../functions/platform/store/dynamo-client.js';
import { unrecorded } from './store/command-recorder.js';
import { catalogKeys } from '../../functions/platform/store/keys.js';

/** Everything stored about one course, whatever its status, read raw: the items of its partition and every row they hold. */
export async function courseRowsStored(store: Store, institution: string, code: string) {
  const result = await unrecorded(() =>
    store.doc.send(new QueryCommand({ TableName: store.tableName, KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': catalogKeys.coursePartition(institution, code) } })),
  );
  const items = result.Items ?? [];
  return { items, rows: items.flatMap((item) => rowsOf(item).map((row) => ({ ...row, SK: String(item.SK) }))) };
}
