import type { Store } from '../platform/store/dynamo-client.js';
import { catalogIndexFor, type SearchIndex } from './catalog-index.js';
import { getCatalogVersion, getCourseBundle, type CourseBundle } from './catalog-store.js';

// How stale a warm process may be after an ingestion; TN_CATALOG_VERSION_CHECK_MS=0 checks on every read (tests).
const versionCheckMs = () => Number(process.env.TN_CATALOG_VERSION_CHECK_MS ?? 5_000);
const MAX_BUNDLES = 1_000;

/**
 * Per warm process: the search index and recently read course bundles, both dropped when the
 * catalog version changes (every ingestion run that changes something bumps it). The version is
 * re-read at most every few seconds, so a hot path costs no extra round trip.
 */
export class CatalogCache {
  private version = -1;
  private versionCheckedAt = 0;
  private index?: Promise<SearchIndex>;
  private readonly bundles = new Map<string, Promise<CourseBundle | undefined>>();

  constructor(private readonly store: Store) {}

  async currentVersion(now = Date.now()): Promise<number> {
    if (now - this.versionCheckedAt >= versionCheckMs()) {
      const version = await getCatalogVersion(this.store);
      this.versionCheckedAt = now;
      if (version !== this.version) {
        this.version = version;
        this.index = undefined;
        this.bundles.clear();
      }
    }
    return this.version;
  }

  async getIndex(): Promise<SearchIndex> {
    const version = await this.currentVersion();
    this.index ??= catalogIndexFor(this.store, version).catch((error: unknown) => {
      this.index = undefined;
      throw error;
    });
    return this.index;
  }

  async getBundle(institution: string, code: string): Promise<CourseBundle | undefined> {
    await this.currentVersion();
    const key = `${institution}:${code}`;
    let bundle = this.bundles.get(key);
    if (!bundle) {
      if (this.bundles.size >= MAX_BUNDLES) this.bundles.delete(this.bundles.keys().next().value!);
      bundle = getCourseBundle(this.store, institution, code).catch((error: unknown) => {
        this.bundles.delete(key);
        throw error;
      });
      this.bundles.set(key, bundle);
    }
    return bundle;
  }

  /** Whether the search index of the current version is loaded (or loading): a caller counting store round trips asks. */
  holdsIndex(): boolean {
    return this.index !== undefined;
  }

  /** Whether a course's bundle is already read (or being read) for the current version: a caller counting store round trips asks. */
  holds(institution: string, code: string): boolean {
    return this.bundles.has(`${institution}:${code}`);
  }

  /** Forces the next read to check the version (tests, and right after an ingestion in-process). */
  invalidate(): void {
    this.versionCheckedAt = 0;
  }
}

const caches = new WeakMap<Store, CatalogCache>();

export function catalogCacheFor(store: Store): CatalogCache {
  let cache = caches.get(store);
  if (!cache) {
    cache = new CatalogCache(store);
    caches.set(store, cache);
  }
  return cache;
}
