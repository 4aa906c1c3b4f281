import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestTransferRules } from '../../functions/transfer/transfer-ingest.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

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

    const listings = await server.services.store.doc.send(
      new QueryCommand({
        TableName: server.config.tableName,
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
        ExpressionAttributeValues: { ':pk': 'COURSE#langara#CPSC 1181', ':prefix': 'transfer#outgoing#sfu#' },
      }),
    );
    const bundled = listings.Items!.find((i) => i.equivalence.sourceCourses.length === 2)!;
    expect(bundled.equivalence.sourceCourses).toEqual(['langara:CPSC 1160', 'langara:CPSC 1181']);
    const rule = await server.services.store.doc.send(
      new GetCommand({ TableName: server.config.tableName, Key: { PK: `RULE#${bundled.ruleId}`, SK: 'RULE' } }),
    );
    expect(rule.Item!.rule.listedUnder).toBeGreaterThanOrEqual(2);
    expect(rule.Item!.rule.effectiveStart).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('retires rules gone from a pair without touching other pairs', async () => {
    await ingestTransferRules(server.services.store, await writeRows('cpsc-ubcv.json', cpscTo('UBCV')));
    const trimmed = cpscTo('SFU').filter((r) => r.course_code !== 1150);
    const run = await ingestTransferRules(server.services.store, await writeRows('cpsc-sfu.json', trimmed));
    expect(run.counts.retired).toBeGreaterThan(0);
    const toSfu = await server.rest('tn_course_equivalent_elsewhere', { course: 'langara:CPSC 1150', otherInstitution: 'sfu' }, null);
    expect(toSfu.body.items).toEqual([]);
    const toUbc = await server.rest('tn_course_equivalent_elsewhere', { course: 'langara:CPSC 1150', otherInstitution: 'UBCV' }, null);
    expect(toUbc.body.items.length).toBeGreaterThan(0);
  });

  it('quarantines malformed rows and loads the rest', async () => {
    const rows = [...cpscTo('UVIC').slice(0, 5), { subject: 'CPSC', destination: 'UVIC' }];
    const run = await ingestTransferRules(server.services.store, await writeRows('bad.json', rows));
    expect(run.status).toBe('succeeded');
    expect(run.counts.rejected).toBe(1);
    expect(run.counts.parsed).toBeGreaterThan(0);
  });
});
