import { catalogCacheFor } from '../course/catalog-cache.js';
import { mergeFragments } from '../course/course-view.js';
import type { Store } from '../shared/store/dynamo-client.js';
import type { TransferRule } from './rule-model.js';
import type { RoundTrips } from './transfer-store.js';

/**
 * Credits of the given sending courses from their institution's catalogue, for the rules whose rows
 * state none (BC Transfer Guide PDF exports), so an award far larger than the course is caught there
 * too. Read only for those courses, through the catalog's per-process course cache (two queries a
 * course the first time, none after, until an ingestion changes the catalog).
 */
export async function catalogueCredits(store: Store, sender: string, codes: string[], rules: TransferRule[], trips: RoundTrips): Promise<Map<string, number>> {
  const unstated = new Set(rules.flatMap((rule) => rule.sourceCourses.filter((c) => c.institution === sender && c.credits === null).map((c) => c.code)));
  const needed = codes.filter((code) => unstated.has(code));
  const cache = catalogCacheFor(store);
  const credits = new Map<string, number>();
  await Promise.all(
    needed.map(async (code) => {
      if (!cache.holds(sender, code)) trips.count += 2;
      const bundle = await cache.getBundle(sender, code);
      const value = bundle?.fragments.length ? mergeFragments(bundle.fragments).credits : null;
      // A 0-credit catalogue entry (a lab, a co-op term) is no basis for a ratio.
      if (typeof value === 'number' && value > 0) credits.set(code, value);
    }),
  );
  return credits;
}
