import { activeRowsOf } from '../catalog/ingestion/aggregates.js';
import { declareAccessPatterns, param } from '../platform/store/access-patterns.js';
import { getAll } from '../platform/store/batch-reads.js';
import type { Store } from '../platform/store/dynamo-client.js';
import { catalogKeys, ENTITY } from '../platform/store/keys.js';
import type { TransferRule } from './rule-model.js';
import { TRANSFER_SOURCE } from './transfer-source.js';
import type { RoundTrips } from './transfer-store.js';

const MAX_CACHED_COURSES = 20_000;

/** Rules per sending course a warm process has read, dropped whenever the catalog version moves (an ingestion changed something). */
class IndexCache {
  version = -1;
  readonly rules = new Map<string, TransferRule[]>();

  at(version: number): this {
    if (version !== this.version || this.rules.size > MAX_CACHED_COURSES) {
      this.version = version;
      this.rules.clear();
    }
    return this;
  }
}

const caches = new WeakMap<Store, IndexCache>();

/**
 * The transfer index: every active rule listing any of these sending courses, towards one receiver or
 * all, history included. Each sending course's rules towards every receiver are one item of its own
 * partition, written by the ingestion run itself; up to 100 courses are one BatchGetItem, and a warm
 * process keeps what it read for the catalog version. An absent item means the course has no rule.
 */
export async function indexedRules(store: Store, sender: string, receiver: string | undefined, codes: string[], trips: RoundTrips, catalogVersion: number): Promise<TransferRule[]> {
  let cache = caches.get(store);
  if (!cache) caches.set(store, (cache = new IndexCache()));
  const held = cache.at(catalogVersion);
  const cacheKey = (code: string) => `${sender}|${code}`;
  const missing = [...new Set(codes)].filter((code) => !held.rules.has(cacheKey(code)));
  if (missing.length) {
    const items = await getAll(
      store,
      missing.map((code) => catalogKeys.courseTransfersOut(sender, code, TRANSFER_SOURCE)),
      () => trips.count++,
    );
    const byPk = new Map(items.map((item) => [String(item.PK), item]));
    for (const code of missing) {
      const item = byPk.get(catalogKeys.coursePartition(sender, code));
      held.rules.set(cacheKey(code), item ? activeRowsOf(item).map((row) => row.rule as TransferRule) : []);
    }
  }
  const found = codes.flatMap((code) => held.rules.get(cacheKey(code)) ?? []).filter((rule) => receiver === undefined || rule.receiverInstitution === receiver);
  return [...new Map(found.map((rule) => [rule.ruleId, rule])).values()];
}

export const ACCESS_PATTERNS = /* @__PURE__ */ declareAccessPatterns(() => [
  {
    name: "Sending courses' rules towards every receiver, in bulk (the transfer index)",
    entity: ENTITY.courseTransfers,
    operation: 'BatchGetItem',
    index: 'table',
    key: catalogKeys.courseTransfersOut(param('sender'), param('code'), param('source')),
    usedBy: [
      "tn_transfer_resolve (the given courses, then the one-digit neighbours of uncovered ones)",
      'tn_transfer_compare (every receiver)',
    ],
    notes: 'One item per sending course in its own partition holds every rule listing it (gzipped rows, history included; readers keep the active ones and the receiver they asked for). Up to 100 keys a request; warm processes keep the rules per catalog version.',
  },
]);
