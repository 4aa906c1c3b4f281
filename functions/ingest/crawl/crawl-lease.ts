import { CrawlBusy, readCrawlState, takeCrawlLease, type CrawlState } from '../../catalog/ingestion/crawl-store.js';
import type { Store } from '../../platform/store/dynamo-client.js';
import { ownerIsGone } from '../../platform/lease-owner.js';

/** Takes the lease, waiting for another crawl's to be given back or lapse; a dead local owner's is taken at once. */
export async function acquireLease(
  store: Store,
  source: string,
  owner: string,
  leaseMs: number,
  options: { waitForLeaseMs?: number; signal?: AbortSignal },
  now: () => Date,
  state: CrawlState,
): Promise<void> {
  const waitUntil = Date.now() + (options.waitForLeaseMs ?? leaseMs + 15_000);
  let held = state;
  for (;;) {
    // A lease held by a dead process on this machine is taken as though it had lapsed.
    const deadOwner = held.leaseOwner !== undefined && ownerIsGone(held.leaseOwner);
    const asOf = deadOwner ? (held.leaseUntil ?? 0) + 1 : now().getTime();
    try {
      await takeCrawlLease(store, source, owner, Date.now() + leaseMs, asOf);
      return;
    } catch (error) {
      if (!(error instanceof CrawlBusy) || Date.now() >= waitUntil || options.signal?.aborted) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.min(2000, Math.max(100, waitUntil - Date.now()))));
      held = await readCrawlState(store, source);
    }
  }
}

