import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestSource } from '../../functions/ingest/ingest-source.js';
import { sourceNamed } from '../../functions/ingest/sources.js';
import { unrecorded } from '../support/store/command-recorder.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { courseRowsStored } from '../support/course-rows.js';

/**
 * The ingestion guarantees on slices of the new real sources (issue 16): a re-run writes nothing,
 * a changed row updates, a removed row retires (kept, not deleted), a malformed row is quarantined
 * with its reason, and every run leaves a run record.
 */
let server: TestServer;
let ubc: { code: string; subject: string; number: string; title: string; description: string | null; credits: string }[];
let uvic: Record<string, { courseId: string; title: string }>;

beforeAll(async () => {
  server = await startTestServer();
  ubc = JSON.parse(await readFile('data/sample/ubc-catalog-2026/courses.json', 'utf8'));
  uvic = JSON.parse(await readFile('data/sample/uvic-catalog-2024/courses-prereqs.json', 'utf8'));
});
afterAll(async () => {
  await server?.close();
});

async function write(name: string, text: string): Promise<string> {
  const file = path.join(server.dataDir, name);
  await writeFile(file, text);
  return file;
}

const queryPartition = (pk: string, prefix = '') =>
  unrecorded(() =>
    server.services.store.doc.send(
      new QueryCommand({
        TableName: server.config.tableName,
        KeyConditionExpression: prefix ? 'PK = :pk AND begins_with(SK, :p)' : 'PK = :pk',
        ExpressionAttributeValues: { ':pk': pk, ...(prefix ? { ':p': prefix } : {}) },
      }),
    ),
  );

describe('ubc-calendar (UBC Vancouver 2026 slice) into DynamoDB Local', () => {
  const adapter = sourceNamed('ubc-calendar')!;
  const cpsc = () => ubc.filter((c) => c.subject === 'CPSC').slice(0, 30);

  it('writes once, then nothing on a re-run, with a run record each time', async () => {
    const file = await write('ubc-cpsc.json', JSON.stringify(cpsc()));
    const first = await ingestSource(server.services.store, adapter, file);
    expect(first.counts).toMatchObject({ parsed: 30, written: 30, rejected: 0 });
    const again = await ingestSource(server.services.store, adapter, file);
    expect(again.counts).toMatchObject({ parsed: 30, written: 0, unchanged: 30, retired: 0 });
    const runs = await queryPartition('INGEST#ubc-calendar', 'RUN#');
    expect(runs.Items?.map((r) => r.runId)).toEqual(expect.arrayContaining([first.runId, again.runId]));
    const got = await server.rest('tn_course_get', { course: `ubc:${cpsc()[3]!.code}` });
    expect(got.status).toBe(200);
    expect(got.body.title).toBe(cpsc()[3]!.title);
  });

  it('updates a changed row, retires a removed one, quarantines a malformed one', async () => {
    const [changed, removed, ...rest] = cpsc();
    const file = await write('ubc-cpsc.json', JSON.stringify([{ ...changed, title: 'Changed Upstream' }, ...rest, { subject: 'CPSC', number: '??' }]));
    const run = await ingestSource(server.services.store, adapter, file);
    expect(run.counts).toMatchObject({ written: 1, retired: 1, rejected: 1 });
    expect((await server.rest('tn_course_get', { course: `ubc:${changed!.code}` })).body.title).toBe('Changed Upstream');
    expect((await server.rest('tn_course_get', { course: `ubc:${removed!.code}` })).status).toBe(404);
    const kept = (await courseRowsStored(server.services.store, 'ubc', removed!.code)).rows;
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.every((row) => row.status === 'retired')).toBe(true);
    const quarantined = await queryPartition('INGEST#ubc-calendar', `QUARANTINE#${run.runId}`);
    expect(quarantined.Items!.map((q) => q.reason)).toEqual(['not a course code: "CPSC ??"']);
  });

  it('keeps campuses apart: loading the Okanagan CSV retires no Vancouver course', async () => {
    const csv = (await readFile('data/sample/ubco-catalog-2024/ubc_okanagan_courses.csv', 'utf8')).split('\n').slice(0, 11).join('\n');
    const run = await ingestSource(server.services.store, adapter, await write('ubco.csv', csv));
    expect(run.counts).toMatchObject({ parsed: 10, written: 10, retired: 0 });
    expect((await server.rest('tn_course_get', { course: `ubc:${cpsc()[3]!.code}` })).status).toBe(200);
  });
});

describe('uvic-requisites (slice) into DynamoDB Local', () => {
  const adapter = sourceNamed('uvic-requisites')!;
  const ids = ['CSC110', 'CSC115', 'CSC225', 'CSC226', 'CSC299', 'MATH122'];
  const slice = (patch: Record<string, unknown> = {}) => JSON.stringify({ ...Object.fromEntries(ids.map((id) => [id, uvic[id]])), ...patch });

  it('re-runs idempotently, updates, retires and quarantines; prereqs answers from the Kuali tree', async () => {
    const file = await write('uvic.json', slice());
    const first = await ingestSource(server.services.store, adapter, file);
    expect(first.counts).toMatchObject({ parsed: 6, written: 6, rejected: 0 });
    expect((await ingestSource(server.services.store, adapter, file)).counts).toMatchObject({ written: 0, unchanged: 6 });

    const prereqs = await server.rest('tn_course_prereqs', { course: 'uvic:CSC 225', completed: [{ course: 'CSC 115' }] });
    expect(prereqs.status).toBe(200);
    expect(prereqs.body.treeFrom).toBe('source');
    expect(prereqs.body.parsed.fullyParsed).toBe(true);
    expect(prereqs.body.check.satisfied).toBe(false);
    expect(JSON.stringify(prereqs.body.check.missing)).toContain('MATH 122');

    const changed = await write('uvic.json', slice({ CSC110: undefined, CSC226: { ...uvic.CSC226!, title: 'Renamed' }, 'BAD 1': { courseId: 'BAD 1' } }));
    const run = await ingestSource(server.services.store, adapter, changed);
    expect(run.counts).toMatchObject({ written: 1, retired: 1, rejected: 1 });
    expect((await server.rest('tn_course_get', { course: 'uvic:CSC 226' })).body.title).toBe('Renamed');
    expect((await server.rest('tn_course_get', { course: 'uvic:CSC 110' })).status).toBe(404);
    const quarantined = await queryPartition('INGEST#uvic-requisites', `QUARANTINE#${run.runId}`);
    expect(quarantined.Items!.map((q) => q.reason)).toEqual(['not a UVic course id: "BAD 1"']);
  });
});

describe('institutions with counts and freshness', () => {
  it('lists UVic and UBC with their course counts and each source\'s last ingestion', async () => {
    const listed = await server.rest('tn_course_institutions', { limit: 100 });
    const byId = Object.fromEntries(listed.body.items.map((i: { id: string }) => [i.id, i]));
    expect(byId.uvic.courses).toBe(5);
    expect(byId.uvic.sources.map((s: { source: string }) => s.source)).toContain('uvic-requisites');
    expect(byId.ubco.courses).toBe(10);
    expect(byId.ubc.sources.find((s: { source: string }) => s.source === 'ubc-calendar').lastIngestedAt).toMatch(/^\d{4}-/);
  });
});

describe('ubc-grades: the combined 2021S–2025W file', () => {
  it('retires a removed row only within the scopes the file carries', async () => {
    const lines = (await readFile('data/sample/ubc-grades-2021-2025/ubc-grades-v2-2021S-2025W.csv', 'utf8')).split('\n');
    const rows = lines.filter((line) => line.startsWith('UBCO,2025,W,COSC,'));
    const adapter = sourceNamed('ubc-grades')!;
    const file = await write('grades.csv', [lines[0], ...rows].join('\n'));
    const first = await ingestSource(server.services.store, adapter, file);
    expect(first.counts.written).toBe(rows.length);
    expect((await ingestSource(server.services.store, adapter, file)).counts).toMatchObject({ written: 0, unchanged: rows.length });
    const shorter = await write('grades.csv', [lines[0], ...rows.slice(1), 'UBCO,2025,W,COSC,111,,009,Bad,X,ten,,,,,,,,,,,,,,,,,'].join('\n'));
    const run = await ingestSource(server.services.store, adapter, shorter);
    expect(run.counts).toMatchObject({ written: 0, retired: 1, rejected: 1 });
  });
});
