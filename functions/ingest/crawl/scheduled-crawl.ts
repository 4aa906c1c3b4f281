import { MetricUnit, type Metrics } from '@aws-lambda-powertools/metrics';
import { logger } from '../../platform/observability.js';
import type { Store } from '../../platform/store/dynamo-client.js';
import { crawlSource } from './crawl-source.js';
import type { CrawlOutcome } from './crawl-run.js';
import { isCrawlable } from './crawlers.js';
import { sfuTerm } from './sfu-outlines-crawler.js';

/** Time kept at the end of an invocation for the last save, the run record and the index. */
const END_RESERVE_MS = 45_000;

/**
 * One heartbeat of a crawled source in AWS: continue the crawl in progress from its checkpoint, or
 * start a new one when the last completed more than TN_CRAWL_EVERY_HOURS ago (default 24), and stop in
 * time for the function's end. TN_SFU_TERMS (`2026/fall,2027/spring`) pins SFU's terms; by default the
 * current term and later ones.
 */
export async function crawlFromSchedule(store: Store, source: string, env: Record<string, string | undefined>, endsAt: number): Promise<{ outcome: CrawlOutcome; ageHours: number }> {
  if (!isCrawlable(source)) throw new Error(`TN_CRAWL=on, but ${source} has no crawler`);
  const everyHours = Number(env.TN_CRAWL_EVERY_HOURS ?? '24');
  if (!Number.isFinite(everyHours) || everyHours <= 0) throw new Error(`TN_CRAWL_EVERY_HOURS must be a positive number of hours, got "${env.TN_CRAWL_EVERY_HOURS}"`);
  const terms = (env.TN_SFU_TERMS ?? '').split(',').map((t) => t.trim()).filter(Boolean).map((t) => {
    const term = sfuTerm(t);
    if (!term) throw new Error(`TN_SFU_TERMS: "${t}" is not an SFU term such as 2026/fall`);
    return term;
  });
  const outcome = await crawlSource(store, { source, ...(terms.length ? { terms } : {}) }, {
    env,
    deadline: endsAt - END_RESERVE_MS,
    freshFor: everyHours * 3_600_000,
    log: (message, fields) => logger.info(message, fields ?? {}),
  });
  // Never completed: as stale as the time since this crawl began.
  const ageHours = (Date.now() - Date.parse(outcome.lastCompletedAt ?? outcome.crawlStartedAt ?? outcome.startedAt)) / 3_600_000;
  return { outcome, ageHours };
}

/**
 * What the alarms watch, per source: a failed run, failed pages, and how long since the source's crawl
 * last completed (a crawl that never finishes is as stale as one that never runs).
 */
export function recordCrawlMetrics(metrics: Metrics, outcome: CrawlOutcome, ageHours: number): void {
  metrics.addDimension('source', outcome.source);
  metrics.addMetric('CrawlRunsFailed', MetricUnit.Count, outcome.status === 'failed' ? 1 : 0);
  metrics.addMetric('CrawlPagesFetched', MetricUnit.Count, outcome.run.pages.fetched);
  metrics.addMetric('CrawlPagesUnchanged', MetricUnit.Count, outcome.run.pages.unchanged);
  metrics.addMetric('CrawlPagesFailed', MetricUnit.Count, outcome.run.pages.failed);
  metrics.addMetric('CrawlAgeHours', MetricUnit.Count, Math.round(ageHours * 100) / 100);
}
