import { stableHash, type OwnedRow } from '../../functions/catalog/ingestion/reconcile.js';
import { catalogKeys, ENTITY } from '../../functions/platform/store/keys.js';

/**
 * A grade row of a made-up institution (so the shared catalog's data is never touched), as a source's run
 * hands it over: stored, like the UBC grades, in its course's item for its session (scope campus, session, subject).
 */
export function gradeRow(institution: string, code: string, term: string, section: string, average: number, source = 'test-grades'): OwnedRow {
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
  const scope = `${institution}:${term}:${code.split(' ')[0]}`;
  return {
    aggregate: { ...catalogKeys.courseRecords(institution, code, source, scope), entity: ENTITY.courseRecords, ownerScope: scope },
    id: `grades#${term}#${section}`,
    scope,
    hash: stableHash(record),
    attributes: { record },
  };
}

/** Successive ingestion times on one day, one per run, so each run's rows tell which run wrote them. */
export function runClock(day: string): () => string {
  let runs = 0;
  return () => `${day}T00:00:${String(runs++).padStart(2, '0')}.000Z`;
}
