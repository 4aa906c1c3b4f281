import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DeleteCommand, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestTransferRules } from '../../functions/transfer/ingest/transfer-ingest.js';
import { ruleOf } from '../../functions/transfer/transfer-store.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { unrecorded } from '../support/store/command-recorder.js';
import { ROWS_BY_PARTITION, rowsOf } from '../../functions/catalog/ingestion/record-packs.js';
import { decodeValue, encodeValue } from '../../functions/platform/store/packed-value.js';

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
  it('stores each rule once, lists it under each of its courses, and writes nothing on an unchanged re-run', async () => {
    const file = await writeRows('cpsc-sfu.json', cpscTo('SFU'));
    const first = await ingestTransferRules(server.services.store, file);
    expect(first.status).toBe('succeeded');
    expect(first.counts.parsed).toBeLessThan(cpscTo('SFU').length);
    const again = await ingestTransferRules(server.services.store, file);
    expect(again.counts).toMatchObject({ written: 0, retired: 0 });

    const listings = await unrecorded(() => server.services.store.doc.send(
      new QueryCommand({
        TableName: server.config.tableName,
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
        ExpressionAttributeValues: { ':pk': 'COURSE#langara#CPSC 1181', ':prefix': 'transfer#outgoing#' },
      }),
    ));
    // One pack item holds the course's outgoing listings, a row per rule.
    expect(listings.Items!.map((i) => i.SK)).toEqual(['transfer#outgoing#*#bctransferguide']);
    const rows = listings.Items!.flatMap(rowsOf).filter((row) => row.SK.startsWith('transfer#outgoing#sfu#'));
    const bundled = rows.find((row) => (row.equivalence as { sourceCourses: string[] }).sourceCourses.length === 2)! as Record<string, any>;
    expect(bundled.equivalence.sourceCourses).toEqual(['langara:CPSC 1160', 'langara:CPSC 1181']);
    const rule = await unrecorded(() => server.services.store.doc.send(
      new GetCommand({ TableName: server.config.tableName, Key: { PK: `RULE#${bundled.ruleId}`, SK: 'RULE' } }),
    ));
    // Stored packed (one gzipped JSON value), read back whole.
    expect(rule.Item!.rule).toBeUndefined();
    expect(ruleOf(rule.Item!).listedUnder).toBeGreaterThanOrEqual(2);
    expect(ruleOf(rule.Item!).effectiveStart).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('moves listings stored as items of their own (before packs) into the course pack, retiring the old items', async () => {
    const file = await writeRows('cpsc-sfu.json', cpscTo('SFU'));
    await ingestTransferRules(server.services.store, file);
    const table = server.config.tableName;
    const pk = 'COURSE#langara#CPSC 1181';
    const read = async () =>
      (await unrecorded(() => server.services.store.doc.send(
        new QueryCommand({ TableName: table, KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)', ExpressionAttributeValues: { ':pk': pk, ':prefix': 'transfer#outgoing#' } }),
      ))).Items!;
    const [pack] = await read();
    const row = rowsOf(pack!)[0]!;
    // The same listing as an item of its own, as a table ingested before packs holds it.
    await unrecorded(() => server.services.store.doc.send(new PutCommand({ TableName: table, Item: { ...row, GSI2SK: `${pk}|${row.SK}` } })));
    const packed = { ...pack!, [ROWS_BY_PARTITION]: { [pk]: encodeValue(rowsOf(pack!).filter((r) => r.SK !== row.SK).map(({ PK: _pk, GSI2PK: _owner, ...rest }) => rest)) } };
    await unrecorded(() => server.services.store.doc.send(new PutCommand({ TableName: table, Item: packed })));

    const run = await ingestTransferRules(server.services.store, file);
    expect(run.counts.written).toBe(1);
    const after = await read();
    const old = after.find((item) => item.SK === row.SK)!;
    expect(old).toMatchObject({ status: 'retired', movedTo: 'transfer#outgoing#*#bctransferguide' });
    const rows = after.filter((item) => item.SK === 'transfer#outgoing#*#bctransferguide').flatMap(rowsOf);
    expect(rows.find((r) => r.SK === row.SK)).toMatchObject({ status: 'active', ruleId: row.ruleId });
    expect((await ingestTransferRules(server.services.store, file)).counts).toMatchObject({ written: 0, retired: 0 });
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

  it('resolves 40 courses in at most 2 store round trips from the pair indexes, answering as the course listings do', async () => {
    const rows = langara.courses.filter((r) => r.destination === 'SFU');
    await ingestTransferRules(server.services.store, await writeRows('all-sfu.json', rows));
    const codes = [...new Set(rows.filter((r) => r.effective_end === 'present').map((r) => `${r.subject} ${r.course_code}`))].sort().slice(0, 38);
    const input = { sourceInstitution: 'langara', targetInstitution: 'sfu', sourceCourses: [...codes, 'CPSC 1999', 'MATH 1172'], asOfDate: '2023-01-01' };
    const indexed = await server.rest('tn_transfer_resolve', input, null);
    expect(indexed.status).toBe(200);
    expect(indexed.body.exactMatches.length).toBeGreaterThan(30);
    expect(indexed.body.roundTrips).toBeLessThanOrEqual(2);

    // A warm process answers again from the index items it holds, without a store read.
    const warm = await server.rest('tn_transfer_resolve', { ...input, asOfDate: '2023-01-02' }, null);
    expect(warm.body.roundTrips).toBe(0);

    // Without the pair's index marker (data from before indexes) a new process reads the listings, a Query per course.
    const marker = { PK: 'TRANSFER#langara#sfu', SK: 'INDEXED-BY-COURSE' };
    const saved = (await unrecorded(() => server.services.store.doc.send(new GetCommand({ TableName: server.config.tableName, Key: marker })))).Item!;
    await unrecorded(() => server.services.store.doc.send(new DeleteCommand({ TableName: server.config.tableName, Key: marker })));
    const cold = await startTestServer({ TN_TABLE_NAME: server.config.tableName });
    try {
      const listed = await cold.rest('tn_transfer_resolve', { ...input, sourceCourses: [...input.sourceCourses].reverse() }, null);
      expect(listed.body.roundTrips).toBeGreaterThan(40);
      const { roundTrips: _a, normalizedCourses: _b, ...fromListings } = listed.body;
      const { roundTrips: _c, normalizedCourses: _d, ...fromIndex } = indexed.body;
      expect(fromIndex).toEqual(fromListings);
    } finally {
      await cold.close();
      await unrecorded(() => server.services.store.doc.send(new PutCommand({ TableName: server.config.tableName, Item: saved })));
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
    await unrecorded(() => server.services.store.doc.send(new PutCommand({ TableName: server.config.tableName, Item: { ...item, PK: 'RULE#bctg-olderreading0000000000', GSI1SK: String(item.GSI1SK).replace(current.ruleId, older.ruleId), rulePacked: encodeValue(older) } })));
    const again = await ingestTransferRules(server.services.store, file);
    expect(again.counts.retired).toBeGreaterThanOrEqual(1);
    expect((await get('bctg-olderreading0000000000'))!.status).toBe('retired');
    expect((await get(current.ruleId))!.status).toBe('active');
  });

  it('defers the pair index rebuild to the caller, serving the listings (never a stale index) until it runs', async () => {
    const marker = { PK: 'TRANSFER#langara#uvic', SK: 'INDEXED-BY-COURSE' };
    const itemNow = async (Key: Record<string, string>) => (await unrecorded(() => server.services.store.doc.send(new GetCommand({ TableName: server.config.tableName, Key })))).Item;
    const markerNow = () => itemNow(marker);
    await ingestTransferRules(server.services.store, await writeRows('uvic-first.json', cpscTo('UVIC').slice(0, 3)));
    expect(await markerNow()).toBeDefined();

    const deferred = new Map<string, () => Promise<void>>();
    const run = await ingestTransferRules(server.services.store, await writeRows('uvic-more.json', cpscTo('UVIC').slice(0, 6)), { deferred });
    expect(run.counts.written).toBeGreaterThan(0);
    expect([...deferred.keys()]).toEqual(['transfer-index:langara']);
    expect(await markerNow()).toBeUndefined();
    const before = await server.rest('tn_transfer_resolve', { sourceInstitution: 'langara', targetInstitution: 'uvic', sourceCourses: ['CPSC 1150'], asOfDate: '2023-01-03' }, null);
    expect(before.status).toBe(200);

    for (const work of deferred.values()) await work();
    expect(await markerNow()).toBeDefined();
    // One index item per sending course holds its rules towards every receiver the sender has.
    const manifest = await itemNow({ PK: 'TRANSFER-INDEX#langara', SK: 'MANIFEST' });
    expect(manifest?.receivers).toEqual(expect.arrayContaining(['sfu', 'ubc', 'uvic']));
    const receiversIndexed = async (code: string) => {
      const index = await itemNow({ PK: `TRANSFER-INDEX#langara#${code}`, SK: 'EVERY-RECEIVER' });
      return [...new Set((decodeValue(index!.packedRules) as { receiverInstitution: string }[]).map((rule) => rule.receiverInstitution))];
    };
    expect(await receiversIndexed('CPSC 1150')).toEqual(expect.arrayContaining(['sfu', 'ubc']));
    const first = cpscTo('UVIC')[0];
    expect(await receiversIndexed(`${first.subject} ${first.course_code}`)).toContain('uvic');
    expect(manifest?.courses).toEqual(expect.arrayContaining([...new Set(cpscTo('UVIC').slice(0, 6).map((r) => `${r.subject} ${r.course_code}`))]));
  });

  it('quarantines malformed rows and loads the rest', async () => {
    const rows = [...cpscTo('UVIC').slice(0, 5), { subject: 'CPSC', destination: 'UVIC' }];
    const run = await ingestTransferRules(server.services.store, await writeRows('bad.json', rows));
    expect(run.status).toBe('succeeded');
    expect(run.counts.rejected).toBe(1);
    expect(run.counts.parsed).toBeGreaterThan(0);
  });
});
