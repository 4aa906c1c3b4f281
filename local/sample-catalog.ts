import path from 'node:path';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { IngestionRun } from '../functions/ingest/ingest-source.js';
import { ingestorNamed, SAMPLE_CATALOG } from '../functions/ingest/sources.js';
import type { Store } from '../functions/shared/store/dynamo-client.js';
import { catalogKeys } from '../functions/shared/store/keys.js';

export const SAMPLE_DATA_DIR = path.resolve('data/sample');

/**
 * Loads each file of the shipped sample catalog the first time a store sees it, then never again:
 * re-running a file later would retire whatever newer data was ingested since from that source.
 * A release that ships new sample files loads just those.
 */
export async function loadSampleCatalogOnce(store: Store, dataDir = SAMPLE_DATA_DIR): Promise<IngestionRun[]> {
  const runs: IngestionRun[] = [];
  for (const { source, file } of SAMPLE_CATALOG) {
    const marker = catalogKeys.sampleCatalogMarker(file);
    const loaded = await store.doc.send(new GetCommand({ TableName: store.tableName, Key: marker, ConsistentRead: true }));
    if (loaded.Item) continue;
    const run = await ingestorNamed(source)!.run(store, path.join(dataDir, file));
    runs.push(run);
    if (run.status !== 'failed') {
      await store.doc.send(new PutCommand({ TableName: store.tableName, Item: { ...marker, loadedAt: run.finishedAt, runId: run.runId } }));
    }
  }
  return runs;
}
