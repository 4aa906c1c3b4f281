import { forEachAtOnce } from '../shared/at-once.js';
import { declareAccessPatterns, param } from '../shared/store/access-patterns.js';
import { getAll } from '../shared/store/batch-reads.js';
import { decodeValue, encodeValue } from '../shared/store/packed-value.js';
import { deleteAll, putAll } from '../shared/store/batch-writes.js';
import type { Store } from '../shared/store/dynamo-client.js';
import { catalogKeys, ENTITY } from '../shared/store/keys.js';
import { queryAll } from '../shared/store/query-all.js';
import type { TransferRule } from './rule-model.js';
import { ruleOf, type RoundTrips } from './transfer-store.js';

const PAIR_READS_AT_ONCE = 4;

/**
 * Per sending course, one item holding every active rule that lists it, towards every receiver
 * (history included), rebuilt for the whole sender after an ingestion that changed any of its pairs.
 * A resolve of up to 99 courses reads everything it needs in one BatchGetItem, instead of a Query per
 * course plus one; one item per course rather than per course and receiver keeps the index to about
 * a tenth of the items a first load writes.
 */
export async function refreshTransferIndexes(store: Store, sender: string): Promise<number> {
  const manifest = await readManifest(store, sender);
  const byCode = new Map<string, TransferRule[]>();
  await forEachAtOnce(manifest.receivers, PAIR_READS_AT_ONCE, async (receiver) => {
    const items = await queryAll(store, {
      IndexName: 'GSI1',
      KeyConditionExpression: 'GSI1PK = :pk',
      ExpressionAttributeValues: { ':pk': catalogKeys.transferPair(sender, receiver) },
    });
    for (const item of items) {
      if (item.status !== 'active') continue;
      const rule = ruleOf(item);
      for (const code of new Set(rule.sourceCourses.filter((c) => c.institution === sender).map((c) => c.code))) byCode.set(code, [...(byCode.get(code) ?? []), rule]);
    }
  });
  const indexes = [...byCode].map(([code, rules]) => indexItem(sender, code, rules.sort((a, b) => a.ruleId.localeCompare(b.ruleId))));
  // A course whose last rule went keeps an empty index, so readers see "no rule" rather than a stale one.
  const stale = manifest.courses.filter((code) => !byCode.has(code)).map((code) => indexItem(sender, code, []));
  await putAll(store, [...indexes, ...stale]);
  // Markers last: a pair whose marker an ingestion removed is served from the listings until its rules are all in.
  const builtAt = new Date().toISOString();
  await putAll(store, [
    { ...catalogKeys.transferIndexManifest(sender), entity: ENTITY.transferIndex, receivers: manifest.receivers, courses: [...byCode.keys()].sort(), builtAt },
    ...manifest.receivers.map((receiver) => ({ ...catalogKeys.transferIndexMarker(sender, receiver), entity: ENTITY.transferIndex, builtAt })),
  ]);
  return indexes.length + stale.length;
}

/**
 * Until the sender's indexes are rebuilt, readers of these pairs use the course listings (a rebuild
 * deferred never serves a stale index). The pairs join the sender's manifest first, so the rebuild
 * covers them even when it runs after several ingestions.
 */
export async function invalidateTransferIndex(store: Store, sender: string, receivers: string[]): Promise<void> {
  const manifest = await readManifest(store, sender);
  const known = new Set(manifest.receivers);
  if (receivers.some((receiver) => !known.has(receiver))) {
    const { PK: _pk, SK: _sk, ...rest } = manifest.item ?? {};
    await putAll(store, [{ ...rest, ...catalogKeys.transferIndexManifest(sender), entity: ENTITY.transferIndex, receivers: [...new Set([...known, ...receivers])].sort(), courses: manifest.courses }]);
  }
  await deleteAll(store, receivers.map((receiver) => catalogKeys.transferIndexMarker(sender, receiver)));
}

/** The pairs among these whose rules were never indexed. */
export async function unindexedPairs(store: Store, pairs: { sender: string; receiver: string }[]): Promise<{ sender: string; receiver: string }[]> {
  const markers = await getItems(store, pairs.map((pair) => catalogKeys.transferIndexMarker(pair.sender, pair.receiver)));
  const built = new Set(markers.map((item) => String(item.PK)));
  return pairs.filter((pair) => !built.has(catalogKeys.transferIndexMarker(pair.sender, pair.receiver).PK));
}

/**
 * Which of these institutions send rules, and towards which receivers: their index manifests, in one
 * batch read. Only an answer that found no rule asks (to say a sender has none loaded).
 */
export async function transferSenders(store: Store, institutions: string[]): Promise<{ sender: string; receivers: string[] }[]> {
  const items = await getItems(store, institutions.map((id) => catalogKeys.transferIndexManifest(id)));
  return items
    .map((item) => ({ sender: String(item.PK).slice(catalogKeys.transferIndexManifest('').PK.length), receivers: ((item.receivers as string[] | undefined) ?? []).slice().sort() }))
    .filter((entry) => entry.receivers.length)
    .sort((a, b) => a.sender.localeCompare(b.sender));
}

async function readManifest(store: Store, sender: string): Promise<{ receivers: string[]; courses: string[]; item?: Record<string, unknown> }> {
  const [item] = await getItems(store, [catalogKeys.transferIndexManifest(sender)]);
  return { receivers: (item?.receivers as string[] | undefined) ?? [], courses: (item?.courses as string[] | undefined) ?? [], ...(item ? { item } : {}) };
}

const indexItem = (sender: string, code: string, rules: TransferRule[]) => ({ ...catalogKeys.transferIndex(sender, code), entity: ENTITY.transferIndex, packedRules: encodeValue(rules) });
const rulesOf = (item: Record<string, unknown>) => (item.packedRules ? decodeValue(item.packedRules as Uint8Array) : []) as TransferRule[];

function getItems(store: Store, keys: Record<string, unknown>[], trips?: RoundTrips): Promise<Record<string, unknown>[]> {
  return getAll(store, keys, () => trips && trips.count++);
}

/** Index items read by a warm process, dropped whenever the catalog version moves (an ingestion changed something). */
class IndexCache {
  version = -1;
  /** Per sender and code, every receiver's rules. */
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
 * undefined when the pair was never indexed (data ingested before, or a rebuild still pending), so
 * the caller reads the listings.
 */
export async function indexedRules(store: Store, sender: string, receiver: string, codes: string[], trips: RoundTrips, catalogVersion?: number): Promise<TransferRule[] | undefined> {
  let cache = caches.get(store);
  if (!cache) caches.set(store, (cache = new IndexCache()));
  const held = catalogVersion === undefined ? undefined : cache.at(catalogVersion);
  const pair = `${sender}->${receiver}`;
  const cacheKey = (code: string) => `${sender}|${code}`;
  const missing = held ? codes.filter((code) => !held.rules.has(cacheKey(code))) : codes;
  const markerKey = catalogKeys.transferIndexMarker(sender, receiver);
  const needMarker = !held?.indexedPairs.has(pair);
  const towardsReceiver = (rules: TransferRule[]) => rules.filter((rule) => rule.receiverInstitution === receiver);
  if (missing.length || needMarker) {
    const items = await getItems(store, [...(needMarker ? [markerKey] : []), ...missing.map((code) => catalogKeys.transferIndex(sender, code))], trips);
    if (needMarker && !items.some((item) => item.PK === markerKey.PK && item.SK === markerKey.SK)) return undefined;
    const indexSk = catalogKeys.transferIndex(sender, '').SK;
    const found = new Map(items.filter((item) => item.SK === indexSk).map((item) => [String(item.PK), rulesOf(item)]));
    if (!held) return uniqueRules(towardsReceiver([...found.values()].flat()));
    held.indexedPairs.add(pair);
    // An absent index item means the code has no rule towards any receiver.
    for (const code of missing) held.rules.set(cacheKey(code), found.get(catalogKeys.transferIndex(sender, code).PK) ?? []);
  }
  return uniqueRules(towardsReceiver(codes.flatMap((code) => held!.rules.get(cacheKey(code)) ?? [])));
}

function uniqueRules(rules: TransferRule[]): TransferRule[] {
  return [...new Map(rules.map((rule) => [rule.ruleId, rule])).values()];
}

export const ACCESS_PATTERNS = /* @__PURE__ */ declareAccessPatterns(() => {
  const SENDER = param('sender');
  const RECEIVER = param('receiver');
  const INDEX = catalogKeys.transferIndex(SENDER, param('code'));
  const MARKER = catalogKeys.transferIndexMarker(SENDER, RECEIVER);
  const MANIFEST = catalogKeys.transferIndexManifest(SENDER);
  return [
    {
      name: "A sender's rules per sending course, in bulk (transfer indexes)",
      entity: ENTITY.transferIndex,
      operation: 'BatchGetItem',
      index: 'table',
      keys: [INDEX, MARKER, MANIFEST],
      usedBy: [
        'tn_transfer_resolve (the pair\'s marker and the given courses, then the one-digit neighbours of uncovered ones)',
        'transfer ingestion (which pairs were never indexed; the receivers and courses of the sender\'s last build)',
        'tn_transfer_resolve and tn_transfer_compare that found no rule (which institutions send rules, from their manifests)',
      ],
      notes: 'One item per sending course holds every active rule listing it, towards every receiver (gzipped JSON, `packedRules`); readers keep the receiver they asked for. Without the pair\'s marker the listings are read instead. Warm processes keep the items per catalog version.',
    },
    {
      name: "Rebuild a sender's transfer indexes: each pair's rules",
      entity: ENTITY.transferRule,
      operation: 'Query',
      index: 'GSI1',
      key: { GSI1PK: catalogKeys.transferPair(SENDER, RECEIVER) },
      usedBy: ['transfer ingestion that changed any pair of the sender (every receiver in its manifest, 4 at a time)'],
    },
    {
      name: "Rebuild a sender's transfer indexes: write them",
      entity: ENTITY.transferIndex,
      operation: 'BatchWriteItem',
      index: 'table',
      keys: [INDEX, MARKER, MANIFEST],
      usedBy: ['transfer ingestion that changed any pair of the sender'],
      notes: 'A changed pair\'s marker is deleted at once (its receiver added to the manifest) and written last, so a rebuild that stops midway or is deferred never serves a stale index; a course whose last rule went keeps an empty index.',
    },
  ];
});
