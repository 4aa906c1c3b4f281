import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import type { AdapterContext, RejectedRecord } from '../catalog-model.js';
import type { Store } from '../../platform/store/dynamo-client.js';
import { catalogKeys, ENTITY } from '../../platform/store/keys.js';
import { putAll } from '../../platform/store/batch-writes.js';
import { ensureInstitution, recordInstitutionFreshness } from '../institution-registry.js';
import { declareAccessPatterns, param } from '../../platform/store/access-patterns.js';
import { STORAGE_FORMAT } from '../../platform/store/storage-format.js';
import { reconcile, type UnlistedPolicy, type OwnedRow } from './reconcile.js';
import { takeSourceLease, type LeaseOptions, type SourceLease } from './source-lease-store.js';
import { isUrlOrigin, loadSource, originHash, type LoadOptions } from './source-loader.js';

export interface IngestionRun {
  runId: string;
  source: string;
  origin: string;
  status: 'succeeded' | 'not-modified' | 'failed';
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  counts: { parsed: number; written: number; unchanged: number; retired: number; rejected: number };
  errors: string[];
  catalogVersion?: number;
}

/** What a source's parser hands the run: items to own, rejects to quarantine, institutions seen. */
export interface PreparedBatch {
  items: OwnedRow[];
  parsed: number;
  rejected: RejectedRecord[];
  /** Institution id → records about it (freshness), and names the data gives for unknown ones. */
  institutions: Map<string, { records: number; name?: string; sent?: number; receivers?: string[] }>;
  /** What becomes of owned items the batch no longer lists; retired when absent. */
  settleUnlisted?: UnlistedPolicy;
  /** Derived data the run replaces once its rows are written (a source's term lists), still holding the source's lease. */
  afterWrite?: () => Promise<void>;
}

export interface RunOptions {
  now?: () => Date;
  load?: LoadOptions;
  /** The source's lease: how long it holds, how long a run waits for another run of its source. */
  lease?: LeaseOptions;
  /**
   * The source's text, already fetched (a crawl hands over one part of a source: a subject's pages, a
   * department's outlines): nothing is loaded and no conditional-GET state is read or kept; `origin`
   * names where it came from.
   */
  content?: string;
  /**
   * Which stored rows of the run's scopes this content speaks for: a row it no longer lists is settled
   * (retired, or as the source's policy says) only when this says so, and left as it is otherwise. A crawl
   * of one department of a term speaks for that department's sections, not the whole term's.
   */
  coverage?: (existing: Record<string, unknown>) => boolean;
  /** With `coverage`: whether a stored item (by key) can hold rows the content speaks for; one that cannot is not read. */
  coverageOfItems?: (key: { PK: string; SK: string }) => boolean;
  /** Whether the run records per-institution freshness (default); a crawl records it per part instead. */
  recordFreshness?: boolean;
}

const MAX_QUARANTINED_PER_RUN = 500;

/**
 * One idempotent run of one source from one origin: take the source's lease (runs of a source never
 * overlap), load (conditional GET for URLs), parse, quarantine rejects, reconcile, bump the catalog
 * version when something changed (or a run before was cut short after writing), record institution
 * freshness. Whatever happens, the run leaves a run record.
 */
export async function runIngestion(
  store: Store,
  source: string,
  origin: string,
  prepare: (text: string, context: AdapterContext) => PreparedBatch,
  options: RunOptions = {},
): Promise<IngestionRun> {
  const now = options.now ?? (() => new Date());
  const started = now();
  const runId = ulid(started.getTime());
  const counts = { parsed: 0, written: 0, unchanged: 0, retired: 0, rejected: 0 };
  const errors: string[] = [];
  let status: IngestionRun['status'] = 'succeeded';
  let catalogVersion: number | undefined;
  let lease: SourceLease | undefined;
  let done = false;

  try {
    lease = await takeSourceLease(store, source, runId, options.lease);
    const stateKey = catalogKeys.sourceState(source, originHash(origin));
    // A file, or content a crawl already fetched, has no validators to send back: its state is never read. After a
    // run cut short, a URL is loaded in full: what that run loaded was never all written.
    const conditional = options.content === undefined && isUrlOrigin(origin) && !lease.inheritedUnfinished;
    const previous = conditional ? (await store.doc.send(new GetCommand({ TableName: store.tableName, Key: stateKey }))).Item : undefined;
    const loaded =
      options.content !== undefined
        ? { text: options.content, notModified: false, etag: undefined, lastModified: undefined }
        : await loadSource(origin, { ...options.load, previous: previous ? { etag: previous.etag, lastModified: previous.lastModified } : undefined });
    if (loaded.notModified || loaded.text === undefined) {
      status = 'not-modified';
    } else {
      const ingestedAt = started.toISOString();
      const batch = prepare(loaded.text, { ingestedAt, origin });
      counts.parsed = batch.parsed;
      counts.rejected = batch.rejected.length;
      await quarantine(store, source, runId, batch.rejected, ingestedAt);
      const held = lease;
      Object.assign(
        counts,
        await reconcile(store, source, batch.items, ingestedAt, {
          settleUnlisted: batch.settleUnlisted,
          ...(options.coverage ? { covers: options.coverage } : {}),
          ...(options.coverageOfItems ? { coversAggregate: options.coverageOfItems } : {}),
          guard: () => held.assertHeld(),
          beforeFirstWrite: () => held.markWriting(),
        }),
      );
      held.assertHeld();
      await batch.afterWrite?.();
      // Independent of each other, so sent together: a run's bookkeeping is a handful of round trips, not one per
      // institution (a transfer file names 30+), which a small file under a busy emulator waits on one by one.
      const [version] = await Promise.all([
        // A run after one cut short once it wrote announces that run's writes, even if it writes nothing itself.
        counts.written + counts.retired > 0 || held.inheritedUnfinished ? bumpCatalogVersion(store) : undefined,
        ...[...batch.institutions].map(([id, seen]) => ensureInstitution(store, id, seen.name)),
        options.recordFreshness === false ? undefined : recordInstitutionFreshness(store, source, batch.institutions, ingestedAt),
        loaded.etag || loaded.lastModified ? saveSourceState(store, { ...stateKey, origin, etag: loaded.etag, lastModified: loaded.lastModified, updatedAt: ingestedAt }) : undefined,
      ]);
      catalogVersion = version;
    }
    done = true;
  } catch (error) {
    status = 'failed';
    errors.push(error instanceof Error ? error.message : String(error));
  }
  // A run that failed after writing keeps the note for the next run, which announces what this one wrote.
  await lease?.release(done).catch((error: unknown) => errors.push(`giving the lease back: ${error instanceof Error ? error.message : String(error)}`));

  const finished = now();
  const run: IngestionRun = {
    runId,
    source,
    origin,
    status,
    startedAt: started.toISOString(),
    finishedAt: finished.toISOString(),
    durationMs: finished.getTime() - started.getTime(),
    counts,
    errors,
    ...(catalogVersion !== undefined ? { catalogVersion } : {}),
  };
  await store.doc.send(new PutCommand({ TableName: store.tableName, Item: { ...catalogKeys.ingestionRun(source, runId), entity: ENTITY.ingestionRun, ...run } }));
  return run;
}

async function saveSourceState(store: Store, state: Record<string, unknown>): Promise<void> {
  await store.doc.send(new PutCommand({ TableName: store.tableName, Item: { ...state, entity: ENTITY.sourceState } }));
}

async function quarantine(store: Store, source: string, runId: string, rejected: RejectedRecord[], at: string): Promise<void> {
  const items = rejected.slice(0, MAX_QUARANTINED_PER_RUN).map((record, index) => ({
    ...catalogKeys.quarantined(source, runId, index),
    entity: ENTITY.quarantinedRecord,
    runId,
    reason: record.reason,
    sourceRecordId: record.sourceRecordId,
    raw: record.raw === undefined ? undefined : JSON.stringify(record.raw).slice(0, 4000),
    at,
  }));
  await putAll(store, items);
}

async function bumpCatalogVersion(store: Store): Promise<number> {
  const result = await store.doc.send(
    new UpdateCommand({
      TableName: store.tableName,
      Key: catalogKeys.catalogVersion,
      UpdateExpression: 'ADD #version :one SET #entity = :entity, storageFormat = :format',
      ExpressionAttributeNames: { '#version': 'version', '#entity': 'entity' },
      ExpressionAttributeValues: { ':one': 1, ':entity': ENTITY.catalogVersion, ':format': STORAGE_FORMAT },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return Number(result.Attributes?.version ?? 0);
}

export const ACCESS_PATTERNS = /* @__PURE__ */ declareAccessPatterns(() => {
  const SOURCE = param('source');
  return [
    {
      name: "A source's conditional-GET state",
      entity: ENTITY.sourceState,
      operation: 'GetItem',
      index: 'table',
      key: catalogKeys.sourceState(SOURCE, param('originHash')),
      usedBy: ['ingestion'],
      notes: 'ETag and Last-Modified of the origin\'s last load; a 304 skips the run.',
    },
    {
      name: "Save a source's conditional-GET state",
      entity: ENTITY.sourceState,
      operation: 'PutItem',
      index: 'table',
      key: catalogKeys.sourceState(SOURCE, param('originHash')),
      usedBy: ['ingestion (origins that answer with ETag or Last-Modified)'],
    },
    {
      name: 'Quarantine rejected records',
      entity: ENTITY.quarantinedRecord,
      operation: 'BatchWriteItem',
      index: 'table',
      key: { PK: catalogKeys.ingestPartition(SOURCE), SK: `${catalogKeys.quarantinePrefix(param('runId'))}${param('index')}` },
      usedBy: ['ingestion'],
      notes: 'At most 500 a run, each with its reason and raw text (cut at 4000 characters).',
    },
    {
      name: 'Bump the catalog version',
      entity: ENTITY.catalogVersion,
      operation: 'UpdateItem',
      index: 'table',
      key: catalogKeys.catalogVersion,
      usedBy: ['ingestion that wrote or retired something (or followed a run cut short after writing)'],
      notes: 'ADD version 1 and SET the storage format: warm functions drop what they cached for the old version.',
    },
    {
      name: 'Record an ingestion run',
      entity: ENTITY.ingestionRun,
      operation: 'PutItem',
      index: 'table',
      key: catalogKeys.ingestionRun(SOURCE, param('runId')),
      usedBy: ['ingestion (whatever happened, failures included)'],
      notes: 'Counts, errors, duration and the catalog version it produced.',
    },
  ];
});
