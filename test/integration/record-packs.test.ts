import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getCourseBundle, listTermsOffered, replaceTermsOffered } from '../../functions/catalog/catalog-store.js';
import { isPackItem, packItems, rowsOf } from '../../functions/catalog/ingestion/record-packs.js';
import { putAll } from '../../functions/platform/store/batch-writes.js';
import { encodeValue } from '../../functions/platform/store/packed-value.js';
import { reconcile, stableHash } from '../../functions/catalog/ingestion/reconcile.js';
import { gradeRow, runClock } from '../support/grade-rows.js';
import { CommandRecorder, unrecorded } from '../support/store/command-recorder.js';
import { catalogKeys, ENTITY } from '../../functions/platform/store/keys.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * Records stored as rows of packs keep the item-level guarantees: an unchanged re-run writes nothing,
 * a changed row updates, a vanished row retires (kept), and a pack shared by several scopes (a
 * course's grade history across sessions) is settled only for the scopes a run sent.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const AT = runClock('2026-11-24');

const storedIn = async (institution: string, code: string) => {
  const result = await unrecorded(() =>
    server.services.store.doc.send(
      new QueryCommand({
        TableName: server.config.tableName,
        KeyConditionExpression: 'PK = :pk',
        ExpressionAttributeValues: { ':pk': catalogKeys.coursePartition(institution, code) },
      }),
    ),
  );
  const items = result.Items ?? [];
  return { items, records: items.flatMap((item) => (isPackItem(item) ? rowsOf(item) : [item])).filter((item) => item.entity === ENTITY.catalogRecord) };
};

describe('records stored in packs', () => {
  it('keeps a course across sessions in one item and settles only the sessions a run sent', async () => {
    const store = server.services.store;
    const fall = [gradeRow('packu', 'ABC 100', '2024-fall', '001', 70), gradeRow('packu', 'ABC 100', '2024-fall', '002', 71), gradeRow('packu', 'ABC 200', '2024-fall', '001', 60)];
    const spring = [gradeRow('packu', 'ABC 100', '2025-spring', '001', 72)];
    expect(await reconcile(store, 'test-grades', fall, AT())).toEqual({ written: 3, unchanged: 0, retired: 0 });
    expect(await reconcile(store, 'test-grades', spring, AT())).toEqual({ written: 1, unchanged: 0, retired: 0 });
    const abc100 = await storedIn('packu', 'ABC 100');
    expect(abc100.items).toHaveLength(1);
    expect(abc100.records.map((r) => r.SK).sort()).toEqual(['grades#2024-fall#001', 'grades#2024-fall#002', 'grades#2025-spring#001']);

    // Unchanged: nothing written. Fall again without section 002 and with 001 changed.
    expect(await reconcile(store, 'test-grades', fall, AT())).toEqual({ written: 0, unchanged: 3, retired: 0 });
    const revised = [gradeRow('packu', 'ABC 100', '2024-fall', '001', 75), fall[2]!];
    expect(await reconcile(store, 'test-grades', revised, AT())).toEqual({ written: 1, unchanged: 1, retired: 1 });
    const after = await storedIn('packu', 'ABC 100');
    const bySk = new Map(after.records.map((r) => [r.SK, r]));
    expect(bySk.get('grades#2024-fall#002')).toMatchObject({ status: 'retired', retiredAt: expect.any(String) });
    expect(bySk.get('grades#2024-fall#001')).toMatchObject({ status: 'active', record: expect.objectContaining({ average: 75 }) });
    // The spring row shares the pack but not the run's scope: untouched.
    expect(bySk.get('grades#2025-spring#001')).toMatchObject({ status: 'active', record: expect.objectContaining({ average: 72 }) });

    const bundle = await getCourseBundle(store, 'packu', 'ABC 100');
    expect(bundle?.grades.map((g) => `${g.term}#${(g as { section: string }).section}`).sort()).toEqual(['2024-fall#001', '2025-spring#001']);
  });

  it('moves rows stored as items of their own into a pack, retiring the old items (never twice in a read)', async () => {
    const store = server.services.store;
    const rows = [gradeRow('packm', 'XYZ 101', '2023-fall', '001', 65, 'own-item'), gradeRow('packm', 'XYZ 101', '2023-fall', '002', 66, 'own-item')];
    await reconcile(store, 'test-grades', rows, AT());
    const before = await storedIn('packm', 'XYZ 101');
    expect(before.items.filter(isPackItem)).toHaveLength(0);

    const packed = rows.map((row) => ({ ...row, pack: { key: catalogKeys.recordPack('grades', 'test-grades', 'packm:XYZ'), scope: 'packm:XYZ' } }));
    expect(await reconcile(store, 'test-grades', packed, AT())).toMatchObject({ written: 2, retired: 0 });
    const after = await storedIn('packm', 'XYZ 101');
    const oldItems = after.items.filter((item) => !isPackItem(item));
    expect(oldItems.map((item) => item.status)).toEqual(['retired', 'retired']);
    expect(after.items.filter(isPackItem).flatMap(rowsOf).map((row) => row.status)).toEqual(['active', 'active']);
    expect((await getCourseBundle(store, 'packm', 'XYZ 101'))?.grades).toHaveLength(2);
    // And the next run finds everything where it belongs.
    expect(await reconcile(store, 'test-grades', packed, AT())).toEqual({ written: 0, unchanged: 2, retired: 0 });
  });

  it('retires an old item left active beside its pack row (a move cut short), so a read never sees it twice', async () => {
    const store = server.services.store;
    const row = gradeRow('packc', 'CUT 101', '2023-fall', '001', 65, 'own-item');
    await reconcile(store, 'test-grades', [row], AT());
    const packed = { ...row, pack: { key: catalogKeys.recordPack('grades', 'test-grades', 'packc:CUT'), scope: 'packc:CUT' } };
    // The pack landed, the old item's retirement did not.
    const group = { PK: row.PK, key: packed.pack.key, scope: packed.pack.scope, rows: new Map([[row.SK, { ...row.attributes, SK: row.SK, scope: row.scope, status: 'active', contentHash: row.hash, firstSeenAt: '2026-01-01T00:00:00.000Z' }]]), storedParts: new Set<string>() };
    await unrecorded(() => putAll(store, packItems('test-grades', group)));
    // A read counts it once even now; the next run retires the old item.
    expect((await getCourseBundle(store, 'packc', 'CUT 101'))?.grades).toHaveLength(1);

    expect(await reconcile(store, 'test-grades', [packed], AT())).toEqual({ written: 0, unchanged: 1, retired: 0 });
    const after = await storedIn('packc', 'CUT 101');
    expect(after.items.filter((item) => !isPackItem(item)).map((item) => [item.status, item.movedTo])).toEqual([['retired', packed.pack.key]]);
    expect((await getCourseBundle(store, 'packc', 'CUT 101'))?.grades).toHaveLength(1);
  });

  it('reads packs stored before rows were kept per partition (one value, or a list) as they are, and rewrites them only on change', async () => {
    const store = server.services.store;
    const rows = [gradeRow('packo', 'OLD 100', '2022-fall', '001', 61), gradeRow('packo', 'OLD 101', '2022-fall', '001', 62)];
    const stored = (row: (typeof rows)[number]) => ({ ...row.attributes, SK: row.SK, scope: row.scope, status: 'active', contentHash: row.hash, firstSeenAt: '2026-01-01T00:00:00.000Z' });
    const header = (row: (typeof rows)[number]) => {
      const [part] = packItems('test-grades', { PK: row.PK, key: row.pack!.key, scope: row.pack!.scope, rows: new Map(), storedParts: new Set([row.pack!.key]) });
      const { rowsByPartition: _now, ...rest } = part!;
      return { ...rest, status: 'active' };
    };
    await unrecorded(() =>
      putAll(store, [
        { ...header(rows[0]!), packedRows: encodeValue([stored(rows[0]!)]) },
        { ...header(rows[1]!), rows: [stored(rows[1]!)] },
      ]),
    );
    expect((await getCourseBundle(store, 'packo', 'OLD 100'))?.grades.map((g) => (g as { average: number }).average)).toEqual([61]);
    expect((await getCourseBundle(store, 'packo', 'OLD 101'))?.grades.map((g) => (g as { average: number }).average)).toEqual([62]);
    expect(await reconcile(store, 'test-grades', rows, AT())).toEqual({ written: 0, unchanged: 2, retired: 0 });
    expect((await storedIn('packo', 'OLD 100')).items[0]).toHaveProperty('packedRows');
  });

  it('reads only pack scopes for a source that never stored rows outside packs, and every fine scope once one did', async () => {
    const store = server.services.store;
    const recorder = new CommandRecorder();
    recorder.attach(store.client);
    const ownerQueries = () => recorder.commands().filter((c) => c.operation === 'Query' && c.index === 'GSI2').map((c) => c.keys[0]!.pk).sort();
    const terms = ['2021-winter', '2022-winter', '2023-winter'];
    const rows = (source: string) => terms.map((term) => ({ ...gradeRow('packonly', 'MATH 100', term, '001', 70), pack: { key: catalogKeys.recordPack('grades', source, 'packonly:MATH'), scope: 'packonly:MATH' } }));
    await reconcile(store, 'packed-from-start', rows('packed-from-start'), AT());
    recorder.clear();
    expect(await reconcile(store, 'packed-from-start', rows('packed-from-start'), AT())).toEqual({ written: 0, unchanged: 3, retired: 0 });
    expect(ownerQueries()).toEqual([catalogKeys.sourceScope('packed-from-start', 'packonly:MATH')]);

    // A source that stored a row as an item of its own reads the fine scopes too: that item may need settling.
    await reconcile(store, 'mixed', [gradeRow('packonly', 'MATH 101', terms[0]!, '001', 70, 'own-item')], AT());
    recorder.clear();
    await reconcile(store, 'mixed', rows('mixed'), AT());
    expect(ownerQueries()).toEqual([catalogKeys.sourceScope('mixed', 'packonly:MATH'), ...terms.map((term) => catalogKeys.sourceScope('mixed', `packonly:${term}:MATH`))].sort());
  });

  it("replaces a source's term lists for the scopes it sent, removing a term it no longer lists", async () => {
    const store = server.services.store;
    const list = (scope: string, term: string, codes: string[]) => ({ institution: 'packt', source: 'test-terms', scope, term, codes });
    await replaceTermsOffered(store, 'test-terms', new Set(['all', '2024-fall']), [list('all', '2024-fall', ['A 1']), list('all', '2025-spring', ['A 1', 'B 2']), list('2024-fall', '2024-fall', ['C 3'])]);
    await replaceTermsOffered(store, 'test-terms', new Set(['all']), [list('all', '2024-fall', ['A 1', 'D 4'])]);
    const stored = (await listTermsOffered(store, 'packt')).map((l) => [l.scope, l.term, l.codes]).sort();
    // 2025-spring is gone from the scope that was sent; the other scope's list stays.
    expect(stored).toEqual([['2024-fall', '2024-fall', ['C 3']], ['all', '2024-fall', ['A 1', 'D 4']]]);
  });

  it('splits a pack too large for one item into parts, and retires a part it no longer needs', async () => {
    const store = server.services.store;
    const rows = (padding: string) =>
      Array.from({ length: 120 }, (_, i) => {
        const row = gradeRow('packs', 'BIG 100', '2024-fall', String(i).padStart(3, '0'), 50 + (i % 40));
        return { ...row, hash: stableHash([row.hash, padding]), attributes: { ...row.attributes, padding } };
      });
    await reconcile(store, 'test-grades', rows('x'.repeat(4_000)), AT());
    const split = await storedIn('packs', 'BIG 100');
    expect(split.items.length).toBeGreaterThan(1);
    expect(split.records).toHaveLength(120);
    expect((await getCourseBundle(store, 'packs', 'BIG 100'))?.grades).toHaveLength(120);

    // The same rows, smaller: they fit one item again, and the other parts are left retired and empty.
    expect(await reconcile(store, 'test-grades', rows(''), AT())).toEqual({ written: 120, unchanged: 0, retired: 0 });
    const after = await storedIn('packs', 'BIG 100');
    expect(after.items.filter((item) => item.status === 'active')).toHaveLength(1);
    expect(after.items.filter((item) => item.status === 'retired').every((item) => rowsOf(item).length === 0)).toBe(true);
    expect(after.items).toHaveLength(split.items.length);
    expect(after.records.filter((r) => r.status === 'active')).toHaveLength(120);
    expect((await getCourseBundle(store, 'packs', 'BIG 100'))?.grades).toHaveLength(120);
  });
});
