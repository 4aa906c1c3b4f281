import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { declareAccessPatterns, param } from '../../platform/store/access-patterns.js';
import { getAll } from '../../platform/store/batch-reads.js';
import type { Store } from '../../platform/store/dynamo-client.js';
import { crawlKeys, ENTITY } from '../../platform/store/keys.js';
import { decodeValue, encodeValue } from '../../platform/store/packed-value.js';
import type { CrawlCheckpoint, CrawlRunRecord, CrawlRunSummary, CrawlState, PageMemories, PartFreshness } from './crawl-model.js';

// The model travels with the store: callers import both from here.
export * from './crawl-model.js';

/**
 * A crawl's own state, beside the records it hands to the ingestion runs: the lease, the checkpoint of
 * each crawl, how fresh each part of the source is, what each page answered last time, and a record
 * per run. Every write here is bookkeeping of the crawl; catalog and transfer records are written by
 * the ingestion runs only, and only when a page's content changed.
 */

const CRAWL_PREFIX = 'crawl:';
const PART_PREFIX = 'part:';
/** Pages of one group whose kept content would push the item past this are kept without it (a 304 then refetches them). */
const PAGE_ITEM_BUDGET_BYTES = 300_000;

export class CrawlBusy extends Error {
  constructor(
    readonly source: string,
    readonly owner: string,
    readonly until: number,
  ) {
    super(`a crawl of ${source} is already running (${owner}); its lease lapses at ${new Date(until).toISOString()} unless it renews it`);
  }
}

class CrawlLeaseLost extends Error {}

function stateOf(item: Record<string, unknown> | undefined): CrawlState {
  const state: CrawlState = { crawls: {}, parts: {} };
  if (!item) return state;
  if (typeof item.leaseOwner === 'string') state.leaseOwner = item.leaseOwner;
  if (typeof item.leaseUntil === 'number') state.leaseUntil = item.leaseUntil;
  if (item.lastRun && typeof item.lastRun === 'object') state.lastRun = item.lastRun as CrawlRunSummary;
  for (const [name, value] of Object.entries(item)) {
    if (name.startsWith(CRAWL_PREFIX)) state.crawls[name.slice(CRAWL_PREFIX.length)] = value as CrawlCheckpoint;
    else if (name.startsWith(PART_PREFIX)) state.parts[name.slice(PART_PREFIX.length)] = value as PartFreshness;
  }
  return state;
}

export async function readCrawlState(store: Store, source: string): Promise<CrawlState> {
  const result = await store.doc.send(new GetCommand({ TableName: store.tableName, Key: crawlKeys.state(source), ConsistentRead: true }));
  return stateOf(result.Item);
}

/** The crawl state of several sources at once (what the catalog tools show about freshness). */
export async function readCrawlStates(store: Store, sources: string[]): Promise<Map<string, CrawlState>> {
  const items = await getAll(store, sources.map((source) => crawlKeys.state(source)));
  const bySource = new Map<string, CrawlState>(sources.map((source) => [source, stateOf(undefined)]));
  for (const item of items) bySource.set(String(item.source), stateOf(item));
  return bySource;
}

/**
 * Takes (or renews) the source's lease: only one crawl of a source runs at a time, whichever machine
 * runs it. A lease not renewed lapses, so a crawl killed outright frees the source by itself.
 */
export async function takeCrawlLease(store: Store, source: string, owner: string, until: number, now: number): Promise<void> {
  try {
    await store.doc.send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: crawlKeys.state(source),
        UpdateExpression: 'SET leaseOwner = :owner, leaseUntil = :until, entity = :entity, #source = :source',
        ConditionExpression: 'attribute_not_exists(leaseOwner) OR leaseOwner = :owner OR leaseUntil < :now',
        ExpressionAttributeNames: { '#source': 'source' },
        ExpressionAttributeValues: { ':owner': owner, ':until': until, ':now': now, ':entity': ENTITY.crawlState, ':source': source },
      }),
    );
  } catch (error) {
    if ((error as { name?: string }).name !== 'ConditionalCheckFailedException') throw error;
    const held = await readCrawlState(store, source);
    throw new CrawlBusy(source, held.leaseOwner ?? 'unknown', held.leaseUntil ?? now);
  }
}

/**
 * Saves a crawl's checkpoint and the freshness of the parts it finished, renewing the lease in the same
 * write; refused when another run has taken the lease since (this run then stops).
 */
export async function saveCrawlProgress(
  store: Store,
  source: string,
  owner: string,
  leaseUntil: number,
  crawlKey: string,
  checkpoint: CrawlCheckpoint,
  parts: Record<string, PartFreshness> = {},
  extra: { release?: boolean; lastRun?: CrawlRunSummary } = {},
): Promise<void> {
  const names: Record<string, string> = { '#crawl': `${CRAWL_PREFIX}${crawlKey}` };
  const values: Record<string, unknown> = { ':owner': owner, ':crawl': checkpoint };
  const sets = ['#crawl = :crawl'];
  if (!extra.release) {
    sets.push('leaseUntil = :until');
    values[':until'] = leaseUntil;
  }
  if (extra.lastRun) {
    sets.push('lastRun = :lastRun');
    values[':lastRun'] = extra.lastRun;
  }
  Object.entries(parts).forEach(([part, freshness], index) => {
    names[`#part${index}`] = `${PART_PREFIX}${part}`;
    values[`:part${index}`] = freshness;
    sets.push(`#part${index} = :part${index}`);
  });
  try {
    await store.doc.send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: crawlKeys.state(source),
        // The last save of a run gives the lease back in the same write.
        UpdateExpression: `SET ${sets.join(', ')}${extra.release ? ' REMOVE leaseOwner, leaseUntil' : ''}`,
        ConditionExpression: 'leaseOwner = :owner',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      }),
    );
  } catch (error) {
    if ((error as { name?: string }).name === 'ConditionalCheckFailedException') throw new CrawlLeaseLost(`the lease on ${source} was taken by another crawl; this run stops`);
    throw error;
  }
}

export async function releaseCrawlLease(store: Store, source: string, owner: string): Promise<void> {
  try {
    await store.doc.send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: crawlKeys.state(source),
        UpdateExpression: 'REMOVE leaseOwner, leaseUntil',
        ConditionExpression: 'leaseOwner = :owner',
        ExpressionAttributeValues: { ':owner': owner },
      }),
    );
  } catch (error) {
    // Another run took it after ours lapsed: nothing of ours to give back.
    if ((error as { name?: string }).name !== 'ConditionalCheckFailedException') throw error;
  }
}

export async function readPageMemories(store: Store, source: string, group: string): Promise<PageMemories> {
  const result = await store.doc.send(new GetCommand({ TableName: store.tableName, Key: crawlKeys.pages(source, group) }));
  const packed = result.Item?.pages as Uint8Array | undefined;
  return packed ? (decodeValue(packed) as PageMemories) : {};
}

/** Written after the part's records were handed to ingestion, never before: a 304 then stands for data that is stored. */
export async function writePageMemories(store: Store, source: string, group: string, pages: PageMemories): Promise<void> {
  let packed = encodeValue(pages);
  if (packed.byteLength > PAGE_ITEM_BUDGET_BYTES) {
    packed = encodeValue(Object.fromEntries(Object.entries(pages).map(([key, { data: _dropped, ...memory }]) => [key, memory])));
  }
  await store.doc.send(new PutCommand({ TableName: store.tableName, Item: { ...crawlKeys.pages(source, group), entity: ENTITY.crawlPages, pages: packed } }));
}

export async function recordCrawlRun(store: Store, run: CrawlRunRecord): Promise<void> {
  await store.doc.send(new PutCommand({ TableName: store.tableName, Item: { ...crawlKeys.run(run.source, run.runId), entity: ENTITY.crawlRun, ...run } }));
}

export const ACCESS_PATTERNS = /* @__PURE__ */ declareAccessPatterns(() => {
  const SOURCE = param('source');
  return [
    {
      name: "A crawled source's state (lease, checkpoints, freshness of its parts)",
      entity: ENTITY.crawlState,
      operation: 'GetItem',
      index: 'table',
      key: crawlKeys.state(SOURCE),
      usedBy: ['crawls (start of a run, consistent read)'],
    },
    {
      name: 'Crawl freshness of the crawled sources',
      entity: ENTITY.crawlState,
      operation: 'BatchGetItem',
      index: 'table',
      key: crawlKeys.state(SOURCE),
      usedBy: ['tn_course_institutions'],
      notes: 'One item per crawled source: when each part (a sending institution, a term) was last verified and last changed.',
    },
    {
      name: "Take, renew or give back a source's crawl lease; save a checkpoint",
      entity: ENTITY.crawlState,
      operation: 'UpdateItem',
      index: 'table',
      key: crawlKeys.state(SOURCE),
      usedBy: ['crawls (start, every few seconds of progress, end)'],
      notes: 'Conditional on the lease: taken when free, ours or lapsed; saved (and at the end given back, in the same write) only while ours.',
    },
    {
      name: "What a part's pages answered last time",
      entity: ENTITY.crawlPages,
      operation: 'GetItem',
      index: 'table',
      key: crawlKeys.pages(SOURCE, param('group...')),
      usedBy: ['crawls (once per part)'],
      notes: 'Validators (ETag, Last-Modified), a content hash per page, and the content of lists a 304 stands for; gzipped.',
    },
    {
      name: "Keep what a part's pages answered",
      entity: ENTITY.crawlPages,
      operation: 'PutItem',
      index: 'table',
      key: crawlKeys.pages(SOURCE, param('group...')),
      usedBy: ['crawls (a part whose pages changed, after its records were ingested)'],
    },
    {
      name: 'Record a crawl run',
      entity: ENTITY.crawlRun,
      operation: 'PutItem',
      index: 'table',
      key: crawlKeys.run(SOURCE, param('runId')),
      usedBy: ['crawls (every run, whatever happened)'],
      notes: 'Pages fetched / unchanged / failed / missing, requests, units, what ingestion wrote, errors.',
    },
  ];
});

