import path from 'node:path';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';
import middy from '@middy/core';
import { loadConfig, SERVICE_NAME } from '../shared/config.js';
import { Tracer } from '@aws-lambda-powertools/tracer';
import { lambdaLogger, logger, metrics } from '../shared/observability.js';
import { createStore } from '../shared/store/dynamo-client.js';
import { publishCatalogIndex } from '../course/catalog-index.js';
import { ingestorNamed } from './sources.js';

const store = createStore(loadConfig());

/**
 * Scheduled ingestion of one source (TN_INGEST_SOURCE) from its origins (TN_INGEST_ORIGINS, a JSON
 * array of URLs or paths relative to the bundle, where the sample data is copied). A failed run
 * throws, so EventBridge retries it and then parks the event in the dead-letter queue.
 */
async function run() {
  const ingestor = ingestorNamed(process.env.TN_INGEST_SOURCE ?? '');
  if (!ingestor) throw new Error(`unknown TN_INGEST_SOURCE "${process.env.TN_INGEST_SOURCE}"`);
  const origins = JSON.parse(process.env.TN_INGEST_ORIGINS ?? '[]') as string[];
  const root = process.env.LAMBDA_TASK_ROOT ?? process.cwd();
  const runs = [];
  for (const origin of origins) {
    const resolved = /^https?:\/\//.test(origin) ? origin : path.join(root, origin);
    const result = await ingestor.run(store, resolved);
    logger.info('ingestion run', { run: result });
    runs.push(result);
  }
  // The runs that changed the catalog made a new version: its search index is built once, here.
  if (runs.some((r) => r.catalogVersion !== undefined)) logger.info('search index published', { index: await publishCatalogIndex(store) });
  const failed = runs.filter((r) => r.status === 'failed');
  if (failed.length) throw new Error(`${failed.length} of ${runs.length} ingestion runs failed: ${failed.map((r) => r.errors.join('; ')).join(' | ')}`);
  return { runs: runs.map((r) => ({ origin: r.origin, status: r.status, counts: r.counts })) };
}

// A scheduled run is long and rare: its handler subsegment is worth the X-Ray SDK here.
const tracer = new Tracer({ serviceName: SERVICE_NAME, enabled: Boolean(process.env.AWS_LAMBDA_FUNCTION_NAME) });

export const handler = middy(run).use(captureLambdaHandler(tracer)).use(injectLambdaContext(lambdaLogger)).use(logMetrics(metrics));
