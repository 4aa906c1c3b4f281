import { ulid } from 'ulid';
import {
  CrawlBusy,
  emptyTotals,
  readCrawlState,
  recordCrawlRun,
  releaseCrawlLease,
  type CrawlCheckpoint,
  type CrawlRunRecord,
  type CrawlTotals,
} from '../../catalog/ingestion/crawl-store.js';
import type { Store } from '../../platform/store/dynamo-client.js';
import { CheckpointSaver, checkpointToRun } from './crawl-checkpoint.js';
import { crawlContext } from './crawl-context.js';
import { acquireLease } from './crawl-lease.js';
import { atOrBefore, type Crawler } from './crawler.js';
import { completePart } from './part-freshness.js';
import { PageFailed, type PoliteClient } from './polite-client.js';
import { leaseOwnerFor } from '../../platform/lease-owner.js';

export interface CrawlRunOptions {
  client: PoliteClient;
  now?: () => Date;
  /** Epoch ms: no unit starts after `deadline - unitReserveMs`, and the run ends with time to save. */
  deadline?: number;
  /** Stops the run as if its deadline had come (Ctrl-C, a test cutting a crawl short). */
  signal?: AbortSignal;
  /** A completed crawl younger than this is not started again (the scheduled function's heartbeat). */
  freshFor?: number;
  /** How often the checkpoint is saved (and the lease renewed). @default 10 s */
  saveEveryMs?: number;
  /** How long the lease holds without renewal. @default 45 s */
  leaseMs?: number;
  /** How long to wait for another crawl's lease before giving up. @default leaseMs + 15 s */
  waitForLeaseMs?: number;
  /** Consecutive failed units after which the run stops (the site is down, the nonce is refused). @default 5 */
  maxConsecutiveFailures?: number;
  /** Time kept free before the deadline for one more unit. @default 60 s */
  unitReserveMs?: number;
  log?: (message: string, fields?: Record<string, unknown>) => void;
}

export interface CrawlOutcome extends CrawlRunRecord {
  /** Set when the run ingested anything: the search index needs publishing. */
  catalogChanged: boolean;
  /** When this crawl (its key) last completed, this run's crawl or an earlier one; absent if never. */
  lastCompletedAt?: string;
  /** When the crawl this run belongs to began. */
  crawlStartedAt?: string;
}

/** The run stops where it is, to be resumed: its deadline came, or it was cut short. */
class RunStopped extends Error {
  constructor(readonly why: 'deadline' | 'aborted') {
    super(why);
  }
}

const MAX_ERRORS = 20;

/**
 * One run of a crawl: takes the source's lease, resumes the crawl's checkpoint (or starts a new crawl),
 * runs units in order until the crawl ends, the deadline nears, it is cut short, or units keep
 * failing; saves the checkpoint every few seconds and at the end, and leaves a run record whatever
 * happened. Units are whole: one cut short is done again by the next run.
 */
export async function runCrawl(store: Store, crawler: Crawler, options: CrawlRunOptions): Promise<CrawlOutcome> {
  const now = options.now ?? (() => new Date());
  const log = options.log ?? (() => undefined);
  const started = now();
  const runId = ulid(started.getTime());
  const owner = leaseOwnerFor(runId);
  const leaseMs = options.leaseMs ?? 45_000;
  const run = emptyTotals();
  const errors: string[] = [];
  const requestsBefore = options.client.requests;
  let catalogChanged = () => false;

  const finish = async (status: CrawlRunRecord['status'], checkpoint: CrawlCheckpoint | undefined, persist: boolean): Promise<CrawlOutcome> => {
    const finished = now();
    run.requests = options.client.requests - requestsBefore;
    const record: CrawlOutcome = {
      runId,
      source: crawler.source,
      crawlKey: crawler.crawlKey,
      crawlId: checkpoint?.crawlId ?? '',
      status,
      startedAt: started.toISOString(),
      finishedAt: finished.toISOString(),
      durationMs: finished.getTime() - started.getTime(),
      run,
      crawl: checkpoint?.totals ?? emptyTotals(),
      position: checkpoint?.position ?? [],
      errors: errors.slice(0, MAX_ERRORS),
      catalogChanged: catalogChanged(),
    };
    if (persist) await recordCrawlRun(store, record);
    const lastCompletedAt = checkpoint?.completedAt ?? checkpoint?.lastCompletedAt;
    return { ...record, ...(lastCompletedAt ? { lastCompletedAt } : {}), ...(checkpoint ? { crawlStartedAt: checkpoint.startedAt } : {}) };
  };

  // An idle heartbeat reads one item and writes nothing.
  const before = await readCrawlState(store, crawler.source);
  const previous = before.crawls[crawler.crawlKey];
  if (previous?.status === 'complete' && options.freshFor !== undefined && Date.parse(previous.completedAt ?? previous.updatedAt) + options.freshFor > started.getTime()) {
    return finish('fresh', previous, false);
  }
  try {
    await acquireLease(store, crawler.source, owner, leaseMs, options, now, before);
  } catch (error) {
    if (!(error instanceof CrawlBusy)) throw error;
    errors.push(error.message);
    return finish('busy', previous, true);
  }

  const state = await readCrawlState(store, crawler.source);
  const checkpoint = checkpointToRun(state.crawls[crawler.crawlKey], runId, started);
  const resuming = checkpoint.crawlId !== runId;
  log(resuming ? 'crawl resumed' : 'crawl started', { source: crawler.source, crawlKey: crawler.crawlKey, crawlId: checkpoint.crawlId, position: checkpoint.position });

  const saver = new CheckpointSaver(store, { source: crawler.source, crawlKey: crawler.crawlKey, owner, leaseMs }, checkpoint, now);
  saver.start(options.saveEveryMs ?? 10_000);
  const reserve = options.unitReserveMs ?? 60_000;
  const stopCheck = (withReserve: boolean) => {
    if (options.signal?.aborted) throw new RunStopped('aborted');
    if (options.deadline !== undefined && Date.now() >= options.deadline - (withReserve ? reserve : 0)) throw new RunStopped('deadline');
    if (saver.leaseLost) throw saver.leaseLost;
  };
  const count = (change: (totals: CrawlTotals) => void) => {
    change(run);
    change(checkpoint.totals);
  };
  const work = crawlContext({ store, client: options.client, now, count, checkContinue: () => stopCheck(false) });
  catalogChanged = work.catalogChanged;

  let status: CrawlRunRecord['status'] = 'complete';
  let consecutiveFailures = 0;
  let lastGood = checkpoint.position;
  try {
    for await (const step of crawler.steps(checkpoint.position, work.context)) {
      if (atOrBefore(step.key, checkpoint.position)) continue;
      if (step.part !== checkpoint.tally.part) checkpoint.tally = { part: step.part, counts: {}, changed: false, failedUnits: 0 };
      if (step.kind === 'part-done') {
        await completePart(store, crawler, checkpoint, state.parts, saver.finishedParts, now());
        checkpoint.position = lastGood = step.key;
        continue;
      }
      stopCheck(true);
      try {
        const result = await step.run();
        consecutiveFailures = 0;
        count((t) => (result.changed ? t.units.changed++ : t.units.unchanged++));
        for (const [name, n] of Object.entries(result.tally ?? {})) checkpoint.tally.counts[name] = (checkpoint.tally.counts[name] ?? 0) + n;
        checkpoint.tally.changed ||= result.changed;
        lastGood = step.key;
        // A unit that wrote records is saved as done at once (its writes are the expensive part to redo);
        // unchanged ones ride on the timer: an unchanged recrawl writes its checkpoint every few seconds, not per unit.
        if (result.changed) {
          checkpoint.position = step.key;
          await saver.save();
        }
      } catch (error) {
        if (error instanceof RunStopped || error === saver.leaseLost) throw error;
        if (error instanceof PageFailed && error.reason !== 'gave-up') throw new RunStopped(error.reason);
        consecutiveFailures++;
        count((t) => t.units.failed++);
        checkpoint.tally.failedUnits++;
        errors.push(`${step.label}: ${error instanceof Error ? error.message : String(error)}`);
        log('crawl unit failed', { source: crawler.source, unit: step.label, error: errors.at(-1) });
        if (consecutiveFailures >= (options.maxConsecutiveFailures ?? 5)) {
          // The source is failing as a whole: the next run starts again at the first unit of this streak.
          checkpoint.position = lastGood;
          status = 'failed';
          break;
        }
      }
      checkpoint.position = step.key;
    }
    if (status === 'complete') {
      checkpoint.status = 'complete';
      checkpoint.completedAt = now().toISOString();
    }
  } catch (error) {
    if (error instanceof RunStopped) status = 'paused';
    else {
      status = 'failed';
      errors.push(error instanceof Error ? error.message : String(error));
    }
  } finally {
    saver.stop();
  }
  if (status === 'complete' && checkpoint.totals.units.failed > 0) status = 'failed';
  run.requests = options.client.requests - requestsBefore;
  await saver.save({ runId, crawlKey: crawler.crawlKey, status, finishedAt: now().toISOString(), pages: run.pages });
  if (saver.leaseLost) {
    status = 'failed';
    errors.push(saver.leaseLost.message);
    // Ours may have lapsed without anyone taking it: given back all the same, if it is still ours.
    await releaseCrawlLease(store, crawler.source, owner);
  }
  const outcome = await finish(status, checkpoint, true);
  log('crawl run ended', { source: crawler.source, status, pages: run.pages, units: run.units, ingestion: run.ingestion, position: checkpoint.position });
  return outcome;
}
