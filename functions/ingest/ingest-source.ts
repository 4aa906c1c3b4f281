import { createHash } from 'node:crypto';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { queryAll } from '../shared/store/query-all.js';
import { ulid } from 'ulid';
import { CatalogRecordSchema, recordId, type AdapterContext, type CatalogRecord, type RejectedRecord, type SourceAdapter } from '../course/catalog-model.js';
import type { Store } from '../shared/store/dynamo-client.js';
import { catalogKeys, ENTITY } from '../shared/store/keys.js';
import { putAll } from './batch-writes.js';
import { loadSource, originHash, type LoadOptions } from './source-loader.js';
import { recordInstitutionFreshness } from './institution-registry.js';

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

const MAX_QUARANTINED_PER_RUN = 500;

/**
 * One idempotent run of one source: unchanged records (same content hash) are not written, changed
 * ones are updated, records the source no longer has are retired (never deleted), and malformed
 * records are counted and quarantined with their reason. The run always leaves a run record.
 */
export async function ingestSource(
  store: Store,
  adapter: SourceAdapter,
  origin: string,
  options: { now?: () => Date; load?: LoadOptions } = {},
): Promise<IngestionRun> {
  const now = options.now ?? (() => new Date());
  const started = now();
  const runId = ulid(started.getTime());
  const counts = { parsed: 0, written: 0, unchanged: 0, retired: 0, rejected: 0 };
  const errors: string[] = [];
  let status: IngestionRun['status'] = 'succeeded';
  let catalogVersion: number | undefined;

  try {
    const stateKey = catalogKeys.sourceState(adapter.name, originHash(origin));
    const previous = (await store.doc.send(new GetCommand({ TableName: store.tableName, Key: stateKey }))).Item;
    const loaded = await loadSource(origin, { ...options.load, previous: previous ? { etag: previous.etag, lastModified: previous.lastModified } : undefined });
    if (loaded.notModified || loaded.text === undefined) {
      status = 'not-modified';
    } else {
      const ingestedAt = started.toISOString();
      const output = adapter.parse(loaded.text, { ingestedAt, origin });
      const { valid, rejected } = validate(output.records, output.rejected);
      counts.parsed = valid.length;
      counts.rejected = rejected.length;
      await quarantine(store, adapter.name, runId, rejected, ingestedAt);

      const outcome = await reconcile(store, adapter, valid, { ingestedAt, origin });
      Object.assign(counts, outcome);
      if (outcome.written + outcome.retired > 0) catalogVersion = await bumpCatalogVersion(store);
      await recordInstitutionFreshness(store, adapter, valid, ingestedAt);
      if (loaded.etag || loaded.lastModified) {
        await store.doc.send(
          new PutCommand({
            TableName: store.tableName,
            Item: { ...stateKey, entity: ENTITY.sourceState, origin, etag: loaded.etag, lastModified: loaded.lastModified, updatedAt: ingestedAt },
          }),
        );
      }
    }
  } catch (error) {
    status = 'failed';
    errors.push(error instanceof Error ? error.message : String(error));
  }

  const finished = now();
  const run: IngestionRun = {
    runId,
    source: adapter.name,
    origin,
    status,
    startedAt: started.toISOString(),
    finishedAt: finished.toISOString(),
    durationMs: finished.getTime() - started.getTime(),
    counts,
    errors,
    ...(catalogVersion !== undefined ? { catalogVersion } : {}),
  };
  await store.doc.send(
    new PutCommand({ TableName: store.tableName, Item: { ...catalogKeys.ingestionRun(adapter.name, runId), entity: ENTITY.ingestionRun, ...run } }),
  );
  return run;
}

function validate(records: CatalogRecord[], rejectedByAdapter: RejectedRecord[]) {
  const rejected = [...rejectedByAdapter];
  const valid: CatalogRecord[] = [];
  const seen = new Set<string>();
  for (const record of records) {
    const parsed = CatalogRecordSchema.safeParse(record);
    if (!parsed.success) {
      rejected.push({ sourceRecordId: record?.provenance?.sourceRecordId, reason: `invalid record: ${parsed.error.issues[0]?.message}`, raw: record });
      continue;
    }
    const key = `${parsed.data.institution}|${parsed.data.code}|${recordId(parsed.data)}`;
    if (seen.has(key)) {
      rejected.push({ sourceRecordId: parsed.data.provenance.sourceRecordId, reason: `duplicate record ${key}` });
      continue;
    }
    seen.add(key);
    valid.push(parsed.data);
  }
  return { valid, rejected };
}

/** Hash of what the record says, not when we saw it: an unchanged source hashes the same every run. */
export function contentHash(record: CatalogRecord): string {
  const { ingestedAt: _ignored, ...provenance } = record.provenance;
  return createHash('sha256').update(stableJson({ ...record, provenance })).digest('hex');
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${stableJson((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

async function reconcile(store: Store, adapter: SourceAdapter, records: CatalogRecord[], context: AdapterContext) {
  const { ingestedAt } = context;
  const scopeOf = (record: CatalogRecord) => adapter.scopeOf?.(record, context) ?? 'all';
  const scopes = new Set(records.map(scopeOf));
  const existing = new Map<string, Record<string, unknown>>();
  for (const scope of scopes) {
    const owned = await queryAll(store, {
      IndexName: 'GSI2',
      KeyConditionExpression: 'GSI2PK = :pk',
      ExpressionAttributeValues: { ':pk': catalogKeys.sourceScope(adapter.name, scope) },
    });
    for (const item of owned) existing.set(`${item.PK}|${item.SK}`, item);
  }

  const toWrite: Record<string, unknown>[] = [];
  let unchanged = 0;
  for (const record of records) {
    const key = catalogKeys.record(record.institution, record.code, recordId(record));
    const hash = contentHash(record);
    const previous = existing.get(`${key.PK}|${key.SK}`);
    existing.delete(`${key.PK}|${key.SK}`);
    if (previous && previous.contentHash === hash && previous.status === 'active') {
      unchanged++;
      continue;
    }
    toWrite.push({
      ...key,
      ...(record.kind === 'course' ? catalogKeys.byInstitution(record.institution, record.code, record.provenance.source) : {}),
      ...catalogKeys.bySource(adapter.name, scopeOf(record), key.PK, key.SK),
      entity: ENTITY.catalogRecord,
      status: 'active',
      contentHash: hash,
      firstSeenAt: previous?.firstSeenAt ?? ingestedAt,
      record,
    });
  }
  // Whatever this source owned in these scopes and no longer sends is retired, keeping its history.
  const toRetire = [...existing.values()]
    .filter((item) => item.status === 'active')
    .map((item) => ({ ...item, status: 'retired', retiredAt: ingestedAt }));
  await putAll(store, [...toWrite, ...toRetire]);
  return { written: toWrite.length, unchanged, retired: toRetire.length };
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
      UpdateExpression: 'ADD #version :one SET #entity = :entity',
      ExpressionAttributeNames: { '#version': 'version', '#entity': 'entity' },
      ExpressionAttributeValues: { ':one': 1, ':entity': ENTITY.catalogVersion },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return Number(result.Attributes?.version ?? 0);
}
