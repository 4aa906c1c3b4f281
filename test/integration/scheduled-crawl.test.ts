import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { unrecorded } from '../support/store/command-recorder.js';
import { createStore, type Store } from '../../functions/platform/store/dynamo-client.js';
import { crawlKeys } from '../../functions/platform/store/keys.js';
import { ensureTable } from '../../local/ensure-table.js';
import { lambdaContext } from '../support/lambda-runtime.js';
import { commandsDuring } from '../support/store-commands.js';
import { SfuOutlinesReplay } from '../support/sfu-outlines-replay.js';

/**
 * The scheduled function of a crawled source, in-process as Lambda runs it: each heartbeat loads the
 * bundled sample once, then continues (or starts) the crawl; a heartbeat with a fresh crawl does nothing.
 */
let replay: SfuOutlinesReplay;
let store: Store;
let handler: (event: unknown, context: unknown) => Promise<any>;
const saved = { ...process.env };

beforeAll(async () => {
  replay = new SfuOutlinesReplay();
  const origins = await replay.start();
  const tableName = `tn-scheduled-crawl-${ulid()}`;
  Object.assign(process.env, {
    ...origins,
    TN_DYNAMODB_ENDPOINT: inject('dynamoDbEndpoint'),
    TN_TABLE_NAME: tableName,
    TN_INGEST_SOURCE: 'sfu-outlines',
    // A small shipped file of the sections source, loaded before the crawl as the deployed function does.
    TN_INGEST_ORIGINS: JSON.stringify([{ source: 'sfu-sections', origin: 'data/sample/sfu-outlines/sections-2026-spring.json' }]),
    TN_CRAWL: 'on',
    TN_CRAWL_EVERY_HOURS: '24',
    TN_SFU_TERMS: '2026/fall',
    TN_CRAWL_BACKOFF_MS: '20',
  });
  store = createStore({ region: 'us-west-2', tableName, dynamoDbEndpoint: inject('dynamoDbEndpoint') });
  await ensureTable(store.client, tableName);
  vi.resetModules();
  ({ handler } = (await import('../../functions/ingest/handler.js')) as { handler: typeof handler });
});
afterAll(async () => {
  process.env = saved;
  store?.doc.destroy();
  await replay?.close();
});

const context = () => ({ ...lambdaContext(), getRemainingTimeInMillis: () => 14 * 60_000 });

describe('the scheduled crawl function', () => {
  it('loads its bundled file once, crawls to completion, and idles while the crawl is fresh', async () => {
    const first = await handler({}, context());
    expect(first.runs.map((r: { status: string }) => r.status)).toEqual(['succeeded']);
    expect(first.crawl).toMatchObject({ status: 'complete', pages: { failed: 0, missing: 1 } });

    replay.site.resetCounters();
    const { result: idle, sent } = await commandsDuring(store, () => handler({}, context()));
    // The file is not loaded again, the crawl is fresh: one read of the crawl state's markers and state, no request, no write.
    expect(idle.runs).toEqual([]);
    expect(idle.crawl.status).toBe('fresh');
    expect(replay.site.log).toHaveLength(0);
    expect(sent.filter((c) => !/Get|Query/.test(c))).toEqual([]);
  }, 120_000);

  it('starts the next crawl when the last one is older than TN_CRAWL_EVERY_HOURS, and it is all 304s', async () => {
    process.env.TN_CRAWL_EVERY_HOURS = '0.00001';
    await new Promise((resolve) => setTimeout(resolve, 100));
    try {
      replay.site.resetCounters();
      const next = await handler({}, context());
      expect(next.crawl.status).toBe('complete');
      expect(next.crawl.pages.fetched).toBe(0);
      expect(replay.site.log.filter((r) => r.status === 200)).toEqual([]);
      const runs = await unrecorded(() =>
        store.doc.send(new QueryCommand({ TableName: store.tableName, KeyConditionExpression: 'PK = :pk AND begins_with(SK, :run)', ExpressionAttributeValues: { ':pk': 'INGEST#sfu-outlines', ':run': crawlKeys.runPrefix } })),
      );
      expect(runs.Items?.map((r) => r.status)).toEqual(['complete', 'complete']);
    } finally {
      process.env.TN_CRAWL_EVERY_HOURS = '24';
    }
  }, 120_000);

  it("stops a unit short of the function's time, saving where it is, and the next heartbeat continues from there", async () => {
    // A table of its own: this crawl starts from nothing.
    const tableName = `tn-scheduled-crawl-${ulid()}`;
    await ensureTable(store.client, tableName);
    process.env.TN_TABLE_NAME = tableName;
    vi.resetModules();
    const { handler: heartbeat } = (await import('../../functions/ingest/handler.js')) as { handler: typeof handler };
    const budget = 14 * 60_000;
    // Only Date is faked (sockets and timers run as usual): the clock jumps once MACM, the first department, is under way,
    // to 30 s before the run's deadline: MACM may finish, no unit may start after it.
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    const startedAt = Date.now();
    let jumped = false;
    replay.site.resetCounters();
    replay.site.onRequest = (request) => {
      if (jumped || !request.url.includes('?2026/fall/macm/')) return;
      jumped = true;
      vi.setSystemTime(startedAt + budget - 45_000 - 30_000);
    };
    let first;
    try {
      first = await heartbeat({}, { ...lambdaContext(), getRemainingTimeInMillis: () => budget });
    } finally {
      vi.useRealTimers();
      replay.site.onRequest = undefined;
    }
    expect(jumped).toBe(true);
    expect(first.crawl.status).toBe('paused');
    expect(first.crawl.position).toEqual([expect.any(String), 'macm']);
    expect(replay.site.log.some((r) => r.url.includes('?2026/fall/stat'))).toBe(false);

    replay.site.resetCounters();
    const second = await heartbeat({}, context());
    expect(second.crawl.status).toBe('complete');
    // MACM was saved as done: the next heartbeat starts at STAT and never asks for MACM again.
    expect(replay.site.log.some((r) => r.url.includes('?2026/fall/macm'))).toBe(false);
    expect(replay.site.log.some((r) => r.url.includes('?2026/fall/stat/'))).toBe(true);
    const runs = await unrecorded(() =>
      store.doc.send(new QueryCommand({ TableName: tableName, KeyConditionExpression: 'PK = :pk AND begins_with(SK, :run)', ExpressionAttributeValues: { ':pk': 'INGEST#sfu-outlines', ':run': crawlKeys.runPrefix } })),
    );
    // Two runs of one crawl.
    expect(runs.Items?.map((r) => r.status)).toEqual(['paused', 'complete']);
    expect(new Set(runs.Items?.map((r) => r.crawlId)).size).toBe(1);
  }, 120_000);

  it('reports a failed crawl run (the site answering 503 to everything) without throwing: the next heartbeat retries', async () => {
    process.env.TN_CRAWL_EVERY_HOURS = '0.00001';
    replay.site.inject(() => true, ...Array.from({ length: 40 }, () => ({ status: 503 })));
    // Older than the interval (36 ms): the next heartbeat starts a crawl.
    await new Promise((resolve) => setTimeout(resolve, 100));
    try {
      const failed = await handler({}, context());
      expect(failed.crawl.status).toBe('failed');
      expect(failed.crawl.pages.failed).toBeGreaterThan(0);
    } finally {
      process.env.TN_CRAWL_EVERY_HOURS = '24';
    }
  }, 120_000);
});
