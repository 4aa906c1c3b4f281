import { catalogCacheFor } from '../../catalog/catalog-cache.js';
import { mergeFragments } from '../../catalog/course-view.js';
import type { Store } from '../../platform/store/dynamo-client.js';
import type { TransferRule } from '../rule-model.js';
import { indexedCatalogueCredits } from '../transfer-index-store.js';
import type { RoundTrips } from '../transfer-store.js';

/**
 * Credits of the given sending courses from their institution's catalogue, for the rules whose rows
 * state none (BC Transfer Guide PDF exports), so an award far larger than the course is caught there
 * too. The sender's transfer indexes record them (read with the rules, or in one batch); only courses
 * whose index items say nothing (a pair not indexed yet) are read from the catalog, through its
 * per-process course cache (two queries a course the first time, none after).
 */
export async function catalogueCredits(store: Store, sender: string, codes: string[], rules: TransferRule[], trips: RoundTrips, catalogVersion: number): Promise<Map<string, number>> {
  const unstated = new Set(rules.flatMap((rule) => rule.sourceCourses.filter((c) => c.institution === sender && c.credits === null).map((c) => c.code)));
  const needed = codes.filter((code) => unstated.has(code));
  if (!needed.length) return new Map();
  const { credits, checked } = await indexedCatalogueCredits(store, sender, needed, trips, catalogVersion);
  // Without a catalogue entry, what the sender's other rows say the course is worth (a bundle row states each course's credits).
  const stated = statedCredits(rules, sender);
  for (const code of needed) if (!credits.has(code) && stated.has(code)) credits.set(code, stated.get(code)!);
  const cache = catalogCacheFor(store);
  await Promise.all(
    needed
      .filter((code) => !checked.has(code) && !credits.has(code))
      .map(async (code) => {
        if (!cache.holds(sender, code)) trips.count += 2;
        const bundle = await cache.getBundle(sender, code);
        const value = bundle?.fragments.length ? mergeFragments(bundle.fragments).credits : null;
        // A 0-credit catalogue entry (a lab, a co-op term) is no basis for a ratio.
        if (typeof value === 'number' && value > 0) credits.set(code, value);
      }),
  );
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
