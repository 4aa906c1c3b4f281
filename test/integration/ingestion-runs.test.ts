import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestSource } from '../../functions/ingest/ingest-source.js';
import { ingestorNamed, sourceNamed } from '../../functions/ingest/sources.js';
import { getCatalogVersion } from '../../functions/catalog/catalog-store.js';
import { rowsOf } from '../../functions/catalog/ingestion/aggregates.js';
import { takeSourceLease } from '../../functions/catalog/ingestion/source-lease-store.js';
import { createStore, type Store } from '../../functions/platform/store/dynamo-client.js';
import { unrecorded } from '../support/store/command-recorder.js';
import { courseRowsStored } from '../support/course-rows.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * Runs of one source never overlap (a lease taken by a conditional write), and a run cut short at any
 * point loses nothing: its re-run leaves the same table a clean run does, active and retired rows alike.
 */
const servers: TestServer[] = [];
let grades: { header: string; rows: string[] };
let transfers: { april: any[]; october: any[] };
beforeAll(async () => {
  const [header, ...rows] = (await readFile('data/sample/ubc-grades-2021-2025/ubc-grades-v2-2021S-2025W.csv', 'utf8')).trim().split('\n');
  grades = { header: header!, rows: rows.filter((row) => /^UBCO,\d{4},[SW],(COSC|MATH),/.test(row)) };
  const snapshot = async (file: string) =>
    (JSON.parse(await readFile(`data/sample/bctransferguide/${file}`, 'utf8')).courses as any[]).filter((r) => ['CPSC', 'MATH'].includes(r.subject) && ['SFU', 'UBCV'].includes(r.destination));
  transfers = { april: await snapshot('langara-transfers-2023-04.json'), october: await snapshot('langara-transfers-2023-10.json') };
});
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
});

async function freshServer(): Promise<TestServer> {
  const server = await startTestServer();
  servers.push(server);
  return server;
}

const year = (row: string) => Number(row.split(',')[1]);
async function gradesFile(server: TestServer, name: string, rows: string[]): Promise<string> {
  const file = path.join(server.dataDir, name);
  await writeFile(file, [grades.header, ...rows].join('\n'));
  return file;
}

/** A later file of the same source: some averages revised, some rows gone, a session added. */
function revised(rows: string[], by = -1): string[] {
  return rows
    .filter((row, i) => year(row) <= 2024 && i % 7 !== 3)
    .map((row, i) => (i % 5 === 0 ? row.replace(/^((?:[^,]*,){10})([\d.]+)/, (_, head: string, avg: string) => `${head}${(Number(avg) + by).toFixed(1)}`) : row));
}

/** What a table holds about the catalog, without run bookkeeping (run records, the lease, the version counter). */
async function catalogOf(store: Store): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await unrecorded(() => store.doc.send(new ScanCommand({ TableName: store.tableName, ExclusiveStartKey: start })));
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return items
    .filter((item) => /^(COURSE|RULE|TERMS)#|^INSTITUTIONS$/.test(String(item.PK)))
    .map(({ rows, rev: _rev, ...item }): Record<string, unknown> => ({ ...item, ...(rows ? { rows: rowsOf({ rows }) } : {}) }))
    .sort((a, b) => `${a.PK}|${a.SK}`.localeCompare(`${b.PK}|${b.SK}`));
}

const at = (day: string) => () => new Date(`${day}T00:00:00.000Z`);

/** A store on the same table whose connection dies after `commands` requests: nothing it sends after that arrives. */
function dyingStore(server: TestServer, commands: number): Store {
  const store = createStore({ ...server.config });
  let sent = 0;
  store.doc.middlewareStack.add(
    (next) => async (args) => {
      if (++sent > commands) throw new Error('connection lost (the run was cut short here)');
      return next(args);
    },
    { step: 'initialize', name: 'dieAfter' },
  );
  return store;
}

function countingStore(server: TestServer): { store: Store; sent: () => number } {
  const store = createStore({ ...server.config });
  let sent = 0;
  store.doc.middlewareStack.add((next) => (args) => (sent++, next(args)), { step: 'initialize', name: 'count' });
  return { store, sent: () => sent };
}

describe('runs of one source', () => {
  it('refuses a run while another holds the source, naming it, and waits for it when allowed to', async () => {
    const server = await freshServer();
    const store = server.services.store;
    const file = await gradesFile(server, 'cosc.csv', grades.rows.filter((row) => year(row) === 2021));
    const holder = await takeSourceLease(store, 'ubc-grades', 'HOLDER', { leaseMs: 60_000 });
    const refused = await ingestSource(store, sourceNamed('ubc-grades')!, file, { lease: { waitMs: 300 } });
    expect(refused.status).toBe('failed');
    expect(refused.errors[0]).toMatch(/^Another run of ubc-grades is writing \(.+\/HOLDER\) and holds the source until \d{4}-\d\d-\d\dT.+; this run waited and stopped without writing/);
    expect((await courseRowsStored(store, 'ubco', 'COSC 111')).items).toEqual([]);

    const waited: string[] = [];
    const started = Date.now();
    const waiting = ingestSource(store, sourceNamed('ubc-grades')!, file, { lease: { waitMs: 20_000, onWait: ({ owner }) => waited.push(owner) } });
    setTimeout(() => void holder.release(true), 600);
    const run = await waiting;
    expect(run.status).toBe('succeeded');
    expect(Date.now() - started).toBeGreaterThanOrEqual(600);
    expect(waited).toEqual([expect.stringMatching(/\/HOLDER$/)]);
    expect(run.counts.written).toBeGreaterThan(0);
  });

  it('run at once, two runs end as the same runs one after the other: never interleaved, nothing lost', { timeout: 120_000 }, async () => {
    const overlapping = await freshServer();
    const sequential = await freshServer();
    const earlier = grades.rows.filter((row) => year(row) <= 2022);
    const later = grades.rows.filter((row) => year(row) >= 2023);
    const [lower, higher] = [revised(grades.rows, -1), revised(grades.rows, +1)];
    // Each run through its own client, noting when it writes an item.
    const writes: { run: 'A' | 'B'; at: number }[] = [];
    const writer = (run: 'A' | 'B') => {
      const { store } = countingStore(overlapping);
      store.doc.middlewareStack.add(
        (next) => (args) => {
          if ((args.input as { Item?: Record<string, unknown> }).Item?.rows) writes.push({ run, at: performance.now() });
          return next(args);
        },
        { step: 'initialize', name: 'whoWrites' },
      );
      return store;
    };
    const stores = { A: writer('A'), B: writer('B') };
    const adapter = sourceNamed('ubc-grades')!;
    // The case (the halves of one file at once) and two revisions of the same rows at once.
    const pairs: [string[], string[]][] = [
      [earlier, later],
      [lower, higher],
    ];
    for (const [round, [a, b]] of pairs.entries()) {
      const days = [`2026-0${round + 1}-01`, `2026-0${round + 1}-02`];
      const [fileA, fileB] = await Promise.all([gradesFile(overlapping, `a${round}.csv`, a), gradesFile(overlapping, `b${round}.csv`, b)]);
      writes.splice(0);
      const [runA, runB] = await Promise.all([ingestSource(stores.A, adapter, fileA, { now: at(days[0]!) }), ingestSource(stores.B, adapter, fileB, { now: at(days[1]!) })]);
      expect([runA.status, runB.status]).toEqual(['succeeded', 'succeeded']);
      // The second to take the lease waited: its writes all come after the first's.
      const firstTag = writes[0]!.run;
      const [first, second] = firstTag === 'A' ? [runA, runB] : [runB, runA];
      const lastOfFirst = Math.max(...writes.filter((w) => w.run === firstTag).map((w) => w.at));
      const firstOfSecond = Math.min(...writes.filter((w) => w.run !== firstTag).map((w) => w.at));
      expect(writes.filter((w) => w.run !== firstTag).length).toBeGreaterThan(0);
      expect(lastOfFirst).toBeLessThan(firstOfSecond);
      // The same two files, one after the other in that order, on another table.
      for (const run of [first, second]) {
        const rows = run === runA ? a : b;
        const day = run === runA ? days[0]! : days[1]!;
        expect((await ingestSource(sequential.services.store, adapter, await gradesFile(sequential, `s${round}-${day}.csv`, rows), { now: at(day) })).status).toBe('succeeded');
      }
      const [mine, theirs] = await Promise.all([catalogOf(overlapping.services.store), catalogOf(sequential.services.store)]);
      expect(mine.length).toBeGreaterThan(100);
      expect(mine).toEqual(theirs);
    }
  });
});

describe('a run cut short', () => {
  const cases = [
    {
      source: 'ubc-grades',
      files: async (server: TestServer) => [await gradesFile(server, 'v1.csv', grades.rows.filter((row) => year(row) <= 2023)), await gradesFile(server, 'v2.csv', revised(grades.rows))],
    },
    {
      source: 'bctransferguide',
      files: async (server: TestServer) => {
        const write = async (name: string, rows: any[]) => {
          const file = path.join(server.dataDir, name);
          await writeFile(file, JSON.stringify({ courses: rows }));
          return file;
        };
        // April, then October: rules superseded get their end, rules gone end or retire, new ones start.
        return [await write('april.json', transfers.april), await write('october.json', transfers.october)];
      },
    },
  ];

  for (const { source, files } of cases) {
    it(`loses nothing, active or retired, wherever it stops: re-run, it leaves what a clean run leaves (${source})`, { timeout: 300_000 }, async () => {
      const ingestor = ingestorNamed(source)!;
      const clean = await freshServer();
      const [cleanV1, cleanV2] = await files(clean);
      expect((await ingestor.run(clean.services.store, cleanV1!, { now: at('2026-03-01') })).status).toBe('succeeded');
      const counting = countingStore(clean);
      const cleanRun = await ingestor.run(counting.store, cleanV2!, { now: at('2026-03-02') });
      expect(cleanRun.status).toBe('succeeded');
      expect(cleanRun.counts.written + cleanRun.counts.retired).toBeGreaterThan(10);
      const expected = await catalogOf(clean.services.store);
      // History is part of what must survive: retired rows (grades) and rules a later snapshot ended (transfer).
      expect(expected.some((item) => (item.rows as { status: string; unlisted?: true }[] | undefined)?.some((row) => row.status === 'retired' || row.unlisted))).toBe(true);
      const total = counting.sent();

      // Cut short after the lease, at the first write, in the middle of the writes, at the last ones, and in the bookkeeping.
      for (const point of [...new Set([3, 5, Math.floor(total / 3), Math.floor(total / 2), total - 8, total - 3, total - 1])].filter((p) => p > 0 && p < total)) {
        const server = await freshServer();
        const [v1, v2] = await files(server);
        expect((await ingestor.run(server.services.store, v1!, { now: at('2026-03-01') })).status).toBe('succeeded');
        const versionBefore = await getCatalogVersion(server.services.store);
        const dying = dyingStore(server, point);
        // The lease of a run that died holds until it lapses: short here, so the re-run waits for it.
        await ingestor.run(dying, v2!, { now: at('2026-03-02'), lease: { leaseMs: 1_500 } }).catch(() => undefined);
        const rerun = await ingestor.run(server.services.store, v2!, { now: at('2026-03-02') });
        expect(rerun.status, `cut short after ${point} of ${total} requests`).toBe('succeeded');
        expect(await catalogOf(server.services.store), `cut short after ${point} of ${total} requests`).toEqual(expected);
        // Whatever the cut-short run wrote is announced: warm functions drop what they cached.
        expect(await getCatalogVersion(server.services.store)).toBeGreaterThan(versionBefore);
        servers.splice(servers.indexOf(server), 1);
        await server.close();
      }
    });
  }
});
