/** Warm-process cache for cacheable tools; bounded so a long-lived process cannot grow without limit. */
export class ResultCache {
  private readonly entries = new Map<string, { value: unknown; expiresAt: number }>();

  constructor(private readonly maxEntries = 2000) {}

  get<T>(key: string, now = Date.now()): T | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= now) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value as T;
  }

  set(key: string, value: unknown, ttlSeconds: number, now = Date.now()): void {
    if (this.entries.size >= this.maxEntries) {
      // Maps iterate in insertion order: dropping the first entry evicts the oldest.
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, { value, expiresAt: now + ttlSeconds * 1000 });
  }

  clear(): void {
    this.entries.clear();
  }
}
