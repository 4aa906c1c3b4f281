import { ulid } from 'ulid';
import { crawlSource } from '../functions/ingest/crawl/crawl-source.js';
import type { CrawlRequest } from '../functions/ingest/crawl/crawlers.js';
import { createStore, type Store } from '../functions/platform/store/dynamo-client.js';
import { startDynamoDbLocal } from '../local/dynamodb-local.js';
import { ensureTable } from '../local/ensure-table.js';
import { BctgReplay } from '../test/support/bctg-replay.js';
import type { ReplayOrigin } from '../test/support/replay-server.js';
import { SfuOutlinesReplay } from '../test/support/sfu-outlines-replay.js';
import { round } from './stats.js';

/**
 * A crawl of each replayed source into a table of its own, then a recrawl of the unchanged site: what a
 * daily crawl costs when nothing changed (the usual day) against the first crawl (the baseline of the
 * same run): time, requests, bytes the site sent, and DynamoDB writes.
 */
export async function measureCrawls(latencyMs = 20) {
  const dynamo = await startDynamoDbLocal({ inMemory: true });
  const dynamoDbEndpoint = dynamo.endpoint;
  const bctg = new BctgReplay();
  const sfu = new SfuOutlinesReplay();
  const env = { ...(await bctg.start()), ...(await sfu.start()) };
  for (const origin of [bctg.www, bctg.ws, bctg.api, sfu.site]) origin.latencyMs = latencyMs;
  try {
    return {
      siteLatencyMs: latencyMs,
      bctransferguide: await measure(dynamoDbEndpoint, env, { source: 'bctransferguide' }, [bctg.www, bctg.ws, bctg.api]),
      sfuOutlines: await measure(dynamoDbEndpoint, env, { source: 'sfu-outlines', terms: ['2026-fall', '2026-spring'] }, [sfu.site]),
    };
  } finally {
    await bctg.close();
    await sfu.close();
    await dynamo.stop();
  }
}

async function measure(endpoint: string, env: Record<string, string>, request: CrawlRequest, origins: ReplayOrigin[]) {
  const tableName = `tn-bench-crawl-${ulid()}`;
  const store = createStore({ region: 'us-west-2', tableName, dynamoDbEndpoint: endpoint });
  await ensureTable(store.client, tableName);
  try {
    const first = await once(store, env, request, origins);
    const again = await once(store, env, request, origins);
    return {
      first,
      unchangedRecrawl: again,
      recrawlVsFirst: {
        time: round(again.ms / first.ms, 2),
        requests: round(again.requests / first.requests, 2),
        bytesFromSite: round(again.bytesFromSite / Math.max(1, first.bytesFromSite), 3),
        writes: round(again.dynamoWrites / first.dynamoWrites, 4),
      },
    };
  } finally {
    store.doc.destroy();
  }
}

async function once(store: Store, env: Record<string, string>, request: CrawlRequest, origins: ReplayOrigin[]) {
  for (const origin of origins) origin.resetCounters();
  let writes = 0;
  const name = `bench-writes-${ulid()}`;
  store.doc.middlewareStack.add((next, context) => (args) => (/Put|Update|Delete|BatchWrite|TransactWrite/.test(String(context.commandName)) && writes++, next(args)), { step: 'initialize', name });
  const started = performance.now();
  try {
    const outcome = await crawlSource(store, request, { env });
    const ms = performance.now() - started;
    const answers = origins.flatMap((o) => o.log);
    return {
      status: outcome.status,
      ms: round(ms, 0),
      requests: answers.length,
      pages: outcome.run.pages,
      statuses: Object.fromEntries([...new Set(answers.map((r) => r.status))].map((s) => [String(s), answers.filter((r) => r.status === s).length])),
      bytesFromSite: answers.reduce((sum, r) => sum + (r.responseBytes ?? 0), 0),
      dynamoWrites: writes,
      written: outcome.run.ingestion.written,
      maxInFlightPerHost: Math.max(...origins.map((o) => o.maxInFlight)),
    };
  } finally {
    store.doc.middlewareStack.remove(name);
  }
}
