import { createHash } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { forEachAtOnce } from '../../platform/at-once.js';
import type { Store } from '../../platform/store/dynamo-client.js';
import { catalogKeys, ENTITY } from '../../platform/store/keys.js';
import { queryAll } from '../../platform/store/query-all.js';
import { getAll } from '../../platform/store/batch-reads.js';
import { putAll } from '../../platform/store/batch-writes.js';
import { declareAccessPatterns, param } from '../../platform/store/access-patterns.js';
import { aggregateId, aggregateItem, listedHashOf, parseListedHash, readAggregate, type AggregateKey, type AggregateTarget, type StoredAggregate, type StoredRow } from './aggregates.js';

/**
 * What becomes of an active row the run's scopes own but the source no longer lists: retired (the
 * default), kept as it is, or rewritten (e.g. a transfer rule a later snapshot supersedes gets its end).
 */
export type UnlistedPolicy = (existing: StoredRow) => 'retire' | 'keep' | StoredRow;

/** One row a source owns: where it is stored, its identity there, the part of the source it belongs to, and what it says. */
export interface OwnedRow {
  aggregate: AggregateTarget;
  id: string;
  scope: string;
  /** Hash of the content (never of the ingestion time): equal hash, nothing to write. */
  hash: string;
  /** What the row holds besides its bookkeeping (a course record, a transfer rule). */
  attributes: Record<string, unknown>;
}

export interface ReconcileOptions {
  settleUnlisted?: UnlistedPolicy;
  /** Which stored rows of the run's scopes the batch speaks for (a crawl of one department of a term); the others are left as they are. */
  covers?: (existing: StoredRow) => boolean;
  /** Whether a stored aggregate may hold rows the batch speaks for; one that cannot is not read. */
  coversAggregate?: (key: AggregateKey) => boolean;
  /** Checked before every write (the source's lease). */
  guard?: () => void;
  /** Called once, before the first write. */
  beforeFirstWrite?: () => Promise<void>;
}

export interface ReconcileCounts {
  written: number;
  unchanged: number;
  retired: number;
}

const SCOPE_READS_AT_ONCE = 8;
const WRITES_AT_ONCE = 8;
/** A write refused because the item changed since it was read is merged again from a fresh read, this many times. */
const WRITE_ATTEMPTS = 3;

/**
 * Writes what changed, skips what did not, and retires (never deletes) what the source owned in the
 * scopes it sent and no longer lists. Scopes not sent are left alone, so one file never retires
 * another's rows and a file that failed to parse retires nothing. Rows live in aggregates written
 * whole: an aggregate the ownership index shows with the hash this run would give it is neither read
 * nor written; any other is read (consistently), merged row by row and written on the condition that
 * nothing changed it since — so a run cut short at any point leaves every aggregate whole, and the
 * next run finishes the work.
 */
export async function reconcile(store: Store, source: string, rows: OwnedRow[], ingestedAt: string, options: ReconcileOptions = {}): Promise<ReconcileCounts> {
  const runScopes = new Set(rows.map((row) => row.scope));
  const named = new Map<string, { target: AggregateTarget; rows: OwnedRow[] }>();
  for (const row of rows) {
    const id = aggregateId(row.aggregate);
    if (!named.has(id)) named.set(id, { target: row.aggregate, rows: [] });
    named.get(id)!.rows.push(row);
  }
  const listing = await readOwnership(store, source, new Set([...named.values()].map((n) => n.target.ownerScope)));
  const counts: ReconcileCounts = { written: 0, unchanged: 0, retired: 0 };

  const toSettle: string[] = [];
  for (const [id, { rows: batch }] of named) {
    const listed = listing.get(id);
    if (listed !== undefined && listsTheSame(listed, batch, runScopes)) counts.unchanged += batch.length;
    else toSettle.push(id);
  }
  // Owned items the batch does not name hold rows to settle only where the source listed rows of the run's scopes.
  for (const [id, listed] of listing) {
    if (named.has(id) || ![...parseListedHash(listed.listedHash).keys()].some((scope) => runScopes.has(scope))) continue;
    if (!options.coversAggregate || options.coversAggregate(listed)) toSettle.push(id);
  }
  const stored = await readAggregates(store, toSettle.filter((id) => listing.has(id)).map((id) => listing.get(id)!));
  const merge = (id: string, current: StoredAggregate | undefined) => mergeAggregate(current, named.get(id), runScopes, ingestedAt, options);

  const merges = toSettle.map((id) => ({ id, read: stored.get(id), merged: merge(id, stored.get(id)) }));
  for (const { merged } of merges) if (!merged.aggregate) add(counts, merged.counts);
  const writes = merges.filter((m) => m.merged.aggregate);
  if (!writes.length) return counts;
  await options.beforeFirstWrite?.();

  if (store.bulkPuts === 'transactions') {
    // A table nothing else writes to (the staged first load): no conditions, up to 100 items a commit.
    options.guard?.();
    await putAll(store, writes.map((w) => aggregateItem(source, w.merged.aggregate!)));
    for (const w of writes) add(counts, w.merged.counts);
    return counts;
  }
  await forEachAtOnce(writes, WRITES_AT_ONCE, async ({ id, merged, read }) => {
    let attempt = { merged, read };
    for (let tries = 1; ; tries++) {
      options.guard?.();
      try {
        if (attempt.merged.aggregate) await putConditionally(store, source, attempt.merged.aggregate, attempt.read?.rev);
        return add(counts, attempt.merged.counts);
      } catch (error) {
        if ((error as { name?: string }).name !== 'ConditionalCheckFailedException' || tries >= WRITE_ATTEMPTS) throw error;
        // Changed since it was read (the ownership index lagged, or a writer the lease did not stop): merge again.
        const fresh = await readAggregate1(store, named.get(id)?.target ?? read!);
        attempt = { merged: merge(id, fresh), read: fresh };
      }
    }
  });
  return counts;
}

function add(counts: ReconcileCounts, more: ReconcileCounts): void {
  counts.written += more.written;
  counts.unchanged += more.unchanged;
  counts.retired += more.retired;
}

/** Whether the aggregate as listed holds, for every scope of the run, exactly the rows the batch lists. */
function listsTheSame(listed: { listedHash?: unknown }, batch: OwnedRow[], runScopes: Set<string>): boolean {
  const before = parseListedHash(listed.listedHash);
  const now = parseListedHash(listedHashOf(batch.map((row) => ({ id: row.id, scope: row.scope, contentHash: row.hash, status: 'active' }))));
  return [...runScopes].every((scope) => before.get(scope) === now.get(scope));
}

/**
 * The aggregate after this run: the batch's rows written where new or changed, the stored rows of the
 * run's scopes it no longer lists settled by the policy, everything else carried over. Undefined when
 * nothing would change.
 */
function mergeAggregate(
  stored: StoredAggregate | undefined,
  named: { target: AggregateTarget; rows: OwnedRow[] } | undefined,
  runScopes: Set<string>,
  ingestedAt: string,
  options: ReconcileOptions,
): { aggregate?: StoredAggregate; counts: ReconcileCounts } {
  const counts: ReconcileCounts = { written: 0, unchanged: 0, retired: 0 };
  const rows = new Map((stored?.rows ?? []).map((row) => [row.id, row]));
  let changed = false;
  for (const row of named?.rows ?? []) {
    const previous = rows.get(row.id);
    if (previous && previous.status === 'active' && !previous.unlisted && previous.contentHash === row.hash && previous.scope === row.scope) {
      counts.unchanged++;
      continue;
    }
    rows.set(row.id, { ...row.attributes, id: row.id, scope: row.scope, status: 'active', contentHash: row.hash, firstSeenAt: previous?.firstSeenAt ?? ingestedAt });
    counts.written++;
    changed = true;
  }
  const listedNow = new Set((named?.rows ?? []).map((row) => row.id));
  const policy = options.settleUnlisted ?? (() => 'retire' as const);
  for (const previous of stored?.rows ?? []) {
    if (listedNow.has(previous.id) || previous.status !== 'active' || !runScopes.has(previous.scope)) continue;
    if (options.covers && !options.covers(previous)) continue;
    const settled = policy(previous);
    if (settled === 'retire') {
      const { unlisted: _listed, ...rest } = previous;
      rows.set(previous.id, { ...rest, status: 'retired', retiredAt: ingestedAt });
      counts.retired++;
      changed = true;
    } else if (settled === 'keep') {
      if (previous.unlisted) continue;
      rows.set(previous.id, { ...previous, unlisted: true });
      changed = true;
    } else {
      const next: StoredRow = { ...settled, unlisted: true };
      if (stableJson(next) === stableJson(previous)) continue;
      rows.set(previous.id, next);
      counts.written++;
      changed = true;
    }
  }
  if (!changed) return { counts };
  const target = named?.target ?? stored!;
  const ordered = [...rows.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return {
    aggregate: { ...target, listing: target.listing ?? stored?.listing, rows: ordered, rev: (stored?.rev ?? 0) + 1 },
    counts,
  };
}

async function putConditionally(store: Store, source: string, aggregate: StoredAggregate, readRev: number | undefined): Promise<void> {
  await store.doc.send(
    new PutCommand({
      TableName: store.tableName,
      Item: aggregateItem(source, aggregate),
      ...(readRev === undefined
        ? { ConditionExpression: 'attribute_not_exists(PK)' }
        : { ConditionExpression: '#rev = :rev', ExpressionAttributeNames: { '#rev': 'rev' }, ExpressionAttributeValues: { ':rev': readRev } }),
    }),
  );
}

/** What a source owns in the given scopes (GSI2: keys and hashes only), several scopes at a time. */
async function readOwnership(store: Store, source: string, scopes: Set<string>): Promise<Map<string, AggregateKey & { listedHash?: unknown }>> {
  const owned = new Map<string, AggregateKey & { listedHash?: unknown }>();
  await forEachAtOnce([...scopes], SCOPE_READS_AT_ONCE, async (scope) => {
    const items = await queryAll(store, {
      IndexName: 'GSI2',
      KeyConditionExpression: 'GSI2PK = :pk',
      ExpressionAttributeValues: { ':pk': catalogKeys.sourceScope(source, scope) },
    });
    for (const item of items) owned.set(aggregateId(item as unknown as AggregateKey), { PK: String(item.PK), SK: String(item.SK), listedHash: item.listedHash });
  });
  return owned;
}

/** Whole aggregates by key, read consistently (100 keys a request). */
async function readAggregates(store: Store, keys: AggregateKey[]): Promise<Map<string, StoredAggregate>> {
  const items = await getAll(store, keys.map(({ PK, SK }) => ({ PK, SK })), undefined, { consistent: true });
  return new Map(items.map((item) => [aggregateId(item as unknown as AggregateKey), readAggregate(item)]));
}

async function readAggregate1(store: Store, key: AggregateKey): Promise<StoredAggregate | undefined> {
  const item = (await store.doc.send(new GetCommand({ TableName: store.tableName, Key: { PK: key.PK, SK: key.SK }, ConsistentRead: true }))).Item;
  return item ? readAggregate(item) : undefined;
}

/** Hash of a value with keys sorted, so the same content always hashes the same. */
export function stableHash(value: unknown): string {
  return createHash('sha256').update(stableJson(value)).digest('hex');
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

export const ACCESS_PATTERNS = /* @__PURE__ */ declareAccessPatterns(() => {
  const AGGREGATES = [
    catalogKeys.courseRecords(param('institution'), param('code'), param('source'), param('scope...')),
    catalogKeys.courseTransfersOut(param('institution'), param('code'), param('source')),
    catalogKeys.courseTransfersIn(param('institution'), param('code'), param('sender'), param('source')),
    catalogKeys.transferRule(param('ruleId')),
  ];
  const ENTITIES = [ENTITY.courseRecords, ENTITY.courseTransfers, ENTITY.transferRule];
  return [
    {
      name: 'What a source owns within a scope (keys and hashes)',
      entity: ENTITIES,
      operation: 'Query',
      index: 'GSI2',
      key: { GSI2PK: catalogKeys.sourceScope(param('source'), param('scope...')) },
      usedBy: ['ingestion (each scope a run sends, 8 at a time)'],
      notes: 'Projects `listedHash` only (per fine scope, a hash of the rows the source listed): an item whose hash equals what the run would write is neither read nor written.',
    },
    {
      name: 'Whole aggregates a run changes or settles',
      entity: ENTITIES,
      operation: 'BatchGetItem',
      index: 'table',
      keys: AGGREGATES,
      usedBy: ['ingestion'],
      notes: 'Consistent reads, 100 keys a request: only the aggregates whose listed hash differs from the batch\'s (or that hold rows of the run\'s scopes the batch no longer lists).',
    },
    {
      name: 'One aggregate again, after a refused write',
      entity: ENTITIES,
      operation: 'GetItem',
      index: 'table',
      keys: AGGREGATES,
      usedBy: ['ingestion (a conditional write refused: the item changed since it was read)'],
      notes: 'Consistent read; merged again and written on the new revision, at most 3 times.',
    },
    {
      name: 'Write an aggregate whole',
      entity: ENTITIES,
      operation: 'PutItem',
      index: 'table',
      keys: AGGREGATES,
      usedBy: ['ingestion (8 at a time)'],
      notes: 'Conditional on what was read: attribute_not_exists(PK) for a new one, rev = :read otherwise. Rows in one gzipped value, retired rows kept; GSI2 keys name the owning source and scope, GSI1 keys list a course fragment under its institution or a rule under its pair.',
    },
    {
      name: 'Write aggregates into a table nothing else writes to',
      entity: ENTITIES,
      operation: 'TransactWriteItems',
      index: 'table',
      keys: AGGREGATES,
      usedBy: ['npm start (the staged first load, ADR 0021)'],
      notes: 'Up to 100 items a transaction, no conditions: DynamoDB Local commits once per transaction rather than once per item.',
    },
  ];
});
