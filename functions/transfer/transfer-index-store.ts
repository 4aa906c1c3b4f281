import { declareAccessPatterns, param } from '../shared/store/access-patterns.js';
import { getAll } from '../shared/store/batch-reads.js';
import { deleteAll, putAll } from '../shared/store/batch-writes.js';
import type { Store } from '../shared/store/dynamo-client.js';
import { catalogKeys, ENTITY } from '../shared/store/keys.js';
import { queryAll } from '../shared/store/query-all.js';
import type { TransferRule } from './rule-model.js';
import type { RoundTrips } from './transfer-store.js';

/**
 * Per sending course and receiver, one item holding every active rule of the pair that lists the
 * course (history included), rebuilt after each ingestion that changed the pair. A resolve of up to
 * 99 courses reads everything it needs in one BatchGetItem, instead of a Query per course plus one.
 */
export async function refreshTransferIndexes(store: Store, pairs: { sender: string; receiver: string }[]): Promise<number> {
  let written = 0;
  for (const { sender, receiver } of pairs) {
    const items = await queryAll(store, {
      IndexName: 'GSI1',
      KeyConditionExpression: 'GSI1PK = :pk',
      ExpressionAttributeValues: { ':pk': catalogKeys.transferPair(sender, receiver) },
    });
    const byCode = new Map<string, TransferRule[]>();
    for (const item of items) {
      if (item.status !== 'active') continue;
      const rule = item.rule as TransferRule;
      for (const code of new Set(rule.sourceCourses.filter((c) => c.institution === sender).map((c) => c.code))) byCode.set(code, [...(byCode.get(code) ?? []), rule]);
    }
    const indexes = [...byCode].map(([code, rules]) => ({
      ...catalogKeys.transferIndex(sender, code, receiver),
      entity: ENTITY.transferIndex,
      rules: rules.sort((a, b) => a.ruleId.localeCompare(b.ruleId)),
    }));
    // A course whose last rule went keeps an empty index, so readers see "no rule" rather than a stale one.
    const stale = await staleIndexCodes(store, sender, receiver, new Set(byCode.keys()));
    // Without the marker readers use the listings, so a refresh that stops midway never serves a half-built index.
    await invalidateTransferIndex(store, { sender, receiver });
    await putAll(store, [...indexes, ...stale.map((code) => ({ ...catalogKeys.transferIndex(sender, code, receiver), entity: ENTITY.transferIndex, rules: [] }))]);
    await putAll(store, [{ ...catalogKeys.transferIndexMarker(sender, receiver), entity: ENTITY.transferIndex, builtAt: new Date().toISOString(), courses: [...byCode.keys()].sort() }]);
    written += indexes.length + stale.length;
  }
  return written;
}

/** Until a pair's index is rebuilt, its readers use the course listings (a rebuild deferred never serves a stale index). */
export async function invalidateTransferIndex(store: Store, pair: { sender: string; receiver: string }): Promise<void> {
  await deleteAll(store, [catalogKeys.transferIndexMarker(pair.sender, pair.receiver)]);
}

/** The pairs among these whose indexes were never built. */
export async function unindexedPairs(store: Store, pairs: { sender: string; receiver: string }[]): Promise<{ sender: string; receiver: string }[]> {
  const markers = await getItems(store, pairs.map((pair) => catalogKeys.transferIndexMarker(pair.sender, pair.receiver)));
  const built = new Set(markers.map((item) => String(item.PK)));
  return pairs.filter((pair) => !built.has(catalogKeys.transferIndexMarker(pair.sender, pair.receiver).PK));
}

/** Codes the pair's previous index build covered that the new one does not. */
async function staleIndexCodes(store: Store, sender: string, receiver: string, current: Set<string>): Promise<string[]> {
  const marker = await getItems(store, [catalogKeys.transferIndexMarker(sender, receiver)]);
  const previous = (marker[0]?.courses as string[] | undefined) ?? [];
  return previous.filter((code) => !current.has(code));
}

function getItems(store: Store, keys: Record<string, unknown>[], trips?: RoundTrips): Promise<Record<string, unknown>[]> {
  return getAll(store, keys, () => trips && trips.count++);
}

/** Index items read by a warm process, dropped whenever the catalog version moves (an ingestion changed something). */
class IndexCache {
  version = -1;
  readonly rules = new Map<string, TransferRule[]>();
  readonly indexedPairs = new Set<string>();

  at(version: number): this {
    if (version !== this.version) {
      this.version = version;
      this.rules.clear();
      this.indexedPairs.clear();
    }
    if (this.rules.size > MAX_CACHED_INDEXES) this.rules.clear();
    return this;
  }
}

const MAX_CACHED_INDEXES = 20_000;
const caches = new WeakMap<Store, IndexCache>();

/**
 * Every active rule of the pair listing any of the codes, from their index items (one BatchGetItem
 * for up to 99 codes, fewer when a warm process already holds them for this catalog version);
 * undefined when the pair's indexes were never built (data ingested before them), so the caller
 * reads the listings.
 */
export async function indexedRules(store: Store, sender: string, receiver: string, codes: string[], trips: RoundTrips, catalogVersion?: number): Promise<TransferRule[] | undefined> {
  let cache = caches.get(store);
  if (!cache) caches.set(store, (cache = new IndexCache()));
  const held = catalogVersion === undefined ? undefined : cache.at(catalogVersion);
  const pair = `${sender}->${receiver}`;
  const cacheKey = (code: string) => `${pair}|${code}`;
  const missing = held ? codes.filter((code) => !held.rules.has(cacheKey(code))) : codes;
  const markerKey = catalogKeys.transferIndexMarker(sender, receiver);
  const needMarker = !held?.indexedPairs.has(pair);
  if (missing.length || needMarker) {
    const items = await getItems(store, [...(needMarker ? [markerKey] : []), ...missing.map((code) => catalogKeys.transferIndex(sender, code, receiver))], trips);
    if (needMarker && !items.some((item) => item.PK === markerKey.PK && item.SK === markerKey.SK)) return undefined;
    const found = new Map(items.filter((item) => item.SK === receiver).map((item) => [String(item.PK), (item.rules as TransferRule[] | undefined) ?? []]));
    if (held) {
      held.indexedPairs.add(pair);
      // An absent index item means the code has no rule for this pair.
      for (const code of missing) held.rules.set(cacheKey(code), found.get(catalogKeys.transferIndex(sender, code, receiver).PK) ?? []);
    } else {
      return uniqueRules([...found.values()].flat());
    }
  }
  return uniqueRules(codes.flatMap((code) => held!.rules.get(cacheKey(code)) ?? []));
}

function uniqueRules(rules: TransferRule[]): TransferRule[] {
  return [...new Map(rules.map((rule) => [rule.ruleId, rule])).values()];
}

export const ACCESS_PATTERNS = /* @__PURE__ */ declareAccessPatterns(() => {
  const SENDER = param('sender');
  const RECEIVER = param('receiver');
  const INDEX = catalogKeys.transferIndex(SENDER, param('code'), RECEIVER);
  const MARKER = catalogKeys.transferIndexMarker(SENDER, RECEIVER);
  return [
    {
      name: "A pair's rules per sending course, in bulk (transfer indexes)",
      entity: ENTITY.transferIndex,
      operation: 'BatchGetItem',
      index: 'table',
      keys: [INDEX, MARKER],
      usedBy: ['tn_transfer_resolve (the given courses, then the one-digit neighbours of uncovered ones)', 'transfer ingestion (which pairs were never indexed; the codes a pair\'s last build covered)'],
      notes: 'One item per sending course and receiver holds every active rule listing it. Without the pair\'s marker the listings are read instead. Warm processes keep the items per catalog version.',
    },
    {
      name: "Rebuild a pair's transfer indexes: its rules",
      entity: ENTITY.transferRule,
      operation: 'Query',
      index: 'GSI1',
      key: { GSI1PK: catalogKeys.transferPair(SENDER, RECEIVER) },
      usedBy: ['transfer ingestion that changed the pair'],
    },
    {
      name: "Rebuild a pair's transfer indexes: write them",
      entity: ENTITY.transferIndex,
      operation: 'BatchWriteItem',
      index: 'table',
      keys: [INDEX, MARKER],
      usedBy: ['transfer ingestion that changed the pair'],
      notes: 'The marker is deleted first and written last, so a refresh that stops midway never serves a half-built index; a course whose last rule went keeps an empty index.',
    },
  ];
});
