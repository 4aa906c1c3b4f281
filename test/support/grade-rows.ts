import { stableHash, type OwnedItem } from '../../functions/catalog/ingestion/reconcile.js';
import { catalogKeys, ENTITY } from '../../functions/platform/store/keys.js';

/** Where a row is stored: an item of its own (before packs), a pack in its course's partition, or its subject level's pack. */
export type Placement = 'own-item' | 'course-pack' | 'subject-pack';

/** A grade row of a made-up institution (so the shared catalog's data is never touched), as a source's run hands it over. */
export function gradeRow(institution: string, code: string, term: string, section: string, average: number, placement: Placement = 'course-pack', source = 'test-grades'): OwnedItem {
  const record = {
    kind: 'grades',
    institution,
    code,
    term,
    section,
    average,
    enrolled: 30,
    provenance: { source, sourceRecordId: `${code} ${term} ${section}` },
  };
  const subject = code.split(' ')[0];
  const packScope = `${institution}:${subject}`;
  const pack = { key: catalogKeys.recordPack('grades', source, packScope), scope: packScope };
  return {
    ...catalogKeys.record(institution, code, `grades#${term}#${section}`),
    scope: `${institution}:${term}:${subject}`,
    ...(placement === 'course-pack' ? { pack } : placement === 'subject-pack' ? { pack: { ...pack, PK: catalogKeys.coursePackPartition(institution, code) } } : {}),
    hash: stableHash(record),
    attributes: { entity: ENTITY.catalogRecord, record },
  };
}

/** Successive ingestion times on one day, one per run, so each run's rows tell which run wrote them. */
export function runClock(day: string): () => string {
  let runs = 0;
  return () => `${day}T00:00:${String(runs++).padStart(2, '0')}.000Z`;
}
