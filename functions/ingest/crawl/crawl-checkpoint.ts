import { emptyTotals, saveCrawlProgress, type CrawlCheckpoint, type CrawlRunSummary, type PartFreshness } from '../../catalog/ingestion/crawl-store.js';
import type { Store } from '../../platform/store/dynamo-client.js';

/**
 * The checkpoint a run works on: the crawl in progress if there is one (a run cut short, a heartbeat
 * continuing), else a new crawl that remembers when the last one completed (the source's freshness
 * while this one runs).
 */
export function checkpointToRun(resumed: CrawlCheckpoint | undefined, runId: string, started: Date): CrawlCheckpoint {
  if (resumed?.status === 'running') return resumed;
  const lastCompletedAt = resumed?.completedAt ?? resumed?.lastCompletedAt;
  return {
    crawlId: runId,
    status: 'running',
    startedAt: started.toISOString(),
    updatedAt: started.toISOString(),
    position: [],
    totals: emptyTotals(),
    tally: { part: '', counts: {}, changed: false, failedUnits: 0 },
    ...(lastCompletedAt ? { lastCompletedAt } : {}),
  };
}

/**
 * Saves a running crawl's checkpoint, and the freshness of the parts it finished since the last save,
 * renewing the lease in the same write. Saves go one after another, each with the latest checkpoint:
 * on a timer (which keeps the lease alive through long units) and whenever the run asks. A save
 * refused because another run has taken the lease is kept in `leaseLost`; nothing is saved after it,
 * and the run stops at its next check.
 */
export class CheckpointSaver {
  /** Parts finished and not saved yet. */
  readonly finishedParts: Record<string, PartFreshness> = {};
  leaseLost?: Error;
  private saving: Promise<void> = Promise.resolve();
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly store: Store,
    private readonly target: { source: string; crawlKey: string; owner: string; leaseMs: number },
    private readonly checkpoint: CrawlCheckpoint,
    private readonly now: () => Date,
  ) {}

  /** Saves every `intervalMs` until stopped. */
  start(intervalMs: number): void {
    this.timer = setInterval(() => void this.save(), intervalMs);
    this.timer.unref?.();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** Queues a save; with `lastRun`, the run's last save, which gives the lease back in the same write. */
  save(lastRun?: CrawlRunSummary): Promise<void> {
    this.saving = this.saving.then(async () => {
      if (this.leaseLost) return;
      const { source, crawlKey, owner, leaseMs } = this.target;
      this.checkpoint.updatedAt = this.now().toISOString();
      const parts = { ...this.finishedParts };
      try {
        await saveCrawlProgress(this.store, source, owner, Date.now() + leaseMs, crawlKey, this.checkpoint, parts, lastRun ? { release: true, lastRun } : {});
        // A part finished again while this save was under way stays queued for the next one.
        for (const part of Object.keys(parts)) if (this.finishedParts[part] === parts[part]) delete this.finishedParts[part];
      } catch (error) {
        this.leaseLost = error as Error;
      }
    });
    return this.saving;
  }
}
