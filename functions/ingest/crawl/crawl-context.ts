import type { CrawlTotals } from '../../catalog/ingestion/crawl-store.js';
import type { Store } from '../../platform/store/dynamo-client.js';
import { ingestorNamed } from '../sources.js';
import type { CrawlContext } from './crawler.js';
import type { PoliteClient } from './polite-client.js';

/** What the run gives a crawler's units: where to count, and how to tell whether to go on. */
export interface ContextSettings {
  store: Store;
  client: PoliteClient;
  now: () => Date;
  /** Adds to the run's counts and the crawl's (every run of it). */
  count: (change: (totals: CrawlTotals) => void) => void;
  /** Throws when the run must stop before starting more work. */
  checkContinue: () => void;
}

export interface RunContext {
  context: CrawlContext;
  /** Whether any ingestion wrote: the search index needs publishing. */
  catalogChanged(): boolean;
}

/**
 * The context a crawler's units work in: pages counted, fetched content handed to its source's
 * ingestion (the existing adapters, as one run each), with the institution freshness left to the
 * crawl's parts.
 */
export function crawlContext(settings: ContextSettings): RunContext {
  const { store, client, now, count } = settings;
  let changed = false;
  const context: CrawlContext = {
    store,
    client,
    page: (outcome, n = 1) => count((totals) => (totals.pages[outcome] += n)),
    ingest: async (source, content, origin, options = {}) => {
      const ingestor = ingestorNamed(source);
      if (!ingestor) throw new Error(`no ingestion for source "${source}"`);
      const result = await ingestor.run(store, origin, { ...options, content, recordFreshness: false, now });
      if (result.status === 'failed') throw new Error(`ingestion of ${origin} into ${source} failed: ${result.errors.join('; ')}`);
      count((totals) => {
        totals.ingestion.written += result.counts.written;
        totals.ingestion.retired += result.counts.retired;
        totals.ingestion.rejected += result.counts.rejected;
      });
      if (result.catalogVersion !== undefined) changed = true;
      return result;
    },
    checkContinue: settings.checkContinue,
  };
  return {
    context,
    catalogChanged: () => changed,
  };
}
