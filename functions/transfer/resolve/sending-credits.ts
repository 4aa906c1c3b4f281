import { catalogCacheFor } from '../../catalog/catalog-cache.js';
import type { Store } from '../../platform/store/dynamo-client.js';
import type { TransferRule } from '../rule-model.js';
import type { RoundTrips } from '../transfer-store.js';

/**
 * Credits of the given sending courses from their institution's catalogue, for the rules whose rows
 * state none (BC Transfer Guide PDF exports), so an award far larger than the course is caught there
 * too: from the catalog's search index of the current version, which a warm process holds (loaded once:
 * its manifest and parts, two requests). A course the catalogue does not list (or lists at 0 credits)
 * takes what the sender's other rows state.
 */
export async function catalogueCredits(store: Store, sender: string, codes: string[], rules: TransferRule[], trips: RoundTrips): Promise<Map<string, number>> {
  const unstated = new Set(rules.flatMap((rule) => rule.sourceCourses.filter((c) => c.institution === sender && c.credits === null).map((c) => c.code)));
  const needed = codes.filter((code) => unstated.has(code));
  const credits = new Map<string, number>();
  if (!needed.length) return credits;
  const cache = catalogCacheFor(store);
  if (!cache.holdsIndex()) trips.count += 2;
  const index = await cache.getIndex();
  const stated = statedCredits(rules, sender);
  for (const code of needed) {
    const value = index.courseByRef(`${sender}:${code}`)?.credits;
    // A 0-credit catalogue entry (a lab, a co-op term) is no basis for a ratio.
    if (typeof value === 'number' && value > 0) credits.set(code, value);
    else if (stated.has(code)) credits.set(code, stated.get(code)!);
  }
  return credits;
}

/** The credits the sender's own rows state for each of its courses (the most frequent value), from rules that state them. */
export function statedCredits(rules: TransferRule[], sender: string): Map<string, number> {
  const counts = new Map<string, Map<number, number>>();
  for (const rule of rules) {
    for (const c of rule.sourceCourses) {
      if (c.institution !== sender || c.credits === null || c.credits <= 0) continue;
      const byValue = counts.get(c.code) ?? counts.set(c.code, new Map()).get(c.code)!;
      byValue.set(c.credits, (byValue.get(c.credits) ?? 0) + 1);
    }
  }
  return new Map([...counts].map(([code, byValue]) => [code, [...byValue].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]![0]]));
}
