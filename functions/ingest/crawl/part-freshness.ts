import { recordInstitutionFreshness } from '../../catalog/institution-registry.js';
import type { CrawlCheckpoint, PartFreshness } from '../../catalog/ingestion/crawl-store.js';
import type { Store } from '../../platform/store/dynamo-client.js';
import type { Crawler } from './crawler.js';

/**
 * A part (a sender, a term) every unit of which was offered: verified now if none failed (and changed
 * now, if any unit wrote), else it keeps its last verification and notes the failure. Institution
 * freshness is written only when the part changed or was never recorded: an unchanged recrawl writes
 * no catalog item. The result goes into `finished` (saved with the next checkpoint) and `known`.
 */
export async function completePart(
  store: Store,
  crawler: Crawler,
  checkpoint: CrawlCheckpoint,
  known: Record<string, PartFreshness>,
  finished: Record<string, PartFreshness>,
  at: Date,
): Promise<void> {
  const { part, counts, changed, failedUnits } = checkpoint.tally;
  const before = finished[part] ?? known[part];
  const iso = at.toISOString();
  if (failedUnits > 0) {
    if (before) finished[part] = { ...before, lastFailedAt: iso };
    return;
  }
  finished[part] = { verifiedAt: iso, changedAt: changed || !before ? iso : before.changedAt, counts, crawlId: checkpoint.crawlId };
  if (changed || !before) {
    for (const entry of crawler.institutionFreshness?.(part, counts) ?? []) {
      const seen = { records: entry.records, ...(entry.sent !== undefined ? { sent: entry.sent } : {}) };
      await recordInstitutionFreshness(store, entry.source, new Map([[entry.institution, seen]]), iso);
    }
  }
  known[part] = finished[part];
}
