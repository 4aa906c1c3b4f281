import path from 'node:path';
import { loadedSampleFiles, markSampleFileLoaded } from '../catalog/catalog-store.js';
import { isUrlOrigin } from '../catalog/ingestion/source-loader.js';
import type { Store } from '../platform/store/dynamo-client.js';
import type { IngestionRun } from './ingest-source.js';
import { ingestorNamed } from './sources.js';

/** One origin a scheduled function ingests, and the source that reads it. */
export interface ScheduledOrigin {
  source: string;
  origin: string;
}

/** Where the sample is bundled; a file below it is named as `npm start` names it (`bctransferguide/…`). */
const SAMPLE_DIR = 'data/sample/';

/**
 * TN_INGEST_ORIGINS: a JSON list of origins of the function's own source, or `{source, origin}` for
 * another source's files the function loads first (the SFU crawl loads the sections sample before it
 * crawls, so the sample never lands on top of what the crawl wrote).
 */
export function parseOrigins(raw: string | undefined, source: string): ScheduledOrigin[] {
  const value = JSON.parse(raw ?? '[]') as unknown;
  if (!Array.isArray(value)) throw new Error('TN_INGEST_ORIGINS must be a JSON list');
  return value.map((entry) => {
    if (typeof entry === 'string') return { source, origin: entry };
    const { source: other, origin } = (entry ?? {}) as Partial<ScheduledOrigin>;
    if (typeof other !== 'string' || typeof origin !== 'string' || !ingestorNamed(other)) throw new Error(`TN_INGEST_ORIGINS: not an origin: ${JSON.stringify(entry)}`);
    return { source: other, origin };
  });
}

/**
 * URLs every run (conditional GET keeps an unchanged one cheap); bundled files once per table, like the
 * local first start: run again daily they would retire whatever a crawl or an operator ingested since.
 */
export async function loadOrigins(store: Store, origins: ScheduledOrigin[], root: string, onRun: (run: IngestionRun) => void = () => undefined): Promise<IngestionRun[]> {
  const bundled = origins.some(({ origin }) => !isUrlOrigin(origin));
  const loaded = bundled ? await loadedSampleFiles(store) : new Set<string>();
  const runs: IngestionRun[] = [];
  for (const { source, origin } of origins) {
    const ingestor = ingestorNamed(source)!;
    if (isUrlOrigin(origin)) {
      const run = await ingestor.run(store, origin);
      onRun(run);
      runs.push(run);
      continue;
    }
    const file = origin.startsWith(SAMPLE_DIR) ? origin.slice(SAMPLE_DIR.length) : origin;
    if (loaded.has(file)) continue;
    const run = await ingestor.run(store, path.join(root, origin));
    onRun(run);
    runs.push(run);
    if (run.status !== 'failed') await markSampleFileLoaded(store, file, run);
  }
  return runs;
}
