import { stat } from 'node:fs/promises';
import path from 'node:path';
import { publishCatalogIndex } from '../functions/catalog/catalog-index.js';
import type { IngestionRun } from '../functions/ingest/ingest-source.js';
import { ingestorNamed, sampleFiles, type SampleSet } from '../functions/ingest/sources.js';
import type { Store } from '../functions/platform/store/dynamo-client.js';
import { loadedSampleFiles, markSampleFileLoaded } from '../functions/catalog/catalog-store.js';

export const SAMPLE_DATA_DIR = path.resolve('data/sample');

/** What the loader reports as it goes: bytes are the weight of the files (the work is roughly proportional). */
export interface SampleProgress {
  file: string;
  source: string;
  /** 'skipped': loaded before (marker present); 'loading': about to run; 'loaded': run finished. */
  phase: 'skipped' | 'loading' | 'loaded';
  index: number;
  total: number;
  /** Files loaded or skipped so far (files load two at a time, so not always index + 1). */
  filesDone: number;
  bytesDone: number;
  bytesTotal: number;
  run?: IngestionRun;
}

export interface SampleLoadOptions {
  dataDir?: string;
  set?: SampleSet;
  onProgress?: (progress: SampleProgress) => void;
  /** Stops between files (a file being loaded finishes: its run record and marker stay consistent). */
  signal?: AbortSignal;
  /**
   * Whether the load ends by storing the new catalog version's search index (default). A staged first
   * load leaves it to the server, which builds it behind its banner (see startLocalServer).
   */
  publishIndex?: boolean;
}

/** Two files at a time: one is parsed and hashed (Node) while the other is written (DynamoDB Local). */
const FILES_AT_ONCE = 2;

/**
 * Loads each file of the shipped sample catalog the first time a store sees it, then never again:
 * re-running a file later would retire whatever newer data was ingested since from that source.
 * A release that ships new sample files loads just those. Files of different sources load side by
 * side; files of one source load one after another, in order (a later snapshot after an earlier one;
 * runs of a source never overlap).
 */
export async function loadSampleCatalogOnce(store: Store, options: SampleLoadOptions | string = {}): Promise<IngestionRun[]> {
  const { dataDir = SAMPLE_DATA_DIR, set = 'full', onProgress, signal, publishIndex = true } = typeof options === 'string' ? { dataDir: options } : options;
  const files = sampleFiles(set);
  const sizes = await Promise.all(files.map(async ({ file }) => (await stat(path.join(dataDir, file)).catch(() => undefined))?.size ?? 0));
  const bytesTotal = sizes.reduce((sum, size) => sum + size, 0);
  let bytesDone = 0;
  let filesDone = 0;
  const runs: IngestionRun[] = [];
  const loaded = await loadedSampleFiles(store);
  const pending = [...files.entries()].filter(([index, { file, source }]) => {
    if (!loaded.has(file)) return true;
    bytesDone += sizes[index]!;
    onProgress?.({ file, source, index, total: files.length, filesDone: ++filesDone, bytesTotal, phase: 'skipped', bytesDone });
    return false;
  });
  const busySources = new Set<string>();
  const loadNext = async (): Promise<void> => {
    for (;;) {
      if (signal?.aborted) return;
      const at = pending.findIndex(([, { source }]) => !busySources.has(source));
      if (at < 0) return;
      const [index, { source, file }] = pending.splice(at, 1)[0]!;
      const base = { file, source, index, total: files.length, bytesTotal };
      busySources.add(source);
      onProgress?.({ ...base, phase: 'loading', filesDone, bytesDone });
      try {
        const run = await ingestorNamed(source)!.run(store, path.join(dataDir, file));
        runs.push(run);
        if (run.status !== 'failed') await markSampleFileLoaded(store, file, run);
        bytesDone += sizes[index]!;
        onProgress?.({ ...base, phase: 'loaded', filesDone: ++filesDone, bytesDone, run });
      } finally {
        busySources.delete(source);
      }
    }
  };
  // A worker that finds only busy sources stops: the worker holding that source takes its next file.
  await Promise.all(Array.from({ length: FILES_AT_ONCE }, loadNext));
  // A cold start then loads the search index instead of building it.
  if (publishIndex && runs.some((run) => run.catalogVersion !== undefined)) await publishCatalogIndex(store);
  return runs;
}

/**
 * A progress reporter for a terminal: one redrawn bar on a TTY, plain lines (one per file loaded)
 * otherwise, so logs and CI output stay readable. Silent when every file was loaded before.
 */
export function progressReporter(stream: NodeJS.WriteStream = process.stdout): (progress: SampleProgress) => void {
  const started = Date.now();
  let drewBar = false;
  return (progress) => {
    if (progress.phase === 'skipped') return;
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    if (!stream.isTTY) {
      if (progress.phase === 'loaded' && progress.run) {
        const { counts } = progress.run;
        stream.write(
          `sample catalog ${progress.index + 1}/${progress.total} ${progress.file}: ${counts.parsed} records, ${counts.written} written, ${counts.rejected} quarantined (${(progress.run.durationMs / 1000).toFixed(1)} s)\n`,
        );
      }
      return;
    }
    const width = 28;
    const share = progress.bytesTotal ? progress.bytesDone / progress.bytesTotal : 1;
    const filled = Math.round(share * width);
    const bar = `${'█'.repeat(filled)}${'░'.repeat(width - filled)}`;
    const line = `Loading sample catalog ${bar} ${String(Math.round(share * 100)).padStart(3)}%  ${progress.filesDone}/${progress.total} files  ${seconds} s  ${progress.file}`;
    const columns = stream.columns || 120;
    stream.write(`\r${line.slice(0, columns - 1).padEnd(columns - 1)}`);
    drewBar = true;
    if (progress.phase === 'loaded' && progress.filesDone === progress.total && drewBar) stream.write('\n');
  };
}
