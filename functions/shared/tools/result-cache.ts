import { LRUCache } from 'lru-cache';

/**
 * Warm-process cache for cacheable tools: least-recently-used eviction and a time to live per entry
 * (lru-cache), bounded so a long-lived process cannot grow without limit.
 */
export class ResultCache {
  private readonly entries: LRUCache<string, { value: unknown }>;

  constructor(maxEntries = 2000) {
    this.entries = new LRUCache({ max: maxEntries });
  }

  get<T>(key: string): T | undefined {
    return this.entries.get(key)?.value as T | undefined;
  }

  set(key: string, value: unknown, ttlSeconds: number): void {
    // Wrapped: a cached undefined or null is still a hit, and lru-cache refuses undefined values.
    this.entries.set(key, { value }, { ttl: ttlSeconds * 1000 });
  }

  clear(): void {
    this.entries.clear();
  }
}
