import path from 'node:path';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { IngestionRun } from '../functions/ingest/ingest-source.js';
import { ingestorNamed, SAMPLE_CATALOG } from '../functions/ingest/sources.js';
import type { Store } from '../functions/shared/store/dynamo-client.js';
import { catalogKeys } from '../functions/shared/store/keys.js';

export const SAMPLE_DATA_DIR = path.resolve('data/sample');

/**
 * Loads the shipped sample catalog the first time a store is used, then never again: re-running it
 * later would retire whatever newer data was ingested since from the same sources.
 */
export async function loadSampleCatalogOnce(store: Store, dataDir = SAMPLE_DATA_DIR): Promise<IngestionRun[] | undefined> {
  const marker = await store.doc.send(new GetCommand({ TableName: store.tableName, Key: catalogKeys.sampleCatalogMarker, ConsistentRead: true }));
  if (marker.Item) return undefined;
  const runs: IngestionRun[] = [];
  for (const { source, file } of SAMPLE_CATALOG) {
    runs.push(await ingestorNamed(source)!.run(store, path.join(dataDir, file)));
  }
  const failed = runs.filter((run) => run.status === 'failed');
  if (failed.length === 0) {
    await store.doc.send(
      new PutCommand({ TableName: store.tableName, Item: { ...catalogKeys.sampleCatalogMarker, loadedAt: new Date().toISOString(), files: runs.length } }),
    );
  }
  return runs;
}
