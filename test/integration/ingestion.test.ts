import { readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestSource } from '../../functions/ingest/ingest-source.js';
import { sourceNamed } from '../../functions/ingest/sources.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { unrecorded } from '../support/store/command-recorder.js';
import { courseRowsStored } from '../support/course-rows.js';

let server: TestServer;
let outlines: any[];
const sfuOutlines = sourceNamed('sfu-outlines')!;

beforeAll(async () => {
  server = await startTestServer();
  outlines = JSON.parse(await readFile('data/sample/sfu-outlines/outlines.json', 'utf8'));
});
afterAll(async () => {
  await server?.close();
});

async function writeJson(name: string, value: unknown): Promise<string> {
  const file = path.join(server.dataDir, name);
  await writeFile(file, JSON.stringify(value));
  return file;
}

const cmpt = () => outlines.filter((o) => o.dept === 'CMPT').slice(0, 40);

describe('idempotent ingestion into DynamoDB Local', () => {
  it('writes a source once, then nothing when it is unchanged, and keeps a run record', async () => {
    const file = await writeJson('cmpt.json', cmpt());
    const first = await ingestSource(server.services.store, sfuOutlines, file);
    expect(first.status).toBe('succeeded');
    expect(first.counts.written).toBe(first.counts.parsed);
    expect(first.counts.parsed).toBeGreaterThan(40);
    const second = await ingestSource(server.services.store, sfuOutlines, file);
    expect(second.counts).toMatchObject({ written: 0, retired: 0, unchanged: first.counts.parsed });
    expect(second.catalogVersion).toBeUndefined();

    const runs = await unrecorded(() => server.services.store.doc.send(
      new QueryCommand({
        TableName: server.config.tableName,
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :run)',
        ExpressionAttributeValues: { ':pk': 'INGEST#sfu-outlines', ':run': 'RUN#' },
      }),
    ));
    expect(runs.Items?.map((r) => r.runId)).toEqual(expect.arrayContaining([first.runId, second.runId]));
  });

  it('sends a run\'s bookkeeping together, and reads no conditional-GET state for a file', async () => {
    const file = await writeJson('cmpt.json', cmpt());
    const sent: { command: string; key: string; started: number; ended?: number }[] = [];
    let clock = 0;
    const doc = server.services.store.doc;
    doc.middlewareStack.add(
      (next, context) => async (args) => {
        const input = args.input as { Key?: Record<string, unknown>; Item?: Record<string, unknown> };
        const entry = { command: String(context.commandName), key: String((input.Key ?? input.Item)?.SK ?? ''), started: clock++, ended: undefined as number | undefined };
        sent.push(entry);
        try {
          return await next(args);
        } finally {
          entry.ended = clock++;
        }
      },
      { step: 'initialize', name: 'recordOrder' },
    );
    try {
      const run = await ingestSource(server.services.store, sfuOutlines, file);
      expect(run.status).toBe('succeeded');
    } finally {
      doc.middlewareStack.remove('recordOrder');
    }
    expect(sent.filter((c) => c.key.startsWith('STATE#'))).toEqual([]);
    // The institution and its freshness go out before either is answered.
    const bookkeeping = sent.filter((c) => c.key.startsWith('INST#'));
    expect(bookkeeping).toHaveLength(2);
    expect(Math.max(...bookkeeping.map((c) => c.started))).toBeLessThan(Math.min(...bookkeeping.map((c) => c.ended!)));
  });

  it('updates a changed record, retires a vanished one (kept, not deleted), and the tools follow', async () => {
    const courses = cmpt();
    const [changed, removed] = [courses[0], courses[1]];
    const before = await server.rest('tn_course_get', { course: `sfu:${removed.dept} ${removed.number}` });
    expect(before.status).toBe(200);
    const file = await writeJson('cmpt.json', [{ ...changed, title: 'Renamed For The Test' }, ...courses.slice(2)]);
    const run = await ingestSource(server.services.store, sfuOutlines, file);
    expect(run.counts.written).toBe(1);
    expect(run.counts.retired).toBeGreaterThanOrEqual(1);
    expect(run.catalogVersion).toBeGreaterThan(0);

    const renamed = await server.rest('tn_course_get', { course: `sfu:${changed.dept} ${changed.number}` });
    expect(renamed.body.title).toBe('Renamed For The Test');
    const search = await server.rest('tn_course_search', { query: 'Renamed For The Test', institution: 'sfu' });
    expect(search.body.items[0].ref).toBe(`sfu:${changed.dept} ${changed.number}`);
    const gone = await server.rest('tn_course_get', { course: `sfu:${removed.dept} ${removed.number}` });
    expect(gone.status).toBe(404);
    // Each record, stored as an item or as a row of a pack (its offerings, in its subject's), is kept with its status.
    const { rows: records } = await courseRowsStored(server.services.store, 'sfu', `${removed.dept} ${removed.number}`);
    expect(records.length).toBeGreaterThan(1);
    expect(records.every((record) => record.status === 'retired')).toBe(true);
  });

  it('quarantines malformed records with the reason and loads the rest; a broken file retires nothing', async () => {
    const file = await writeJson('mixed.json', [...cmpt().slice(0, 5), { dept: 'CMPT', title: 'no number' }, 'not an object']);
    const run = await ingestSource(server.services.store, sfuOutlines, file);
    expect(run.status).toBe('succeeded');
    expect(run.counts.rejected).toBe(2);
    const quarantined = await unrecorded(() => server.services.store.doc.send(
      new QueryCommand({
        TableName: server.config.tableName,
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :q)',
        ExpressionAttributeValues: { ':pk': 'INGEST#sfu-outlines', ':q': `QUARANTINE#${run.runId}` },
      }),
    ));
    expect(quarantined.Items).toHaveLength(2);
    expect(quarantined.Items!.every((i) => typeof i.reason === 'string' && i.reason.length > 0)).toBe(true);

    const brokenFile = path.join(server.dataDir, 'broken.json');
    await writeFile(brokenFile, '[{"dept": "CMPT", "numb');
    const broken = await ingestSource(server.services.store, sfuOutlines, brokenFile);
    expect(broken.counts).toMatchObject({ parsed: 0, written: 0, retired: 0, rejected: 1 });
    expect((await server.rest('tn_course_get', { course: `sfu:${cmpt()[2].dept} ${cmpt()[2].number}` })).status).toBe(200);
  });

  it('keeps per-term files apart: ingesting spring does not retire fall sections', async () => {
    const sections = sourceNamed('sfu-sections')!;
    await ingestSource(server.services.store, sections, 'data/sample/sfu-outlines/sections-2025-fall.json');
    const spring = await ingestSource(server.services.store, sections, 'data/sample/sfu-outlines/sections-2026-spring.json');
    expect(spring.counts.retired).toBe(0);
    const fall = await server.rest('tn_course_section_list', { course: 'sfu:CMPT 225', term: '2025-fall' });
    expect(fall.body.totalCount).toBeGreaterThan(0);
  });

  it('loads a materials manifest and serves it; invalid entries are quarantined, never shown', async () => {
    const manifest = await writeJson('materials.json', {
      materials: [
        { course: 'SFU:cmpt225', kind: 'exam', title: 'Final, Fall 2024', url: 'https://example.edu/225/final.pdf', term: 'Fall 2024', id: 'f24' },
        { course: 'sfu:CMPT 225', kind: 'notes', title: 'Week 1', url: 'https://example.edu/225/w1.pdf' },
        { course: 'sfu:CMPT 225', kind: 'exam', title: 'Bad link', url: 'javascript:alert(1)' },
      ],
    });
    const run = await ingestSource(server.services.store, sourceNamed('materials')!, manifest);
    expect(run.counts).toMatchObject({ parsed: 2, rejected: 1 });
    const exams = await server.rest('tn_course_materials', { course: 'sfu:CMPT 225', kind: 'exam' });
    expect(exams.body.items).toEqual([expect.objectContaining({ title: 'Final, Fall 2024', term: '2024-fall', materialKind: 'exam' })]);
  });
});

describe('sources over HTTP', () => {
  let origin: Server;
  let base: string;
  let requests: { url: string; ifNoneMatch?: string }[] = [];
  let failuresLeft = 0;

  beforeAll(async () => {
    const body = JSON.stringify(outlines.filter((o) => o.dept === 'MACM'));
    origin = createServer((req, res) => {
      requests.push({ url: req.url!, ifNoneMatch: req.headers['if-none-match'] as string | undefined });
      if (req.url === '/missing.json') return void res.writeHead(404).end();
      if (failuresLeft > 0) {
        failuresLeft--;
        return void res.writeHead(503).end();
      }
      if (req.headers['if-none-match'] === '"v1"') return void res.writeHead(304).end();
      res.writeHead(200, { etag: '"v1"', 'content-type': 'application/json' }).end(body);
    });
    await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;
  });
  afterAll(() => origin?.close());

  it('retries server errors with backoff, then uses the ETag for a conditional GET', async () => {
    failuresLeft = 2;
    requests = [];
    const first = await ingestSource(server.services.store, sfuOutlines, `${base}/macm.json`, { load: { backoffMs: 10 } });
    expect(first.status).toBe('succeeded');
    expect(requests).toHaveLength(3);
    expect(first.counts.written).toBeGreaterThan(0);
    const second = await ingestSource(server.services.store, sfuOutlines, `${base}/macm.json`, { load: { backoffMs: 10 } });
    expect(second.status).toBe('not-modified');
    expect(requests.at(-1)!.ifNoneMatch).toBe('"v1"');
    expect(second.counts.written).toBe(0);
  });

  it('records a failed run without touching the catalog when the source is gone', async () => {
    const run = await ingestSource(server.services.store, sfuOutlines, `${base}/missing.json`, { load: { backoffMs: 10 } });
    expect(run.status).toBe('failed');
    expect(run.errors[0]).toContain('404');
    expect((await server.rest('tn_course_get', { course: 'sfu:MACM 101' })).status).toBe(200);
  });
});
