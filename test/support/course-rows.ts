import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { isPackItem, rowsOf } from '../../functions/catalog/ingestion/record-packs.js';
import type { Store } from '../../functions/platform/store/dynamo-client.js';
import { unrecorded } from './store/command-recorder.js';
import { catalogKeys } from '../../functions/platform/store/keys.js';

const partition = async (store: Store, pk: string) =>
  (await unrecorded(() => store.doc.send(new QueryCommand({ TableName: store.tableName, KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': pk } })))).Items ?? [];

/**
 * Everything stored about one course, whatever its status, read raw (no projection, no dedupe): the
 * items of its partition, and every row it has in a pack, its own partition's or its subject level's.
 */
export async function courseRowsStored(store: Store, institution: string, code: string) {
  const pk = catalogKeys.coursePartition(institution, code);
  const [items, subjectPacks] = await Promise.all([partition(store, pk), partition(store, catalogKeys.coursePackPartition(institution, code))]);
  const rows = [...items, ...subjectPacks].flatMap((item) => (isPackItem(item) ? rowsOf(item).filter((row) => row.PK === pk) : [item]));
  return { items, subjectPacks, rows };
}
