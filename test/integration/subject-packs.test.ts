import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getCourseBundle, listCourseFragments } from '../../functions/catalog/catalog-store.js';
import { isPackItem, packItems, rowKey, rowsOf } from '../../functions/catalog/ingestion/record-packs.js';
import { reconcile, stableHash, type OwnedItem } from '../../functions/catalog/ingestion/reconcile.js';
import { putAll } from '../../functions/platform/store/batch-writes.js';
import { CommandRecorder, unrecorded } from '../support/store/command-recorder.js';
import { catalogKeys, ENTITY } from '../../functions/platform/store/keys.js';
import { courseRowsStored } from '../support/course-rows.js';
import { gradeRow, runClock } from '../support/grade-rows.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * A subject level's packs (CMPT 2xx) hold the rows of all its courses (one item where there would be one per course):
 * each course still reads only its own rows, keeps every guarantee of a row (skip, update, retire),
 * and rows stored in a course's own pack before move over without ever being read twice.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const AT = runClock('2026-11-26');
const sections = (bundle: Awaited<ReturnType<typeof getCourseBundle>>) => (bundle?.grades ?? []).map((g) => `${g.term}#${(g as { section: string }).section}`).sort();

/** A course fragment as the catalog ingestion hands it over: an item listed under its institution before packs, a row of its subject level's fragment pack now. */
function fragment(institution: string, code: string, title: string, placement: 'own-item' | 'subject-pack'): OwnedItem {
  const record = { kind: 'course', institution, code, title, provenance: { source: 'test-catalog', sourceRecordId: code } };
  const packScope = 'all';
  return {
    ...catalogKeys.record(institution, code, 'course#test-catalog'),
    scope: 'all',
    ...(placement === 'subject-pack'
      ? { pack: { PK: catalogKeys.coursePackPartition(institution, code), key: catalogKeys.recordPack('course', 'test-catalog', packScope), scope: packScope, listing: catalogKeys.byInstitutionPack(institution, code, 'test-catalog') } }
      : {}),
    hash: stableHash(record),
    attributes: { ...(placement === 'own-item' ? catalogKeys.byInstitution(institution, code, 'test-catalog') : {}), entity: ENTITY.catalogRecord, record },
  };
}

describe("records stored in their subject level's packs", () => {
  it('keeps a subject level in one item, gives each course its own rows, and settles rows one by one', async () => {
    const store = server.services.store;
    const fall = [
      gradeRow('subju', 'SUBJ 100', '2024-fall', '001', 70, 'subject-pack'),
      gradeRow('subju', 'SUBJ 100', '2024-fall', '002', 71, 'subject-pack'),
      gradeRow('subju', 'SUBJ 150', '2024-fall', '001', 60, 'subject-pack'),
    ];
    expect(await reconcile(store, 'test-grades', fall, AT())).toEqual({ written: 3, unchanged: 0, retired: 0 });
    const subj100 = await courseRowsStored(store, 'subju', 'SUBJ 100');
    expect(subj100.items).toHaveLength(0);
    expect(subj100.subjectPacks.map((item) => [item.PK, item.status])).toEqual([[catalogKeys.subjectLevelPartition('subju', 'SUBJ', '1'), 'active']]);
    expect(sections(await getCourseBundle(store, 'subju', 'SUBJ 100'))).toEqual(['2024-fall#001', '2024-fall#002']);
    expect(sections(await getCourseBundle(store, 'subju', 'SUBJ 150'))).toEqual(['2024-fall#001']);

    const recorder = new CommandRecorder();
    recorder.attach(store.client);
    expect(await reconcile(store, 'test-grades', fall, AT())).toEqual({ written: 0, unchanged: 3, retired: 0 });
    expect(recorder.commands().filter((c) => c.operation !== 'Query' && c.operation !== 'GetItem')).toEqual([]);

    // SUBJ 150's row changes and SUBJ 100's section 002 is gone: one updates, one retires, the rest stays.
    const revised = [fall[0]!, gradeRow('subju', 'SUBJ 150', '2024-fall', '001', 64, 'subject-pack')];
    expect(await reconcile(store, 'test-grades', revised, AT())).toEqual({ written: 1, unchanged: 1, retired: 1 });
    expect(sections(await getCourseBundle(store, 'subju', 'SUBJ 100'))).toEqual(['2024-fall#001']);
    expect((await getCourseBundle(store, 'subju', 'SUBJ 150'))?.grades.map((g) => (g as { average: number }).average)).toEqual([64]);
    const kept = (await courseRowsStored(store, 'subju', 'SUBJ 100')).rows.find((row) => row.SK === 'grades#2024-fall#002');
    expect(kept).toMatchObject({ status: 'retired', retiredAt: expect.any(String), firstSeenAt: expect.any(String) });
  });

  it("moves rows from a course's own pack into its subject level's, leaving the old pack retired and empty", async () => {
    const store = server.services.store;
    const rows = (placement: 'course-pack' | 'subject-pack') => [
      gradeRow('subjm', 'MOVE 101', '2023-fall', '001', 65, placement),
      gradeRow('subjm', 'MOVE 101', '2023-fall', '002', 66, placement),
      gradeRow('subjm', 'MOVE 202', '2023-fall', '001', 55, placement),
    ];
    await reconcile(store, 'test-grades', rows('course-pack'), AT());
    const before = await courseRowsStored(store, 'subjm', 'MOVE 101');
    expect(before.items.filter(isPackItem)).toHaveLength(1);
    expect(before.subjectPacks).toHaveLength(0);
    const firstSeen = before.rows.map((row) => row.firstSeenAt);

    expect(await reconcile(store, 'test-grades', rows('subject-pack'), AT())).toEqual({ written: 3, unchanged: 0, retired: 0 });
    for (const code of ['MOVE 101', 'MOVE 202']) {
      const after = await courseRowsStored(store, 'subjm', code);
      expect(after.items.map((item) => [item.status, rowsOf(item).length])).toEqual([['retired', 0]]);
    }
    const moved = await courseRowsStored(store, 'subjm', 'MOVE 101');
    expect(moved.rows.map((row) => row.status)).toEqual(['active', 'active']);
    // Moving is not a new sighting.
    expect(moved.rows.map((row) => row.firstSeenAt)).toEqual(firstSeen);
    expect(sections(await getCourseBundle(store, 'subjm', 'MOVE 101'))).toEqual(['2023-fall#001', '2023-fall#002']);
    expect(await reconcile(store, 'test-grades', rows('subject-pack'), AT())).toEqual({ written: 0, unchanged: 3, retired: 0 });
  });

  it('reads the moved copy once when a move between packs was cut short, and the next run keeps it and lets the old pack go', async () => {
    const store = server.services.store;
    const row = gradeRow('subjc', 'CUT 101', '2023-fall', '001', 65, 'course-pack');
    await reconcile(store, 'test-grades', [row], AT());
    // The run that moved the row and changed it landed its subject level's pack, not the course pack's rewrite.
    const moved = gradeRow('subjc', 'CUT 101', '2023-fall', '001', 70, 'subject-pack');
    const stored = { ...moved.attributes, PK: moved.PK, SK: moved.SK, scope: moved.scope, status: 'active', contentHash: moved.hash, firstSeenAt: '2026-01-01T00:00:00.000Z' };
    const group = { PK: moved.pack!.PK!, key: moved.pack!.key, scope: moved.pack!.scope, rows: new Map([[rowKey(moved.PK, moved.SK), stored]]), storedParts: new Set<string>() };
    await unrecorded(() => putAll(store, packItems('test-grades', group)));
    expect((await courseRowsStored(store, 'subjc', 'CUT 101')).rows.filter((r) => r.status === 'active')).toHaveLength(2);
    const averages = async () => (await getCourseBundle(store, 'subjc', 'CUT 101'))?.grades.map((g) => (g as { average: number }).average);
    expect(await averages()).toEqual([70]);

    // The moved copy is the one kept (as the read does): nothing to rewrite in it, the old pack lets go.
    expect(await reconcile(store, 'test-grades', [moved], AT())).toEqual({ written: 0, unchanged: 1, retired: 0 });
    const after = await courseRowsStored(store, 'subjc', 'CUT 101');
    expect(after.items.map((item) => [item.status, rowsOf(item).length])).toEqual([['retired', 0]]);
    expect(after.rows.map((r) => [r.status, r.firstSeenAt])).toEqual([['active', '2026-01-01T00:00:00.000Z']]);
    expect(await averages()).toEqual([70]);
    expect(await reconcile(store, 'test-grades', [moved], AT())).toEqual({ written: 0, unchanged: 1, retired: 0 });
  });

  it("lists an institution's fragments from its subjects' packs, once each, after they move there from items of their own", async () => {
    const store = server.services.store;
    const titles = async () => (await listCourseFragments(store, 'subjf')).map((f) => `${f.code} ${f.title}`).sort();
    const fragments = (placement: 'own-item' | 'subject-pack') => [fragment('subjf', 'FRAG 100', 'Intro', placement), fragment('subjf', 'FRAG 200', 'Next', placement), fragment('subjf', 'OTHR 300', 'Elsewhere', placement)];
    await reconcile(store, 'test-catalog', fragments('own-item'), AT());
    expect(await titles()).toEqual(['FRAG 100 Intro', 'FRAG 200 Next', 'OTHR 300 Elsewhere']);

    expect(await reconcile(store, 'test-catalog', fragments('subject-pack'), AT())).toEqual({ written: 3, unchanged: 0, retired: 0 });
    expect(await titles()).toEqual(['FRAG 100 Intro', 'FRAG 200 Next', 'OTHR 300 Elsewhere']);
    const frag = await courseRowsStored(store, 'subjf', 'FRAG 100');
    // The old item is retired, and off the listing: its pack lists the fragment now.
    expect(frag.items.map((item) => [item.status, item.movedTo, item.GSI1PK])).toEqual([['retired', catalogKeys.recordPack('course', 'test-catalog', 'all'), undefined]]);
    expect(frag.subjectPacks.map((item) => [item.GSI1PK, item.status])).toEqual([[catalogKeys.institutionCatalog('subjf'), 'active']]);
    expect((await getCourseBundle(store, 'subjf', 'FRAG 200'))?.fragments.map((f) => f.title)).toEqual(['Next']);

    // FRAG 200 is gone upstream: retired in its pack, and off the listing.
    const [intro, , elsewhere] = fragments('subject-pack');
    expect(await reconcile(store, 'test-catalog', [intro!, elsewhere!], AT())).toEqual({ written: 0, unchanged: 2, retired: 1 });
    expect(await titles()).toEqual(['FRAG 100 Intro', 'OTHR 300 Elsewhere']);
    expect(await getCourseBundle(store, 'subjf', 'FRAG 200')).toBeUndefined();
  });
});
