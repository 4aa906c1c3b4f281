import type { Store } from '../../platform/store/dynamo-client.js';
import { createCrawler, type CrawlRequest } from './crawlers.js';
import { runCrawl, type CrawlOutcome, type CrawlRunOptions } from './crawl-run.js';
import type { PoliteClientOptions } from './polite-client.js';

export interface CrawlSourceOptions extends Omit<CrawlRunOptions, 'client'> {
  env?: Record<string, string | undefined>;
  /** Client settings beyond the environment's (tests shorten timeouts and backoffs). */
  client?: Omit<PoliteClientOptions, 'allowedOrigins' | 'deadline' | 'signal'>;
}

/** One run of a source's crawl, from the CLI or the scheduled function: the client shares the run's deadline and stop signal. */
export function crawlSource(store: Store, request: CrawlRequest, options: CrawlSourceOptions = {}): Promise<CrawlOutcome> {
  const { env = process.env, client: clientOptions, ...run } = options;
  // The client stops a little before the run does, so the run always has time to save where it is.
  const { crawler, client } = createCrawler(store, request, env, {
    ...clientOptions,
    signal: run.signal,
    ...(run.deadline !== undefined ? { deadline: run.deadline - 5_000 } : {}),
  });
  return runCrawl(store, crawler, { ...run, client });
}

export function describeCrawlRun(outcome: CrawlOutcome): string {
  const { pages, units, ingestion, requests } = outcome.run;
  const head = `${outcome.source} crawl ${outcome.crawlKey}: ${outcome.status} in ${(outcome.durationMs / 1000).toFixed(1)} s`;
  if (outcome.status === 'fresh') return `${head} (the last crawl completed at ${outcome.crawl === undefined ? '?' : outcome.finishedAt}; nothing to do)`;
  const lines = [
    head,
    `  pages: ${pages.fetched} fetched, ${pages.unchanged} unchanged, ${pages.failed} failed, ${pages.missing} missing (${requests} requests)`,
    `  units: ${units.changed} changed, ${units.unchanged} unchanged, ${units.failed} failed; ${ingestion.written} written, ${ingestion.retired} retired, ${ingestion.rejected} quarantined`,
  ];
  if (outcome.status === 'paused') lines.push(`  stopped after ${outcome.position.join(' ') || 'the start'}; run again to resume`);
  if (outcome.errors.length) lines.push(...outcome.errors.map((error) => `  error: ${error}`));
  lines.push(`  run ${outcome.runId} of crawl ${outcome.crawlId}`);
  return lines.join('\n');
}
