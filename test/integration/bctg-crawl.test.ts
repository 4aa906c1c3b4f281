import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { crawlSource } from '../../functions/ingest/crawl/crawl-source.js';
import { unrecorded } from '../support/store/command-recorder.js';
import { catalogKeys, crawlKeys } from '../../functions/platform/store/keys.js';
import { parseBctgApiRecords } from '../../functions/transfer/ingest/bctg-adapters.js';
import { institutionId } from '../../functions/catalog/institutions.js';
import { BctgReplay, bctgFixture } from '../support/bctg-replay.js';
import { writesDuring } from '../support/store-commands.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import type { Store } from '../../functions/platform/store/dynamo-client.js';

/** Short waits so retries and backoff run in test time; the politeness rules are the production ones. */
const CLIENT = { backoffMs: 20, maxBackoffMs: 200, timeoutMs: 1500 };

let replay: BctgReplay;
let env: Record<string, string>;
const servers: TestServer[] = [];

beforeAll(async () => {
  replay = new BctgReplay();
  env = await replay.start();
});
afterEach(() => {
  for (const origin of [replay.www, replay.ws, replay.api]) origin.resetCounters();
});
afterAll(async () => {
  await replay?.close();
  for (const server of servers) await server.close();
});

async function freshStore(): Promise<{ server: TestServer; store: Store }> {
  const server = await startTestServer();
  servers.push(server);
  return { server, store: server.services.store };
}

const crawl = (store: Store, request: Parameters<typeof crawlSource>[1] = { source: 'bctransferguide' }, options: Parameters<typeof crawlSource>[2] = {}) =>
  crawlSource(store, request, { env, client: CLIENT, ...options });

/** The rules the adapter makes of every agreement the replay holds for one sender, by receiver. */
function expectedRules(sender: number): Map<string, Set<string>> {
  const rows = [...replay.fixture.agreements].filter(([key]) => key.startsWith(`${sender}:`)).flatMap(([, rows]) => rows);
  const code = replay.fixture.institutions.find((i) => i.Id === sender)!.Code;
  const parsed = parseBctgApiRecords(JSON.stringify(rows.map((r) => ({ SndrInstitutionCode: code, ...r }))), new Date().toISOString());
  const byReceiver = new Map<string, Set<string>>();
  for (const rule of parsed.rules) byReceiver.set(rule.receiverInstitution, (byReceiver.get(rule.receiverInstitution) ?? new Set()).add(rule.ruleId));
  return byReceiver;
}

async function storedRuleIds(store: Store, sender: string, receiver: string): Promise<Set<string>> {
  const result = await unrecorded(() =>
    store.doc.send(
      new QueryCommand({
        TableName: store.tableName,
        IndexName: 'GSI1',
        KeyConditionExpression: 'GSI1PK = :pk',
        ExpressionAttributeValues: { ':pk': catalogKeys.transferPair(sender, receiver) },
      }),
    ),
  );
  return new Set((result.Items ?? []).filter((i) => i.status === 'active').map((i) => String(i.PK).slice('RULE#'.length)));
}

describe('BC Transfer Guide crawl against the replayed site', () => {
  it('crawls every sending institution the site lists, subject by subject and page by page, and stores their rules', async () => {
    const { server, store } = await freshStore();
    const outcome = await crawl(store);
    expect(outcome.errors).toEqual([]);
    expect(outcome.status).toBe('complete');

    // Every listed sender's subjects were asked for, with the sender's id.
    const subjectRequests = [...replay.ws.log, ...replay.api.log].filter((r) => r.url.includes('GetSubjects') && r.status === 200);
    expect(new Set(subjectRequests.map((r) => new URL(r.url, 'http://x').searchParams.get('institutionID')))).toEqual(new Set(replay.fixture.institutions.map((i) => String(i.Id))));
    // Each subject's pages were searched, 1..totalPages, once each, as the site's form posts them.
    const searches = replay.searches();
    for (const [key, rows] of replay.fixture.agreements) {
      const [sender, subject] = key.split(':').map(Number);
      const pages = searches.filter((s) => Number(s.form.sender) === sender && Number(s.form.subjectId) === subject).map((s) => Number(s.form.pageNumber));
      expect(pages.sort((a, b) => a - b)).toEqual(Array.from({ length: Math.max(1, Math.ceil(rows.length / 20)) }, (_, i) => i + 1));
    }
    const institution = (id: number) => replay.fixture.institutions.find((i) => i.Id === id)!;
    for (const search of searches) {
      expect(search.nonce).toBe(replay.nonce);
      expect(search.form.institutionCode).toBe(institution(Number(search.form.sender)).Code);
    }
    expect(replay.www.log.filter((r) => r.url.startsWith('/wp-json/')).every((r) => r.method === 'POST')).toBe(true);

    // The rules stored are exactly those the adapter makes of every agreement served.
    for (const sender of [10020, 15]) {
      for (const [receiver, ids] of expectedRules(sender)) {
        expect(await storedRuleIds(store, institutionId(institution(sender).Code), receiver), `${institution(sender).Code} → ${receiver}`).toEqual(ids);
      }
    }
    expect(outcome.run.pages.failed).toBe(0);
    expect(outcome.run.pages.fetched).toBe(searches.length + subjectRequests.length + 1);
    expect(outcome.run.ingestion.written).toBeGreaterThan(0);
    for (const origin of [replay.www, replay.ws, replay.api]) expect(origin.maxInFlight, origin.name).toBeLessThanOrEqual(2);

    // A student's question answered from the crawl: Langara CPSC to SFU.
    const resolved = await server.rest('tn_transfer_resolve', { sourceInstitution: 'langara', targetInstitution: 'sfu', sourceCourses: ['CPSC 1150'] });
    expect(resolved.status).toBe(200);
    expect(resolved.body.exactMatches.length + resolved.body.partialMatches.length).toBeGreaterThan(0);

    // tn_course_institutions says who sends rules, and how fresh the guide's data is.
    const listed = await server.rest('tn_course_institutions', { limit: 100 });
    expect(listed.status).toBe(200);
    const byId = new Map<string, any>(listed.body.items.map((i: { id: string }) => [i.id, i]));
    for (const sender of ['alexander', 'langara']) {
      expect(byId.get(sender).sendsTransferRules, sender).toBe(true);
      const guide = byId.get(sender).sources.find((s: { source: string }) => s.source === 'bctransferguide');
      expect(guide.lastVerifiedAt).toBe(guide.lastIngestedAt);
      expect(guide.rulesSent).toBe([...replay.fixture.agreements].filter(([key]) => key.startsWith(`${replay.fixture.institutions.find((i) => institutionId(i.Code) === sender)!.Id}:`)).reduce((n, [, rows]) => n + rows.length, 0));
    }
    // Listed by the guide, no subjects: verified, and no rules from it.
    expect(byId.get('yorkville')?.sendsTransferRules ?? false).toBe(false);
    const guide = listed.body.sourceFreshness.find((s: { source: string }) => s.source === 'bctransferguide');
    expect(guide.parts.map((p: { part: string }) => p.part)).toEqual(replay.fixture.institutions.map((i) => `sender:${i.Code}`).sort());
    expect(guide.verifiedAt).not.toBeNull();
    expect(guide.ageHours).toBeLessThan(1);
    expect(guide.lastRun).toMatchObject({ status: 'complete', pages: outcome.run.pages });

    // The run record says what happened.
    const runs = await unrecorded(() =>
      store.doc.send(new QueryCommand({ TableName: store.tableName, KeyConditionExpression: 'PK = :pk AND begins_with(SK, :run)', ExpressionAttributeValues: { ':pk': 'INGEST#bctransferguide', ':run': crawlKeys.runPrefix } })),
    );
    expect(runs.Items?.map((r) => [r.runId, r.status, r.run.pages.fetched])).toEqual([[outcome.runId, 'complete', outcome.run.pages.fetched]]);
  }, 120_000);

  it('recrawls with conditional requests where the site gives validators, and writes nothing when nothing changed', async () => {
    const { store } = await freshStore();
    const first = await crawl(store);
    expect(first.status).toBe('complete');
    const searchesBefore = replay.searches().length;
    for (const origin of [replay.www, replay.ws, replay.api]) origin.resetCounters();

    const { result: second, writes } = await writesDuring(store, () => crawl(store));
    expect(second.status).toBe('complete');
    // The lists came back 304 to the validators they were sent with.
    const lists = [...replay.ws.log, ...replay.api.log].filter((r) => r.status === 304 || r.status === 200);
    expect(lists.length).toBeGreaterThan(0);
    expect(lists.every((r) => r.headers['if-none-match'] && r.status === 304)).toBe(true);
    // The search is a POST: re-read, every page, and found unchanged.
    expect(replay.searches()).toHaveLength(searchesBefore);
    expect(second.run.pages).toEqual({ fetched: 0, unchanged: first.run.pages.fetched, failed: 0, missing: 0 });
    expect(second.run.ingestion).toEqual({ written: 0, retired: 0, rejected: 0 });
    expect(second.catalogChanged).toBe(false);
    // Only the crawl's own bookkeeping was written: its state item (checkpoint, lease) and its run record.
    const written = new Set(writes.flatMap((w) => w.keys));
    expect([...written].sort()).toEqual([`INGEST#bctransferguide|CRAWL`, `INGEST#bctransferguide|${crawlKeys.runPrefix}${second.runId}`].sort());
    expect(writes.some((w) => w.command === 'BatchWriteItemCommand')).toBe(false);
  }, 120_000);

  it('recrawls lists that come without validators by their content, and still writes nothing when nothing changed', async () => {
    const bare = new BctgReplay(bctgFixture(), { noValidators: true });
    const bareEnv = await bare.start();
    try {
      const { store } = await freshStore();
      const first = await crawlSource(store, { source: 'bctransferguide', senders: ['ALEX'] }, { env: bareEnv, client: CLIENT });
      expect(first.status).toBe('complete');
      const { result: second, writes } = await writesDuring(store, () => crawlSource(store, { source: 'bctransferguide', senders: ['ALEX'] }, { env: bareEnv, client: CLIENT }));
      expect(second.status).toBe('complete');
      expect([...bare.ws.log, ...bare.api.log].some((r) => r.headers['if-none-match'] || r.headers['if-modified-since'])).toBe(false);
      expect(second.run.pages).toEqual({ fetched: 0, unchanged: first.run.pages.fetched, failed: 0, missing: 0 });
      expect(second.run.ingestion).toEqual({ written: 0, retired: 0, rejected: 0 });
      expect([...new Set(writes.flatMap((w) => w.keys))].sort()).toEqual([`INGEST#bctransferguide|CRAWL`, `INGEST#bctransferguide|${crawlKeys.runPrefix}${second.runId}`].sort());
    } finally {
      await bare.close();
    }
  }, 120_000);

  it('writes only what changed upstream, and sends the nonce again after the site refuses a lapsed one', async () => {
    const { server, store } = await freshStore();
    await crawl(store);
    for (const origin of [replay.www, replay.ws, replay.api]) origin.resetCounters();
    const changed = replay.fixture.agreements.get('15:531')!.find((a) => a.SndrCourseNumber === '1150' && a.RcvrInstitutionCode === 'SFU')!;
    const detail = changed.Detail;
    replay.changeAgreement(changed.Id, { Detail: 'SFU CMPT 120 (3) & SFU CMPT 1XX (1)' });
    // The nonce lapses between crawls: the crawl reads it before searching, so this is no refusal yet.
    replay.rotateNonce();
    // ...and again halfway through: the next search is refused and the crawl fetches a fresh nonce.
    replay.rotateNonceBeforeSearch(5);
    try {
      const outcome = await crawl(store);
      expect(outcome.status).toBe('complete');
      expect(outcome.run.units.changed).toBe(1);
      expect(outcome.run.ingestion.written).toBeGreaterThan(0);
      // Refused once (two searches in flight may both meet the lapsed nonce), the nonce read again, every search then answered.
      const refused = replay.searches().filter((s) => s.status === 403);
      expect(refused.length).toBeGreaterThanOrEqual(1);
      expect(refused.length).toBeLessThanOrEqual(2);
      expect(replay.www.log.filter((r) => r.url === '/').length).toBe(2);
      expect(outcome.run.pages.failed).toBe(0);
      const resolved = await server.rest('tn_transfer_resolve', { sourceInstitution: 'langara', targetInstitution: 'sfu', sourceCourses: ['CPSC 1150'] });
      const texts = JSON.stringify(resolved.body);
      expect(texts).toContain('CMPT 1XX');
    } finally {
      replay.changeAgreement(changed.Id, { Detail: detail });
    }
  }, 120_000);

  it('waits out a 503 on a search page as its Retry-After says, retries a search that stalls, and keeps at most two requests in flight per host', async () => {
    const { store } = await freshStore();
    for (const origin of [replay.www, replay.ws, replay.api]) origin.latencyMs = 15;
    const search = (subjectId: number, page: number) => (r: { url: string; body: string }) =>
      r.url.startsWith('/wp-json/') && new URLSearchParams(r.body).get('subjectId') === String(subjectId) && new URLSearchParams(r.body).get('pageNumber') === String(page);
    // Langara CPSC has 19 pages: page 2 is refused once with Retry-After, page 3 stalls past the client's time limit once.
    replay.www.inject(search(531, 2), { status: 503, retryAfter: '1' });
    replay.www.inject(search(531, 3), { delayMs: 4000 });
    try {
      const outcome = await crawl(store, { source: 'bctransferguide', senders: ['LANG'] });
      expect(outcome.errors).toEqual([]);
      expect(outcome.status).toBe('complete');
      expect(outcome.run.pages.failed).toBe(0);
      const refused = replay.www.log.filter((r) => search(531, 2)(r));
      expect(refused.map((r) => r.status)).toEqual([503, 200]);
      expect(refused[1]!.at - refused[0]!.at).toBeGreaterThanOrEqual(1000);
      expect(replay.www.log.filter((r) => search(531, 3)(r))).toHaveLength(2);
      for (const [receiver, ids] of expectedRules(15)) expect(await storedRuleIds(store, 'langara', receiver), receiver).toEqual(ids);
      // Pages 2..19 went out two at a time, never three, to the site.
      expect(replay.www.maxInFlight).toBe(2);
      for (const origin of [replay.ws, replay.api]) expect(origin.maxInFlight, origin.name).toBeLessThanOrEqual(2);
      // Retries and the nonce page are requests too: the run counts every one.
      expect(outcome.run.requests).toBe(replay.www.log.length + replay.ws.log.length + replay.api.log.length);
    } finally {
      for (const origin of [replay.www, replay.ws, replay.api]) origin.latencyMs = 0;
    }
  }, 120_000);

  it('resumes a crawl cut short where it stopped: subjects finished before the cut are not searched again, and the rules end as a clean crawl leaves them', async () => {
    const { store } = await freshStore();
    const stop = new AbortController();
    let searches = 0;
    // Cut in the middle of Alexander College's CPSC pages (its 8 pages come after BUEC's one).
    replay.www.onRequest = (r) => {
      if (r.url.startsWith('/wp-json/') && ++searches === 5) stop.abort();
    };
    let cut: Awaited<ReturnType<typeof crawl>>;
    try {
      cut = await crawl(store, { source: 'bctransferguide' }, { signal: stop.signal });
    } finally {
      replay.www.onRequest = undefined;
    }
    expect(cut.status).toBe('paused');
    expect(cut.position).toEqual(['ALEX', 'BUEC', String(1000).padStart(10, '0')]);
    expect(cut.run.units).toEqual({ changed: 1, unchanged: 0, failed: 0 });
    for (const origin of [replay.www, replay.ws, replay.api]) origin.resetCounters();

    const resumed = await crawl(store);
    expect(resumed.errors).toEqual([]);
    expect(resumed.status).toBe('complete');
    expect(resumed.crawlId).toBe(cut.crawlId);
    // BUEC was finished and saved before the cut: never searched again; CPSC, cut halfway, is searched again whole.
    const searched = replay.searches().map((s) => `${s.form.institutionCode} ${s.form.subjectCode} ${s.form.pageNumber}`);
    expect(searched.filter((s) => s.startsWith('ALEX BUEC'))).toEqual([]);
    expect(searched.filter((s) => s.startsWith('ALEX CPSC')).sort()).toEqual(Array.from({ length: 8 }, (_, i) => `ALEX CPSC ${i + 1}`).sort());
    // Every subject of the crawl counted once across its two runs, and the table holds what a clean crawl stores.
    const subjects = [...replay.fixture.subjects.values()].reduce((n, list) => n + list.length, 0);
    expect(resumed.crawl.units).toEqual({ changed: subjects, unchanged: 0, failed: 0 });
    for (const sender of [10020, 15]) {
      const code = replay.fixture.institutions.find((i) => i.Id === sender)!.Code;
      for (const [receiver, ids] of expectedRules(sender)) expect(await storedRuleIds(store, institutionId(code), receiver), `${code} → ${receiver}`).toEqual(ids);
    }
  }, 120_000);

  it('crawls one sender with --sender, by code, slug or name', async () => {
    const { store } = await freshStore();
    const outcome = await crawl(store, { source: 'bctransferguide', senders: ['langara'] });
    expect(outcome.status).toBe('complete');
    expect(outcome.crawlKey).toBe('senders:LANG');
    expect(new Set(replay.searches().map((s) => s.form.institutionCode))).toEqual(new Set(['LANG']));
    const unknown = await crawl(store, { source: 'bctransferguide', senders: ['Nowhere College'] });
    expect(unknown.status).toBe('failed');
    expect(unknown.errors.join(' ')).toMatch(/lists no sending institution "Nowhere College".*LANG \(Langara College\)/);
  }, 60_000);

  it('reads the newer service when the v1.7 one is gone, and camelCase answers as PascalCase ones', async () => {
    const moved = new BctgReplay(bctgFixture(), { wsRetired: true, camelCaseSearch: true, nonceOnlyOnSearchPage: true });
    const movedEnv = await moved.start();
    try {
      const { store } = await freshStore();
      const outcome = await crawlSource(store, { source: 'bctransferguide', senders: ['ALEX'] }, { env: movedEnv, client: CLIENT });
      expect(outcome.errors).toEqual([]);
      expect(outcome.status).toBe('complete');
      expect(moved.api.log.some((r) => r.url.includes('GetFromInstitutions') && r.status === 200)).toBe(true);
      expect(moved.www.log.some((r) => r.url === '/transfer-options/search-courses/')).toBe(true);
      for (const [receiver, ids] of expectedRules(10020)) expect(await storedRuleIds(store, 'alexander', receiver)).toEqual(ids);
    } finally {
      await moved.close();
    }
  }, 60_000);
});
