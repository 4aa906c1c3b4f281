import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { crawlSource } from '../../functions/ingest/crawl/crawl-source.js';
import { atOrBefore } from '../../functions/ingest/crawl/crawler.js';
import type { Store } from '../../functions/platform/store/dynamo-client.js';
import { readCrawlFreshness } from '../../functions/course/source-freshness.js';
import { crawlKeys } from '../../functions/platform/store/keys.js';
import { sfuFixture, SfuOutlinesReplay } from '../support/sfu-outlines-replay.js';
import { writesDuring } from '../support/store-commands.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const CLIENT = { backoffMs: 20, maxBackoffMs: 200, timeoutMs: 1500 };
const FALL_2026 = { source: 'sfu-outlines' as const, terms: ['2026-fall'] };

let replay: SfuOutlinesReplay;
let env: Record<string, string>;
const servers: TestServer[] = [];

beforeAll(async () => {
  replay = new SfuOutlinesReplay();
  env = await replay.start();
});
afterEach(() => {
  replay.site.resetCounters();
  replay.site.latencyMs = 0;
  replay.site.onRequest = undefined;
});
afterAll(async () => {
  await replay?.close();
  for (const server of servers) await server.close();
});

async function freshServer(): Promise<TestServer> {
  const server = await startTestServer();
  servers.push(server);
  return server;
}

const crawl = (store: Store, options: Parameters<typeof crawlSource>[2] = {}) => crawlSource(store, FALL_2026, { env, client: CLIENT, ...options });

/** Every section the replay lists for a term, as `DEPT NUMBER SECTION`. */
function servedSections(year: string, term: string): string[] {
  return replay.fixture
    .get(year)!
    .get(term)!
    .flatMap((d) => d.courses.flatMap((c) => [...(c.sections ?? new Map()).values()].map((o) => `${o.info.dept} ${o.info.number} ${o.info.section}`)))
    .sort();
}

/** The sections a student sees through the tools, for every course the replay lists in fall 2026. */
async function storedSections(server: TestServer): Promise<string[]> {
  const found: string[] = [];
  for (const department of replay.fixture.get('2026')!.get('fall')!) {
    for (const course of department.courses) {
      const answer = await server.rest('tn_course_section_list', { course: `sfu:${department.text} ${course.text}`, term: '2026-fall', limit: 100 });
      if (answer.status === 404) continue;
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      found.push(...answer.body.items.map((s: { section: string }) => `${department.text} ${course.text.toUpperCase()} ${s.section}`));
    }
  }
  return found.sort();
}

describe('SFU course outlines crawl against the replayed API', () => {
  it('walks years → terms → departments → courses → sections → outlines, skips a 404 section list, and stores every section', async () => {
    const server = await freshServer();
    const outcome = await crawl(server.services.store);
    expect(outcome.errors).toEqual([]);
    expect(outcome.status).toBe('complete');
    const queries = replay.site.log.map((r) => r.url.split('?')[1] ?? '');
    expect(queries.slice(0, 3)).toEqual(['', '2026', '2026/fall']);
    // The directed-studies course is listed, its section list is 404: skipped, not fatal.
    expect(replay.site.log.find((r) => r.url.endsWith('/stat/496'))?.status).toBe(404);
    expect(outcome.run.pages.missing).toBe(1);
    expect(await storedSections(server)).toEqual(servedSections('2026', 'fall'));

    // The outline's course-level text reaches the course page, with its offering and instructors.
    const course = await server.rest('tn_course_get', { course: 'sfu:MACM 101' });
    expect(course.status).toBe(200);
    expect(course.body.title).toBe(replay.department('2026', 'fall', 'macm').courses.find((c) => c.value === '101')!.title);
    expect(outcome.run.pages.fetched).toBe(replay.site.log.filter((r) => r.status === 200).length);
    expect(replay.site.maxInFlight).toBeLessThanOrEqual(2);
  }, 120_000);

  it('sends every page back with its validators, gets 304s, and writes nothing on a recrawl of an unchanged term', async () => {
    const server = await freshServer();
    const store = server.services.store;
    const first = await crawl(store);
    replay.site.resetCounters();
    const { result: second, writes } = await writesDuring(store, () => crawl(store));
    expect(second.status).toBe('complete');
    // Only the crawl's own bookkeeping was written: its state item (checkpoint, lease) and its run record.
    expect([...new Set(writes.flatMap((w) => w.keys))].sort()).toEqual([`INGEST#sfu-outlines|CRAWL`, `INGEST#sfu-outlines|${crawlKeys.runPrefix}${second.runId}`].sort());
    const requests = replay.site.log;
    expect(requests.filter((r) => r.status !== 404).every((r) => r.headers['if-none-match'] && r.status === 304)).toBe(true);
    expect(second.run.pages).toEqual({ fetched: 0, unchanged: first.run.pages.fetched, failed: 0, missing: first.run.pages.missing });
    expect(second.run.ingestion).toEqual({ written: 0, retired: 0, rejected: 0 });
    expect(second.run.units.changed).toBe(0);
  }, 120_000);

  it('recrawls a site that gives no validators by reading every page again, and writes nothing when no content changed', async () => {
    const bare = new SfuOutlinesReplay(sfuFixture(['MACM']), { noValidators: true });
    const bareEnv = await bare.start();
    try {
      const server = await freshServer();
      const store = server.services.store;
      const first = await crawlSource(store, FALL_2026, { env: bareEnv, client: CLIENT });
      expect(first.status).toBe('complete');
      expect(bare.site.log.every((r) => r.headers['if-none-match'] === undefined && r.headers['if-modified-since'] === undefined)).toBe(true);
      bare.site.resetCounters();
      const { result: second, writes } = await writesDuring(store, () => crawlSource(store, FALL_2026, { env: bareEnv, client: CLIENT }));
      expect(second.status).toBe('complete');
      expect(bare.site.log.every((r) => r.status === 200 || r.status === 404)).toBe(true);
      expect(second.run.pages).toEqual({ fetched: 0, unchanged: first.run.pages.fetched, failed: 0, missing: first.run.pages.missing });
      expect(second.run.units.changed).toBe(0);
      expect([...new Set(writes.flatMap((w) => w.keys))].sort()).toEqual([`INGEST#sfu-outlines|CRAWL`, `INGEST#sfu-outlines|${crawlKeys.runPrefix}${second.runId}`].sort());
    } finally {
      await bare.close();
    }
  }, 120_000);

  it('says how fresh the outlines are per term, and a term that is over no longer makes the source look stale', async () => {
    const server = await freshServer();
    const store = server.services.store;
    const spring = await crawlSource(store, { source: 'sfu-outlines', terms: ['2026-spring'] }, { env, client: CLIENT });
    const fall = await crawl(store);
    expect([spring.status, fall.status]).toEqual(['complete', 'complete']);
    const parts = (at: string) => readCrawlFreshness(store, new Date(at)).then((f) => f.sources.find((s) => s.source === 'sfu-outlines')!);

    // In fall 2026 both terms are listed; spring is over, so the source is as fresh as its fall term.
    const inFall = await parts('2026-10-01T12:00:00Z');
    expect(inFall.parts.map((p) => p.part)).toEqual(['term:2026-fall', 'term:2026-spring']);
    const [fallPart, springPart] = inFall.parts;
    expect(springPart!.verifiedAt < fallPart!.verifiedAt).toBe(true);
    expect(inFall.verifiedAt).toBe(fallPart!.verifiedAt);
    // In spring 2026 (a crawl's clock behind the site's), both count: the oldest wins.
    expect((await parts('2026-03-01T12:00:00Z')).verifiedAt).toBe(springPart!.verifiedAt);
    // Once every crawled term is over, they all count again rather than none.
    expect((await parts('2027-06-01T12:00:00Z')).verifiedAt).toBe(springPart!.verifiedAt);

    // The tool shows the same figure, per source and per institution.
    const listed = await server.rest('tn_course_institutions', { limit: 100 });
    const outlines = listed.body.sourceFreshness.find((f: { source: string }) => f.source === 'sfu-outlines');
    expect(outlines.feeds).toEqual(['sfu-outlines', 'sfu-sections']);
    expect(outlines.lastRun).toMatchObject({ status: 'complete', pages: fall.run.pages });
    const sfu = listed.body.items.find((i: { id: string }) => i.id === 'sfu');
    expect(sfu.sources.find((s: { source: string }) => s.source === 'sfu-sections').lastVerifiedAt).toBe(fallPart!.verifiedAt);
  }, 120_000);

  it('picks up a changed outline: only its department is ingested again', async () => {
    const server = await freshServer();
    await crawl(server.services.store);
    const path = '2026/fall/macm/101/d100';
    replay.changeOutline(path, (outline) => {
      outline.instructor = [{ ...outline.instructor[0]!, name: 'Ada Lovelace', firstName: 'Ada', lastName: 'Lovelace' }];
    });
    replay.site.resetCounters();
    const outcome = await crawl(server.services.store);
    expect(outcome.status).toBe('complete');
    expect(outcome.run.units).toEqual({ changed: 1, unchanged: replay.fixture.get('2026')!.get('fall')!.length - 1, failed: 0 });
    expect(outcome.run.pages.fetched).toBe(1);
    const sections = await server.rest('tn_course_section_list', { course: 'sfu:MACM 101', term: '2026-fall' });
    expect(sections.body.items.find((s: { section: string }) => s.section === 'D100').instructors).toEqual(['Ada Lovelace']);
  }, 120_000);

  it('waits out a 503 as its Retry-After says, retries a page that stalls, and keeps at most two requests in flight', async () => {
    const server = await freshServer();
    replay.site.latencyMs = 15;
    replay.site.inject((r) => r.url.endsWith('?2026/fall'), { status: 503, retryAfter: '1' });
    replay.site.inject((r) => r.url.endsWith('/stat/270/d100'), { delayMs: 4000 });
    const outcome = await crawl(server.services.store);
    expect(outcome.status).toBe('complete');
    expect(outcome.run.pages.failed).toBe(0);
    const departments = replay.site.log.filter((r) => r.url.endsWith('?2026/fall'));
    expect(departments.map((r) => r.status)).toEqual([503, 200]);
    expect(departments[1]!.at - departments[0]!.at).toBeGreaterThanOrEqual(1000);
    expect(replay.site.log.filter((r) => r.url.endsWith('/stat/270/d100')).length).toBe(2);
    expect(await storedSections(server)).toEqual(servedSections('2026', 'fall'));
    // Requests overlapped (two at a time), never three.
    expect(replay.site.maxInFlight).toBe(2);
  }, 120_000);

  it('resumes a crawl cut short where it stopped, and ends as a clean crawl does', async () => {
    const server = await freshServer();
    const stop = new AbortController();
    let outlines = 0;
    replay.site.onRequest = (r) => {
      if ((r.url.split('?')[1] ?? '').split('/').length === 5 && ++outlines === 40) stop.abort();
    };
    const cut = await crawl(server.services.store, { signal: stop.signal });
    expect(cut.status).toBe('paused');
    expect(cut.position.length).toBeGreaterThan(0);
    const done = new Set(replay.fixture.get('2026')!.get('fall')!.filter((d) => atOrBefore(['20263', d.value], cut.position)).map((d) => d.value));
    expect(done.size).toBeGreaterThan(0);
    replay.site.onRequest = undefined;
    replay.site.resetCounters();

    const resumed = await crawl(server.services.store);
    expect(resumed.status).toBe('complete');
    expect(resumed.crawlId).toBe(cut.crawlId);
    // Departments finished before the cut are not asked for again.
    for (const dept of done) expect(replay.site.log.some((r) => r.url.includes(`?2026/fall/${dept}`))).toBe(false);
    expect(await storedSections(server)).toEqual(servedSections('2026', 'fall'));
    expect(resumed.crawl.units.changed).toBe(replay.fixture.get('2026')!.get('fall')!.length);
  }, 120_000);
});
