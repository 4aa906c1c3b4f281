import path from 'node:path';
import { publishCatalogIndex } from '../functions/course/catalog-index.js';
import type { IngestionRun } from '../functions/ingest/ingest-source.js';
import { ingestorNamed, SAMPLE_CATALOG } from '../functions/ingest/sources.js';
import type { Store } from '../functions/shared/store/dynamo-client.js';
import { markSampleFileLoaded, sampleFileLoaded } from '../functions/course/catalog-store.js';

export const SAMPLE_DATA_DIR = path.resolve('data/sample');

/**
 * Loads each file of the shipped sample catalog the first time a store sees it, then never again:
 * re-running a file later would retire whatever newer data was ingested since from that source.
 * A release that ships new sample files loads just those.
 */
export async function loadSampleCatalogOnce(store: Store, dataDir = SAMPLE_DATA_DIR): Promise<IngestionRun[]> {
  const runs: IngestionRun[] = [];
  for (const { source, file } of SAMPLE_CATALOG) {
    if (await sampleFileLoaded(store, file)) continue;
    const run = await ingestorNamed(source)!.run(store, path.join(dataDir, file));
    runs.push(run);
    if (run.status !== 'failed') await markSampleFileLoaded(store, file, run);
  }
  // A cold start then loads the index instead of building it.
  if (runs.some((run) => run.catalogVersion !== undefined)) await publishCatalogIndex(store);
  return runs;
}
