import { randomBytes } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getCourseBundle } from '../../functions/catalog/catalog-store.js';
import { aggregateItem, MAX_AGGREGATE_BYTES, readAggregate, rowsOf } from '../../functions/catalog/ingestion/aggregates.js';
import { reconcile, stableHash } from '../../functions/catalog/ingestion/reconcile.js';
import { CommandRecorder, unrecorded } from '../support/store/command-recorder.js';
import { catalogKeys } from '../../functions/platform/store/keys.js';
import { courseRowsStored } from '../support/course-rows.js';
import { gradeRow, runClock } from '../support/grade-rows.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * What a source says of a course within one scope is one item of the course's partition, written whole:
 * an unchanged re-run reads only the ownership listing, a changed row rewrites its item, a vanished row is
 * retired inside it (kept), and the items of scopes a run did not send are not touched.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const AT = runClock('2026-11-24');
const item = async ({ PK, SK }: { PK: string; SK: string }) => (await unrecorded(() => server.services.store.doc.send(new GetCommand({ TableName: server.config.tableName, Key: { PK, SK } })))).Item;

describe("a course's items", () => {
  it('keep a session per item: a run settles only the sessions it sent, and a new session never rewrites an older one', async () => {
    const store = server.services.store;
    const fall = [gradeRow('itemu', 'ABC 100', '2024-fall', '001', 70), gradeRow('itemu', 'ABC 100', '2024-fall', '002', 71), gradeRow('itemu', 'ABC 200', '2024-fall', '001', 60)];
    const spring = [gradeRow('itemu', 'ABC 100', '2025-spring', '001', 72)];
    expect(await reconcile(store, 'test-grades', fall, AT())).toEqual({ written: 3, unchanged: 0, retired: 0 });
    const fallItem = await item(fall[0]!.aggregate);
    expect(await reconcile(store, 'test-grades', spring, AT())).toEqual({ written: 1, unchanged: 0, retired: 0 });
    const abc100 = await courseRowsStored(store, 'itemu', 'ABC 100');
    expect(abc100.items.map((i) => i.SK).sort()).toEqual(['records#test-grades#itemu:2024-fall:ABC', 'records#test-grades#itemu:2025-spring:ABC']);
    // The fall item was not written again when spring came.
    expect(await item(fall[0]!.aggregate)).toEqual(fallItem);

    // Unchanged: the ownership listing alone decides; no item is read or written.
    const recorder = new CommandRecorder();
    recorder.attach(store.client);
    expect(await reconcile(store, 'test-grades', fall, AT())).toEqual({ written: 0, unchanged: 3, retired: 0 });
    expect(recorder.commands().map((c) => `${c.operation} ${c.index}`)).toEqual(['Query GSI2']);

    // Fall again without section 002 and with 001 changed: one write, one retirement kept in the item.
    const revised = [gradeRow('itemu', 'ABC 100', '2024-fall', '001', 75), fall[2]!];
    expect(await reconcile(store, 'test-grades', revised, AT())).toEqual({ written: 1, unchanged: 1, retired: 1 });
    const rows = new Map(rowsOf((await item(fall[0]!.aggregate))!).map((row) => [row.id, row]));
    expect(rows.get('grades#2024-fall#002')).toMatchObject({ status: 'retired', retiredAt: expect.any(String) });
    expect(rows.get('grades#2024-fall#001')).toMatchObject({ status: 'active', record: expect.objectContaining({ average: 75 }) });
    const bundle = await getCourseBundle(store, 'itemu', 'ABC 100');
    expect(bundle?.grades.map((g) => `${g.term}#${(g as { section: string }).section}`).sort()).toEqual(['2024-fall#001', '2025-spring#001']);
    // The retired row comes back when the source lists it again.
    expect(await reconcile(store, 'test-grades', fall, AT())).toMatchObject({ written: 2, retired: 0 });
    expect((await getCourseBundle(store, 'itemu', 'ABC 100'))?.grades).toHaveLength(3);
  });

  it('are sized by their stored (gzipped) bytes: a megabyte of rows that compresses fits, one that does not is refused by name', async () => {
    const store = server.services.store;
    const rows = (padding: () => string) =>
      Array.from({ length: 120 }, (_, i) => {
        const row = gradeRow('itemb', 'BIG 100', '2024-fall', String(i).padStart(3, '0'), 50 + (i % 40));
        const pad = padding();
        return { ...row, hash: stableHash([row.hash, pad]), attributes: { ...row.attributes, padding: pad } };
      });
    const compressible = rows(() => 'grade distribution '.repeat(450));
    expect(JSON.stringify(compressible.map((r) => r.attributes)).length).toBeGreaterThan(1_000_000);
    expect(await reconcile(store, 'test-grades', compressible, AT())).toMatchObject({ written: 120 });
    const stored = (await courseRowsStored(store, 'itemb', 'BIG 100')).items;
    expect(stored).toHaveLength(1);
    expect((stored[0]!.rows as Uint8Array).byteLength).toBeLessThan(MAX_AGGREGATE_BYTES / 4);

    const incompressible = rows(() => randomBytes(3_000).toString('base64'));
    await expect(reconcile(store, 'test-grades', incompressible, AT())).rejects.toThrow(/COURSE#itemb#BIG 100 records#test-grades#itemb:2024-fall:BIG would take \d+ bytes stored \(120 rows\), over the 350000-byte bound/);
    // Nothing half-written: the item is as the last complete run left it.
    expect((await getCourseBundle(store, 'itemb', 'BIG 100'))?.grades).toHaveLength(120);
  });

  it('written on the condition that nothing changed them since they were read: a run whose listing missed an item merges into it', async () => {
    const store = server.services.store;
    const row = gradeRow('itemc', 'CUT 101', '2023-fall', '001', 65);
    const gone = gradeRow('itemc', 'CUT 101', '2023-fall', '002', 66);
    // An item the ownership listing does not show yet (as an index that lags would), holding a retired row.
    const key = row.aggregate;
    await unrecorded(() =>
      store.doc.send(
        new PutCommand({
          TableName: store.tableName,
          Item: (() => {
            const { GSI2PK: _owner, ...written } = aggregateItem('test-grades', {
              ...key,
              rev: 4,
              rows: [{ ...gone.attributes, id: gone.id, scope: gone.scope, status: 'retired', contentHash: gone.hash, firstSeenAt: '2026-01-01T00:00:00.000Z', retiredAt: '2026-02-01T00:00:00.000Z' }],
            });
            return written;
          })(),
        }),
      ),
    );
    expect(await reconcile(store, 'test-grades', [row], AT())).toEqual({ written: 1, unchanged: 0, retired: 0 });
    const merged = readAggregate((await item(key))!);
    expect(merged.rev).toBe(5);
    expect(merged.rows.map((r) => [r.id, r.status])).toEqual([
      ['grades#2023-fall#001', 'active'],
      ['grades#2023-fall#002', 'retired'],
    ]);
  });

  it('list a course fragment under its institution, for the search index, and only those', async () => {
    const store = server.services.store;
    const record = { kind: 'course', institution: 'iteml', code: 'LST 100', title: 'Listed', provenance: { source: 'test-catalogue', sourceRecordId: 'LST 100', ingestedAt: '2026-01-01T00:00:00.000Z' } };
    await reconcile(
      store,
      'test-catalogue',
      [
        {
          aggregate: { ...catalogKeys.courseRecords('iteml', 'LST 100', 'test-catalogue', 'all'), entity: 'CourseRecords', ownerScope: 'all', listing: catalogKeys.byInstitution('iteml', 'LST 100', 'test-catalogue', 'all') },
          id: 'course#test-catalogue',
          scope: 'all',
          hash: stableHash(record),
          attributes: { record },
        },
      ],
      AT(),
    );
    await reconcile(store, 'test-grades', [gradeRow('iteml', 'LST 100', '2024-fall', '001', 70)], AT());
    const { listCourseFragments } = await import('../../functions/catalog/catalog-store.js');
    expect((await listCourseFragments(store, 'iteml')).map((f) => f.title)).toEqual(['Listed']);
    const items = (await courseRowsStored(store, 'iteml', 'LST 100')).items;
    expect(items.filter((i) => i.GSI1PK).map((i) => i.SK)).toEqual(['records#test-catalogue#all']);
  });
});
