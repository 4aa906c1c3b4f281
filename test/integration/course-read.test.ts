import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { unrecorded } from '../support/store/command-recorder.js';
import { catalogKeys } from '../../functions/platform/store/keys.js';
import { attribute, readUnits, startRecordingProxy, type RecordingProxy } from '../support/recording-proxy.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * A course page is the course's own item collection (ADR 0042): counted on the wire, through a proxy in
 * front of DynamoDB Local, a cold read is the catalog version and one Query that returns the course's
 * items and nothing else.
 */
let proxy: RecordingProxy;
let server: TestServer;
beforeAll(async () => {
  proxy = await startRecordingProxy(inject('dynamoDbEndpoint'));
  server = await startTestServer({ TN_DYNAMODB_ENDPOINT: proxy.url }, { catalog: 'shared' });
});
afterAll(async () => {
  await server?.close();
  await proxy?.close();
});

/** Every item the course's partition holds, read directly (not through the proxy). */
async function partition(institution: string, code: string): Promise<string[]> {
  const result = await unrecorded(() =>
    server.services.store.doc.send(
      new QueryCommand({ TableName: server.config.tableName, KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': catalogKeys.coursePartition(institution, code) } }),
    ),
  );
  return (result.Items ?? []).map((item) => String(item.SK)).sort();
}

async function coldRead(tool: string, input: Record<string, unknown>) {
  // Another process's first read: nothing of the course held yet. The suite re-reads the catalog version on every
  // read (TN_CATALOG_VERSION_CHECK_MS=0); here it is read as a deployed function does, once per call.
  const fresh = await startTestServer({ TN_DYNAMODB_ENDPOINT: proxy.url, TN_TABLE_NAME: server.config.tableName });
  const interval = process.env.TN_CATALOG_VERSION_CHECK_MS;
  process.env.TN_CATALOG_VERSION_CHECK_MS = '5000';
  try {
    proxy.clear();
    const answer = await fresh.rest(tool, input, null);
    return { answer, calls: [...proxy.calls] };
  } finally {
    process.env.TN_CATALOG_VERSION_CHECK_MS = interval;
    await fresh.close();
  }
}

describe('a course read, counted on the wire', () => {
  it('is the catalog version and one Query of the course partition, returning exactly its items', async () => {
    const { answer, calls } = await coldRead('tn_course_get', { course: 'sfu:CMPT 225' });
    expect(answer.status).toBe(200);
    expect(calls.map((call) => call.operation)).toEqual(['GetItem', 'Query']);
    const [version, query] = calls;
    expect(version!.request.Key).toEqual({ PK: { S: 'CATALOG' }, SK: { S: 'VERSION' } });
    expect(query!.request.IndexName).toBeUndefined();
    expect(query!.request.ExpressionAttributeValues[':pk']).toEqual({ S: 'COURSE#sfu#CMPT 225' });
    expect(query!.response.LastEvaluatedKey).toBeUndefined();
    const items = query!.response.Items as Record<string, any>[];
    expect(items.every((item) => attribute(item, 'PK') === 'COURSE#sfu#CMPT 225')).toBe(true);
    expect(items.map((item) => attribute(item, 'SK')).sort()).toEqual(await partition('sfu', 'CMPT 225'));
    // One item per source and scope: the outlines (fragment and offerings) and one per term of sections.
    expect(items.map((item) => attribute(item, 'SK'))).toEqual(expect.arrayContaining(['records#sfu-outlines#all', 'records#sfu-sections#2025-fall', 'records#sfu-sections#2026-spring']));
    // Charged on what the course holds: a few KB, not a subject's packs.
    expect(readUnits(items)).toBeLessThanOrEqual(1.5);
    expect(answer.body.offeredTerms).toEqual(expect.arrayContaining(['2025-fall', '2026-spring']));
  });

  it("reads a course's grades as one item per session, with nothing of another course", async () => {
    const { answer, calls } = await coldRead('tn_course_grades', { course: 'ubc:CPSC 110' });
    expect(answer.status).toBe(200);
    expect(calls.map((call) => call.operation)).toEqual(['GetItem', 'Query']);
    const items = calls[1]!.response.Items as Record<string, any>[];
    expect(items.every((item) => attribute(item, 'PK') === 'COURSE#ubc#CPSC 110')).toBe(true);
    const gradeItems = items.map((item) => attribute(item, 'SK')!).filter((sk) => sk.startsWith('records#ubc-grades#'));
    const sessions = new Set<string>(answer.body.summary.terms);
    expect(sessions.size).toBeGreaterThan(1);
    expect(gradeItems).toHaveLength(sessions.size);
    for (const term of sessions) expect(gradeItems).toContain(`records#ubc-grades#ubc:${term}:CPSC`);
  });

  it("brings a sending course's transfer rules in the same Query", async () => {
    const { answer, calls } = await coldRead('tn_course_equivalent_elsewhere', { course: 'langara:CPSC 1150' });
    expect(answer.status).toBe(200);
    expect(answer.body.items.length).toBeGreaterThan(0);
    expect(calls.map((call) => call.operation)).toEqual(['GetItem', 'Query']);
    expect((calls[1]!.response.Items as Record<string, any>[]).map((item) => attribute(item, 'SK'))).toContain('transfers-out#bctransferguide');
  });

  it('reads nothing of the course again in a warm process (only the version check)', async () => {
    await server.rest('tn_course_get', { course: 'sfu:CMPT 120' }, null);
    proxy.clear();
    const again = await server.rest('tn_course_outline', { course: 'sfu:CMPT 120' }, null);
    expect(again.status).toBe(200);
    // The suite checks the version on every read (the result cache's key, then the course cache): no Query.
    expect(new Set(proxy.calls.map((call) => call.operation))).toEqual(new Set(['GetItem']));
    expect(proxy.calls.every((call) => call.request.Key?.PK?.S === 'CATALOG')).toBe(true);
  });
});
