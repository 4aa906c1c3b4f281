import { hostname } from 'node:os';
import { ulid } from 'ulid';
import { recordInstitutionFreshness } from '../../shared/catalog/institution-registry.js';
import {
  CrawlBusy,
  emptyTotals,
  readCrawlState,
  recordCrawlRun,
  releaseCrawlLease,
  saveCrawlProgress,
  type CrawlCheckpoint,
  type CrawlRunRecord,
  type CrawlRunSummary,
  type CrawlState,
  type CrawlTotals,
  type PartFreshness,
} from '../../shared/ingestion/crawl-store.js';
import type { Store } from '../../shared/store/dynamo-client.js';
import { ingestorNamed } from '../sources.js';
import { PageFailed, type PoliteClient } from './polite-client.js';
import { acquireLease } from './crawl-lease.js';
import { atOrBefore, type CrawlContext, type Crawler } from './crawler.js';

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
  const owner = `${hostname()}/${process.pid}/${runId}`;
  const leaseMs = options.leaseMs ?? 45_000;
  const run = emptyTotals();
  const errors: string[] = [];
  const requestsBefore = options.client.requests;
  let catalogChanged = false;

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
      catalogChanged,
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
  const resumed = state.crawls[crawler.crawlKey];
  const checkpoint: CrawlCheckpoint =
    resumed && resumed.status === 'running'
      ? resumed
      : {
          crawlId: runId,
          status: 'running',
          startedAt: started.toISOString(),
          updatedAt: started.toISOString(),
          position: [],
          totals: emptyTotals(),
          tally: { part: '', counts: {}, changed: false, failedUnits: 0 },
          ...(resumed?.completedAt || resumed?.lastCompletedAt ? { lastCompletedAt: resumed.completedAt ?? resumed.lastCompletedAt } : {}),
        };
  log(resumed?.status === 'running' ? 'crawl resumed' : 'crawl started', { source: crawler.source, crawlKey: crawler.crawlKey, crawlId: checkpoint.crawlId, position: checkpoint.position });

  // Saves go one after another, each with the latest checkpoint; the timer keeps the lease alive through long units.
  const finishedParts: Record<string, PartFreshness> = {};
  let saving: Promise<void> = Promise.resolve();
  let leaseLost: Error | undefined;
  const save = (last?: { lastRun: CrawlRunSummary }) => {
    saving = saving.then(async () => {
      if (leaseLost) return;
      checkpoint.updatedAt = now().toISOString();
      const parts = { ...finishedParts };
      try {
        await saveCrawlProgress(store, crawler.source, owner, Date.now() + leaseMs, crawler.crawlKey, checkpoint, parts, last ? { release: true, lastRun: last.lastRun } : {});
        for (const part of Object.keys(parts)) if (finishedParts[part] === parts[part]) delete finishedParts[part];
      } catch (error) {
        leaseLost = error as Error;
      }
    });
    return saving;
  };
  const timer = setInterval(() => void save(), options.saveEveryMs ?? 10_000);
  timer.unref?.();

  const reserve = options.unitReserveMs ?? 60_000;
  const stopCheck = (withReserve: boolean) => {
    if (options.signal?.aborted) throw new RunStopped('aborted');
    if (options.deadline !== undefined && Date.now() >= options.deadline - (withReserve ? reserve : 0)) throw new RunStopped('deadline');
    if (leaseLost) throw leaseLost;
  };
  const add = (totals: (t: CrawlTotals) => void) => {
    totals(run);
    totals(checkpoint.totals);
  };
  const context: CrawlContext = {
    store,
    client: options.client,
    page: (outcome, count = 1) => add((t) => (t.pages[outcome] += count)),
    ingest: async (source, content, origin, ingestOptions = {}) => {
      const ingestor = ingestorNamed(source);
      if (!ingestor) throw new Error(`no ingestion for source "${source}"`);
      const result = await ingestor.run(store, origin, { ...ingestOptions, content, recordFreshness: false, deferred, now });
      if (result.status === 'failed') throw new Error(`ingestion of ${origin} into ${source} failed: ${result.errors.join('; ')}`);
      add((t) => {
        t.ingestion.written += result.counts.written;
        t.ingestion.retired += result.counts.retired;
        t.ingestion.rejected += result.counts.rejected;
      });
      if (result.catalogVersion !== undefined) catalogChanged = true;
      return result;
    },
    checkContinue: () => stopCheck(false),
  };
  // Follow-up work ingestion asks for (a sender's transfer indexes), run when its part is done and at the end.
  const deferred = new Map<string, () => Promise<void>>();
  const runDeferred = async () => {
    const work = [...deferred.values()];
    deferred.clear();
    for (const item of work) await item();
  };

  let status: CrawlRunRecord['status'] = 'complete';
  let consecutiveFailures = 0;
  let lastGood = checkpoint.position;
  try {
    for await (const step of crawler.steps(checkpoint.position, context)) {
      if (atOrBefore(step.key, checkpoint.position)) continue;
      if (step.part !== checkpoint.tally.part) checkpoint.tally = { part: step.part, counts: {}, changed: false, failedUnits: 0 };
      if (step.kind === 'part-done') {
        await runDeferred();
        await completePart(store, crawler, checkpoint, state, finishedParts, now());
        checkpoint.position = step.key;
        lastGood = step.key;
        continue;
      }
      stopCheck(true);
      try {
        const result = await step.run();
        consecutiveFailures = 0;
        add((t) => (result.changed ? t.units.changed++ : t.units.unchanged++));
        for (const [name, count] of Object.entries(result.tally ?? {})) checkpoint.tally.counts[name] = (checkpoint.tally.counts[name] ?? 0) + count;
        checkpoint.tally.changed ||= result.changed;
        lastGood = step.key;
        // A unit that wrote records is saved as done at once (its writes are the expensive part to redo);
        // unchanged ones ride on the timer: an unchanged recrawl writes its checkpoint every few seconds, not per unit.
        if (result.changed) {
          checkpoint.position = step.key;
          await save();
        }
      } catch (error) {
        if (error instanceof RunStopped || error === leaseLost) throw error;
        if (error instanceof PageFailed && error.reason !== 'gave-up') throw new RunStopped(error.reason);
        consecutiveFailures++;
        add((t) => t.units.failed++);
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
    clearInterval(timer);
  }
  try {
    await runDeferred();
  } catch (error) {
    errors.push(`follow-up work: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (status === 'complete' && checkpoint.totals.units.failed > 0) status = 'failed';
  run.requests = options.client.requests - requestsBefore;
  await save({ lastRun: { runId, crawlKey: crawler.crawlKey, status, finishedAt: now().toISOString(), pages: run.pages } });
  if (leaseLost) {
    status = 'failed';
    errors.push(leaseLost.message);
    // Ours may have lapsed without anyone taking it: given back all the same, if it is still ours.
    await releaseCrawlLease(store, crawler.source, owner);
  }
  const outcome = await finish(status, checkpoint, true);
  log('crawl run ended', { source: crawler.source, status, pages: run.pages, units: run.units, ingestion: run.ingestion, position: checkpoint.position });
  return outcome;
}

/**
 * A part all of whose units were read without failure is verified now (and changed now, if any unit
 * changed); one with failures keeps its last verification. Institution freshness is written only when
 * the part changed or was never recorded: an unchanged recrawl writes no catalog item.
 */
async function completePart(store: Store, crawler: Crawler, checkpoint: CrawlCheckpoint, state: CrawlState, finished: Record<string, PartFreshness>, at: Date): Promise<void> {
  const { part, counts, changed, failedUnits } = checkpoint.tally;
  const before = finished[part] ?? state.parts[part];
  const iso = at.toISOString();
  if (failedUnits > 0) {
    if (before) finished[part] = { ...before, lastFailedAt: iso };
    return;
  }
  finished[part] = { verifiedAt: iso, changedAt: changed || !before ? iso : before.changedAt, counts, crawlId: checkpoint.crawlId };
  if (changed || !before) {
    const entries = crawler.institutionFreshness?.(part, counts) ?? [];
    for (const entry of entries) {
      await recordInstitutionFreshness(store, entry.source, new Map([[entry.institution, { records: entry.records, ...(entry.sent !== undefined ? { sent: entry.sent } : {}) }]]), iso);
    }
  }
  state.parts[part] = finished[part];
}

