import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { loadConfig, SERVICE_NAME } from '../platform/config.js';
import { Tracer } from '@aws-lambda-powertools/tracer';
import { lambdaLogger, logger } from '../platform/observability.js';
import { metrics } from '../platform/tool-metrics.js';
import { createStore } from '../platform/store/dynamo-client.js';
import { publishCatalogIndex } from '../catalog/catalog-index.js';
import { ingestorNamed } from './sources.js';
import { crawlFromSchedule, recordCrawlMetrics } from './crawl/scheduled-crawl.js';
import { loadOrigins, parseOrigins } from './scheduled-origins.js';

const store = createStore(loadConfig());

/**
 * Scheduled ingestion of one source (TN_INGEST_SOURCE) from its origins (TN_INGEST_ORIGINS: URLs, or
 * files bundled with the function, which load once per table as `npm start` loads them), then, for a
 * crawled source (TN_CRAWL=on), one run of its crawl: it continues from the checkpoint until the
 * function's time is nearly up, and the next scheduled invocation continues from there (ADR 0035).
 * A failed load throws, so EventBridge retries it and then parks the event in the dead-letter queue;
 * a failed crawl run is a metric and an alarm, since the next heartbeat retries it anyway.
 */
async function run(_event: unknown, context: Context) {
  const source = process.env.TN_INGEST_SOURCE ?? '';
  if (!ingestorNamed(source)) throw new Error(`unknown TN_INGEST_SOURCE "${source}"`);
  const origins = parseOrigins(process.env.TN_INGEST_ORIGINS, source);
  const runs = await loadOrigins(store, origins, process.env.LAMBDA_TASK_ROOT ?? process.cwd(), (run) => logger.info('ingestion run', { run }));
  let changed = runs.some((r) => r.catalogVersion !== undefined);
  const crawl = process.env.TN_CRAWL === 'on' ? await crawlFromSchedule(store, source, process.env, Date.now() + context.getRemainingTimeInMillis()) : undefined;
  if (crawl) {
    recordCrawlMetrics(metrics, crawl.outcome, crawl.ageHours);
    logger[crawl.outcome.status === 'failed' ? 'error' : 'info']('crawl run', { crawl: crawl.outcome });
    changed ||= crawl.outcome.catalogChanged;
  }
  // The runs that changed the catalog made a new version: its search index is built once, here.
  if (changed) logger.info('search index published', { index: await publishCatalogIndex(store) });
  const failed = runs.filter((r) => r.status === 'failed');
  if (failed.length) throw new Error(`${failed.length} of ${runs.length} ingestion runs failed: ${failed.map((r) => r.errors.join('; ')).join(' | ')}`);
  return {
    runs: runs.map((r) => ({ origin: r.origin, status: r.status, counts: r.counts })),
    ...(crawl ? { crawl: { status: crawl.outcome.status, pages: crawl.outcome.run.pages, position: crawl.outcome.position } } : {}),
  };
}

// A scheduled run is long and rare: its handler subsegment is worth the X-Ray SDK here.
const tracer = new Tracer({ serviceName: SERVICE_NAME, enabled: Boolean(process.env.AWS_LAMBDA_FUNCTION_NAME) });

export const handler = middy(run).use(captureLambdaHandler(tracer)).use(injectLambdaContext(lambdaLogger)).use(logMetrics(metrics));
