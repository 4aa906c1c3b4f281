/**
 * Warm-process cache for cacheable tools: least-recently-used eviction and a time to live per entry,
 * bounded so a long-lived process cannot grow without limit. A Map keeps insertion order, so reading
 * an entry moves it to the end and the first key is always the least recently used: the few lines
 * here do what the tools need, and keep a general-purpose cache library out of every Lambda bundle.
 */
export class ResultCache {
  private readonly entries = new Map<string, { value: unknown; expiresAt: number }>();

  constructor(
    private readonly maxEntries = 2000,
    private readonly now: () => number = Date.now,
  ) {}

  get<T>(key: string): T | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.expiresAt <= this.now()) return undefined;
    this.entries.set(key, entry);
    return entry.value as T;
  }

  /** A cached undefined or null is still a hit. */
  set(key: string, value: unknown, ttlSeconds: number): void {
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAt: this.now() + ttlSeconds * 1000 });
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }

  clear(): void {
    this.entries.clear();
  }
}
