import { listCourseFragments } from '../catalog/catalog-store.js';
import { coursesFromFragments } from '../catalog/course-view.js';
import { forEachAtOnce } from '../platform/at-once.js';
import { declareAccessPatterns, param } from '../platform/store/access-patterns.js';
import { getAll } from '../platform/store/batch-reads.js';
import { decodeValue, encodeValue } from '../platform/store/packed-value.js';
import { deleteAll, putAll } from '../platform/store/batch-writes.js';
import type { Store } from '../platform/store/dynamo-client.js';
import { catalogKeys, ENTITY } from '../platform/store/keys.js';
import { queryAll } from '../platform/store/query-all.js';
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
  const credits = await catalogueCreditsOf(store, sender);
  const indexes = [...byCode].map(([code, rules]) => indexItem(sender, code, rules.sort((a, b) => a.ruleId.localeCompare(b.ruleId)), credits));
  // A course whose last rule went keeps an empty index, so readers see "no rule" rather than a stale one.
  const stale = manifest.courses.filter((code) => !byCode.has(code)).map((code) => indexItem(sender, code, [], credits));
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

/**
 * Credits of the sender's own courses from its catalogue (PDF-format rows state none), so a resolve
 * checks an award against the course without reading the catalog; undefined when the sender has no
 * catalogue loaded (then each index item says nothing, and readers check what the rules state).
 */
async function catalogueCreditsOf(store: Store, sender: string): Promise<Map<string, number | null> | undefined> {
  const courses = coursesFromFragments(await listCourseFragments(store, sender));
  if (!courses.length) return undefined;
  return new Map(courses.map((course) => [course.code, typeof course.credits === 'number' && course.credits > 0 ? course.credits : null]));
}

const indexItem = (sender: string, code: string, rules: TransferRule[], credits: Map<string, number | null> | undefined) => ({
  ...catalogKeys.transferIndex(sender, code),
  entity: ENTITY.transferIndex,
  packedRules: encodeValue(rules),
  // Checked against the catalogue: its credits, or null when the catalogue does not list the course.
  ...(credits ? { catalogCredits: credits.get(code) ?? null } : {}),
});
const rulesOf = (item: Record<string, unknown>) => (item.packedRules ? decodeValue(item.packedRules as Uint8Array) : []) as TransferRule[];

function getItems(store: Store, keys: Record<string, unknown>[], trips?: RoundTrips): Promise<Record<string, unknown>[]> {
  return getAll(store, keys, () => trips && trips.count++);
}

/** Index items read by a warm process, dropped whenever the catalog version moves (an ingestion changed something). */
class IndexCache {
  version = -1;
  /** Per sender and code, every receiver's rules. */
  readonly rules = new Map<string, TransferRule[]>();
  /** Per sender and code, the course's catalogue credits when its index item records them (null: not in the catalogue). */
  readonly credits = new Map<string, number | null>();
  readonly indexedPairs = new Set<string>();

  at(version: number): this {
    if (version !== this.version) {
      this.version = version;
      this.rules.clear();
      this.credits.clear();
      this.indexedPairs.clear();
    }
    if (this.rules.size > MAX_CACHED_INDEXES) [this.rules, this.credits].forEach((map) => map.clear());
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
    const indexItems = new Map(items.filter((item) => item.SK === indexSk).map((item) => [String(item.PK), item]));
    const found = new Map([...indexItems].map(([pk, item]) => [pk, rulesOf(item)]));
    if (!held) return uniqueRules(towardsReceiver([...found.values()].flat()));
    held.indexedPairs.add(pair);
    // An absent index item means the code has no rule towards any receiver.
    for (const code of missing) {
      const item = indexItems.get(catalogKeys.transferIndex(sender, code).PK);
      held.rules.set(cacheKey(code), found.get(catalogKeys.transferIndex(sender, code).PK) ?? []);
      if (item && 'catalogCredits' in item) held.credits.set(cacheKey(code), item.catalogCredits === null ? null : Number(item.catalogCredits));
    }
  }
  return uniqueRules(towardsReceiver(codes.flatMap((code) => held!.rules.get(cacheKey(code)) ?? [])));
}

/**
 * Catalogue credits of given courses as their index items record them: from the items indexedRules
 * already read (kept per catalog version), reading the others in one BatchGetItem. `checked` are the
 * codes whose items exist: they say what the catalogue had at the last rebuild (nothing without one).
 */
export async function indexedCatalogueCredits(store: Store, sender: string, codes: string[], trips: RoundTrips, catalogVersion: number): Promise<{ credits: Map<string, number>; checked: Set<string> }> {
  let cache = caches.get(store);
  if (!cache) caches.set(store, (cache = new IndexCache()));
  const held = cache.at(catalogVersion);
  const unread = codes.filter((code) => !held.rules.has(`${sender}|${code}`));
  if (unread.length) {
    const items = await getItems(store, unread.map((code) => catalogKeys.transferIndex(sender, code)), trips);
    const byPk = new Map(items.map((item) => [String(item.PK), item]));
    for (const code of unread) {
      const item = byPk.get(catalogKeys.transferIndex(sender, code).PK);
      held.rules.set(`${sender}|${code}`, item ? rulesOf(item) : []);
      if (item && 'catalogCredits' in item) held.credits.set(`${sender}|${code}`, item.catalogCredits === null ? null : Number(item.catalogCredits));
    }
  }
  const credits = new Map<string, number>();
  const checked = new Set<string>();
  for (const code of codes) {
    const key = `${sender}|${code}`;
    // An item the rebuild wrote says what the catalogue had then: its credits, null, or nothing (no catalogue loaded).
    if (!held.rules.get(key)?.length) continue;
    checked.add(code);
    const value = held.credits.get(key);
    if (value !== null && value !== undefined) credits.set(code, value);
  }
  return { credits, checked };
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
      notes: 'One item per sending course holds every active rule listing it, towards every receiver (gzipped JSON, `packedRules`), and the course\'s catalogue credits when the sender has a catalogue (`catalogCredits`, for the plausibility of rows that state none); readers keep the receiver they asked for. Without the pair\'s marker the listings are read instead. Warm processes keep the items per catalog version.',
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
      name: "Rebuild a sender's transfer indexes: the sender's catalogue credits",
      entity: ENTITY.catalogPack,
      operation: 'Query',
      index: 'GSI1',
      key: { GSI1PK: catalogKeys.institutionCatalog(SENDER) },
      usedBy: ['transfer ingestion that changed any pair of the sender (once per rebuild)'],
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
