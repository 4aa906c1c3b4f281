import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestTransferRules } from '../../functions/transfer/ingest/transfer-ingest.js';
import { ruleOf } from '../../functions/transfer/transfer-store.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { unrecorded } from '../support/store/command-recorder.js';
import { aggregateItem, readAggregate, rowsOf } from '../../functions/catalog/ingestion/aggregates.js';

let server: TestServer;
let langara: { courses: any[] };
beforeAll(async () => {
  server = await startTestServer();
  langara = JSON.parse(await readFile('data/sample/bctransferguide/langara-transfers-2023-04.json', 'utf8'));
});
afterAll(async () => {
  await server?.close();
});

async function writeRows(name: string, rows: any[]): Promise<string> {
  const file = path.join(server.dataDir, name);
  await writeFile(file, JSON.stringify({ courses: rows }));
  return file;
}

const cpscTo = (destination: string) => langara.courses.filter((r) => r.subject === 'CPSC' && r.destination === destination);

describe('BC Transfer Guide ingestion', () => {
  it('stores each rule by id and under each of its courses, and writes nothing on an unchanged re-run', async () => {
    const file = await writeRows('cpsc-sfu.json', cpscTo('SFU'));
    const first = await ingestTransferRules(server.services.store, file);
    expect(first.status).toBe('succeeded');
    expect(first.counts.parsed).toBeLessThan(cpscTo('SFU').length);
    const again = await ingestTransferRules(server.services.store, file);
    expect(again.counts).toMatchObject({ written: 0, retired: 0 });

    const outgoing = await unrecorded(() => server.services.store.doc.send(
      new QueryCommand({
        TableName: server.config.tableName,
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
        ExpressionAttributeValues: { ':pk': 'COURSE#langara#CPSC 1181', ':prefix': 'transfers-out#' },
      }),
    ));
    // One item of the sending course holds its rules, a row per rule, each the whole rule.
    expect(outgoing.Items!.map((i) => i.SK)).toEqual(['transfers-out#bctransferguide']);
    const rules = rowsOf(outgoing.Items![0]!).map((row) => row.rule as { ruleId: string; sourceCourses: { code: string }[]; receiverInstitution: string });
    const bundled = rules.find((rule) => rule.sourceCourses.length === 2 && rule.receiverInstitution === 'sfu')!;
    expect(bundled.sourceCourses.map((c) => c.code)).toEqual(['CPSC 1160', 'CPSC 1181']);
    const rule = await unrecorded(() => server.services.store.doc.send(
      new GetCommand({ TableName: server.config.tableName, Key: { PK: `RULE#${bundled.ruleId}`, SK: 'RULE' } }),
    ));
    // Stored packed (one gzipped JSON value), read back whole.
    expect(rule.Item!.rule).toBeUndefined();
    expect(ruleOf(rule.Item!).listedUnder).toBeGreaterThanOrEqual(2);
    expect(ruleOf(rule.Item!).effectiveStart).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    // And under the other sending course too.
    const other = await unrecorded(() => server.services.store.doc.send(new GetCommand({ TableName: server.config.tableName, Key: { PK: 'COURSE#langara#CPSC 1160', SK: 'transfers-out#bctransferguide' } })));
    expect(rowsOf(other.Item!).map((row) => row.id)).toContain(bundled.ruleId);
  });

  it('ends rules gone from a pair (history, not erased) without touching other pairs', async () => {
    await ingestTransferRules(server.services.store, await writeRows('cpsc-ubcv.json', cpscTo('UBCV')));
    const trimmed = cpscTo('SFU').filter((r) => r.course_code !== 1150);
    const run = await ingestTransferRules(server.services.store, await writeRows('cpsc-sfu.json', trimmed));
    expect(run.counts.written).toBeGreaterThan(0);
    // Still there for the dates the earlier file said it was in force.
    const then = await server.rest('tn_course_equivalent_elsewhere', { course: 'langara:CPSC 1150', otherInstitution: 'sfu', asOfDate: '2010-01-01' }, null);
    expect(then.body.items.length).toBeGreaterThan(0);
    const toSfu = await server.rest('tn_course_equivalent_elsewhere', { course: 'langara:CPSC 1150', otherInstitution: 'sfu' }, null);
    expect(toSfu.body.items).toEqual([]);
    const toUbc = await server.rest('tn_course_equivalent_elsewhere', { course: 'langara:CPSC 1150', otherInstitution: 'UBCV' }, null);
    expect(toUbc.body.items.length).toBeGreaterThan(0);
  });

  it('takes a later snapshot of active agreements as history: changed rules are superseded, older history stays', async () => {
    const october = JSON.parse(await readFile('data/sample/bctransferguide/langara-transfers-2023-10.json', 'utf8')) as { courses: any[] };
    const ubco = (rows: any[]) => rows.filter((r) => r.destination === 'UBCO' && ['AHIS', 'CPSC'].includes(r.subject));
    expect((await ingestTransferRules(server.services.store, await writeRows('ubco-april.json', ubco(langara.courses)))).status).toBe('succeeded');
    const later = await ingestTransferRules(server.services.store, await writeRows('ubco-october.json', ubco(october.courses)));
    expect(later.status).toBe('succeeded');

    const resolve = (asOfDate: string, course = 'AHIS 1114') =>
      server.rest('tn_transfer_resolve', { sourceInstitution: 'langara', targetInstitution: 'ubco', sourceCourses: [course], asOfDate }, null);
    // LANG AHIS 1114: UBCO ARTH 2nd (3) May/05–Aug/23 (April said "present"), then UBCO ARTH 1st (3) from Sep/23.
    const before = await resolve('2020-01-01');
    expect(before.body.exactMatches.map((m: any) => m.targets[0].text)).toEqual(['UBCO ARTH 2nd (3)']);
    expect(before.body.exactMatches[0].effectiveEnd).toBe('2023-08-31');
    const after = await resolve('2024-01-01');
    expect(after.body.exactMatches.map((m: any) => m.targets[0].text)).toEqual(['UBCO ARTH 1st (3)']);
    expect([before.body.conflicts, after.body.conflicts]).toEqual([[], []]);
    const details = await server.rest('tn_transfer_details', { ruleId: after.body.exactMatches[0].ruleId }, null);
    expect(details.body.history.map((h: any) => h.ruleId)).toContain(before.body.exactMatches[0].ruleId);

    // Rules that ended before October's period are not in it, and stay as history.
    const endedEarly = ubco(langara.courses).filter((r) => r.effective_end !== 'present' && Number(r.effective_end.slice(-2)) < 23);
    expect(endedEarly.length).toBeGreaterThan(0);
    const old = endedEarly[0]!;
    const oldYear = 2000 + Number(old.effective_end.slice(-2));
    const history = await resolve(`${oldYear}-01-01`, `${old.subject} ${old.course_code}`);
    expect(history.body.exactMatches.length + history.body.partialMatches.length + history.body.noCreditMatches.length + history.body.individualAssessmentMatches.length + history.body.conditionalMatches.length).toBeGreaterThan(0);
  });

  it('resolves 40 courses from the transfer index in a few store round trips, and from memory when warm', async () => {
    const rows = langara.courses.filter((r) => r.destination === 'SFU');
    await ingestTransferRules(server.services.store, await writeRows('all-sfu.json', rows));
    const codes = [...new Set(rows.filter((r) => r.effective_end === 'present').map((r) => `${r.subject} ${r.course_code}`))].sort().slice(0, 38);
    const input = { sourceInstitution: 'langara', targetInstitution: 'sfu', sourceCourses: [...codes, 'CPSC 1999', 'MATH 1172'], asOfDate: '2023-01-01' };
    const cold = await startTestServer({ TN_TABLE_NAME: server.config.tableName });
    try {
      const first = await cold.rest('tn_transfer_resolve', input, null);
      expect(first.status).toBe(200);
      expect(first.body.exactMatches.length).toBeGreaterThan(30);
      // One BatchGetItem of the 40 courses' items, one of their one-digit neighbours, and the catalog's index for credits rows leave unstated.
      expect(first.body.roundTrips).toBeLessThanOrEqual(4);
      // A warm process answers again from what it holds, without a store read.
      const warm = await cold.rest('tn_transfer_resolve', { ...input, asOfDate: '2023-01-02' }, null);
      expect(warm.body.roundTrips).toBe(0);
      // Another process answers the same, whatever the order of the courses.
      const other = await server.rest('tn_transfer_resolve', { ...input, sourceCourses: [...input.sourceCourses].reverse() }, null);
      const { roundTrips: _a, normalizedCourses: _b, ...fromOther } = other.body;
      const { roundTrips: _c, normalizedCourses: _d, ...fromFirst } = first.body;
      expect(fromOther).toEqual(fromFirst);
    } finally {
      await cold.close();
    }
  });

  it('retires an older reading of a row (the same wording read by an earlier parser) instead of keeping it as history', async () => {
    const rowsOf = (credit: string) => langara.courses.filter((r) => r.credit === credit && r.destination === 'UBCV');
    const wording = 'UBCV BIOL 2nd (3), if taken alone; BIOL 201 (3) with one of LANG CHEM 2216, CHEM 2316 or CHEM 2416 Organic Chemistry + Lab.';
    const october = JSON.parse(await readFile('data/sample/bctransferguide/langara-transfers-2023-10.json', 'utf8')).courses.filter((r: any) => r.credit === wording);
    const file = await writeRows('biol-ubc.json', [...rowsOf('UBCV BIOL 2nd (3)'), ...october]);
    await ingestTransferRules(server.services.store, file);
    const get = async (ruleId: string) => (await unrecorded(() => server.services.store.doc.send(new GetCommand({ TableName: server.config.tableName, Key: { PK: `RULE#${ruleId}`, SK: 'RULE' } })))).Item;
    const search = await server.rest('tn_transfer_search', { sourceInstitution: 'langara', targetInstitution: 'ubc', course: 'BIOL 2315' }, null);
    const current = search.body.items.find((r: any) => r.targets[0] === 'UBCV BIOL 2nd (3)' && r.condition?.startsWith('if taken alone'));
    const item = (await get(current.ruleId))!;
    // What the parser before issue 29 stored for this wording: both outcomes as targets of one award, under another id.
    const older = { ...ruleOf(item), ruleId: 'bctg-olderreading0000000000', targets: [...ruleOf(item).targets, { kind: 'course', institution: 'ubc', subject: 'BIOL', number: '201', code: 'BIOL 201', credits: 3, text: 'BIOL 201 (3)' }], parserVersion: undefined };
    const stored = readAggregate(item);
    const olderItem = aggregateItem('bctransferguide', {
      ...stored,
      PK: 'RULE#bctg-olderreading0000000000',
      listing: { GSI1PK: String(item.GSI1PK), GSI1SK: String(item.GSI1SK).replace(current.ruleId, older.ruleId) },
      rows: stored.rows.map((row) => ({ ...row, contentHash: 'older', rule: older })),
    });
    await unrecorded(() => server.services.store.doc.send(new PutCommand({ TableName: server.config.tableName, Item: olderItem })));
    const again = await ingestTransferRules(server.services.store, file);
    expect(again.counts.retired).toBeGreaterThanOrEqual(1);
    expect((await get('bctg-olderreading0000000000'))!.status).toBe('retired');
    expect((await get(current.ruleId))!.status).toBe('active');
  });

  it('writes the transfer index in the run itself: a resolve right after sees the new rules, every receiver in one item per course', async () => {
    await ingestTransferRules(server.services.store, await writeRows('uvic-first.json', cpscTo('UVIC').slice(0, 3)));
    const run = await ingestTransferRules(server.services.store, await writeRows('uvic-more.json', cpscTo('UVIC').slice(0, 6)));
    expect(run.counts.written).toBeGreaterThan(0);
    const first = cpscTo('UVIC')[5];
    const code = `${first.subject} ${first.course_code}`;
    const resolved = await server.rest('tn_transfer_resolve', { sourceInstitution: 'langara', targetInstitution: 'uvic', sourceCourses: [code], asOfDate: '2023-01-03' }, null);
    expect(resolved.status).toBe(200);
    const found = [...resolved.body.exactMatches, ...resolved.body.partialMatches, ...resolved.body.noCreditMatches, ...resolved.body.individualAssessmentMatches, ...resolved.body.conditionalMatches, ...resolved.body.nearMisses.flatMap((m: any) => m.suggestions)];
    expect(found.length).toBeGreaterThan(0);
    const index = (await unrecorded(() => server.services.store.doc.send(new GetCommand({ TableName: server.config.tableName, Key: { PK: 'COURSE#langara#CPSC 1150', SK: 'transfers-out#bctransferguide' } })))).Item!;
    const receivers = [...new Set(rowsOf(index).map((row) => (row.rule as { receiverInstitution: string }).receiverInstitution))];
    expect(receivers).toEqual(expect.arrayContaining(['sfu', 'ubc']));
  });

  it('quarantines malformed rows and loads the rest', async () => {
    const rows = [...cpscTo('UVIC').slice(0, 5), { subject: 'CPSC', destination: 'UVIC' }];
    const run = await ingestTransferRules(server.services.store, await writeRows('bad.json', rows));
    expect(run.status).toBe('succeeded');
    expect(run.counts.rejected).toBe(1);
    expect(run.counts.parsed).toBeGreaterThan(0);
  });
});
