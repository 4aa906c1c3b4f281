import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { queryAll } from '../platform/store/query-all.js';
import { deleteAll, putAll } from '../platform/store/batch-writes.js';
import { activeRowsOf } from './ingestion/aggregates.js';
import { beginsWith, declareAccessPatterns, param } from '../platform/store/access-patterns.js';
import type { Store } from '../platform/store/dynamo-client.js';
import { catalogKeys, ENTITY } from '../platform/store/keys.js';
import { STORAGE_FORMAT } from '../platform/store/storage-format.js';
import type { CatalogRecord, CourseFragment, GradeDistribution, Material, Offering, Section } from './catalog-model.js';

export interface CourseBundle {
  institution: string;
  code: string;
  fragments: CourseFragment[];
  offerings: Offering[];
  sections: Section[];
  grades: GradeDistribution[];
  materials: Material[];
  /** Transfer rules in force or not that the course sends credit by (outgoing) or can be awarded by (incoming), as stored. */
  transferRules: { direction: 'outgoing' | 'incoming'; rule: Record<string, unknown> }[];
}

/**
 * Everything known about one course, in one Query of its own partition: each source's fragment and
 * offerings, its sections per term, grades per session and materials, and the transfer rules it sends
 * and receives. Retired rows (history each item keeps) are left out.
 */
export async function getCourseBundle(store: Store, institution: string, code: string): Promise<CourseBundle | undefined> {
  const items = await queryAll(store, { KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': catalogKeys.coursePartition(institution, code) } });
  const bundle: CourseBundle = { institution, code, fragments: [], offerings: [], sections: [], grades: [], materials: [], transferRules: [] };
  for (const item of items) {
    const sk = String(item.SK);
    const direction = sk.startsWith(catalogKeys.transfersOutPrefix) ? 'outgoing' : sk.startsWith(catalogKeys.transfersInPrefix()) ? 'incoming' : undefined;
    for (const row of activeRowsOf(item)) {
      if (direction) {
        bundle.transferRules.push({ direction, rule: row.rule as Record<string, unknown> });
        continue;
      }
      const record = row.record as CatalogRecord;
      if (record.kind === 'course') bundle.fragments.push(record);
      else if (record.kind === 'offering') bundle.offerings.push(record);
      else if (record.kind === 'section') bundle.sections.push(record);
      else if (record.kind === 'grades') bundle.grades.push(record);
      else if (record.kind === 'material') bundle.materials.push(record);
    }
  }
  // A course named only by transfer rules (e.g. at an institution without catalog data) is still known.
  const known = bundle.fragments.length + bundle.offerings.length + bundle.sections.length + bundle.grades.length + bundle.materials.length + bundle.transferRules.length;
  return known > 0 ? bundle : undefined;
}

/** Every active course fragment of an institution (GSI1, projecting each listed item's rows), for the search index. */
export async function listCourseFragments(store: Store, institution: string): Promise<CourseFragment[]> {
  const items = await queryAll(store, {
    IndexName: 'GSI1',
    KeyConditionExpression: 'GSI1PK = :pk',
    ExpressionAttributeValues: { ':pk': catalogKeys.institutionCatalog(institution) },
  });
  return items.flatMap(activeRowsOf).flatMap((row) => {
    const record = row.record as CatalogRecord;
    return record.kind === 'course' ? [record] : [];
  });
}

/** The catalog version and the storage format of the data (absent: nothing ingested yet, or format 1, which did not say). */
export async function readCatalogVersion(store: Store): Promise<{ version: number; storageFormat?: number }> {
  const item = (await store.doc.send(new GetCommand({ TableName: store.tableName, Key: catalogKeys.catalogVersion }))).Item;
  return { version: Number(item?.version ?? 0), ...(item ? { storageFormat: Number(item.storageFormat ?? 1) } : {}) };
}

export async function getCatalogVersion(store: Store): Promise<number> {
  return (await readCatalogVersion(store)).version;
}

/**
 * Every shipped sample file this table has loaded in the current storage format, in one Query (a restart
 * checks them all at once). A file loaded in an older format counts as not loaded.
 */
export async function loadedSampleFiles(store: Store): Promise<Set<string>> {
  const items = await queryAll(store, {
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
    ExpressionAttributeValues: { ':pk': catalogKeys.sampleCatalogMarkerPartition, ':prefix': catalogKeys.sampleCatalogMarkerPrefix },
    ConsistentRead: true,
  });
  return new Set(items.filter((item) => item.storageFormat === STORAGE_FORMAT).map((item) => String(item.SK).slice(catalogKeys.sampleCatalogMarkerPrefix.length)));
}

export async function markSampleFileLoaded(store: Store, file: string, run: { runId: string; finishedAt: string }): Promise<void> {
  await store.doc.send(new PutCommand({ TableName: store.tableName, Item: { ...catalogKeys.sampleCatalogMarker(file), entity: ENTITY.sampleCatalogMarker, loadedAt: run.finishedAt, runId: run.runId, storageFormat: STORAGE_FORMAT } }));
}

/** What one source says is offered in one term at one institution, as stored. */
export interface TermsOffered {
  institution: string;
  source: string;
  scope: string;
  term: string;
  codes: string[];
}

/** Every source's term lists for an institution, in one Query (a few items: one per source, scope and term). */
export async function listTermsOffered(store: Store, institution: string): Promise<TermsOffered[]> {
  const items = await queryAll(store, {
    KeyConditionExpression: 'PK = :pk',
    ExpressionAttributeValues: { ':pk': catalogKeys.termsOfferedPartition(institution) },
  });
  return items.map((item) => ({ institution, source: String(item.source), scope: String(item.scope), term: String(item.term), codes: item.codes as string[] }));
}

/**
 * Replaces what a run's source says about the scopes it sent: the lists it made now are written, and
 * lists of those scopes it no longer makes (a term gone from the file) are removed. Derived data: the
 * records themselves are what is kept and retired.
 */
export async function replaceTermsOffered(store: Store, source: string, scopes: Set<string>, lists: TermsOffered[]): Promise<void> {
  const institutions = new Set(lists.map((list) => list.institution));
  const made = new Set(lists.map((list) => `${list.institution}|${list.scope}|${list.term}`));
  const stale = (await Promise.all([...institutions].map((institution) => listTermsOffered(store, institution))))
    .flat()
    .filter((list) => list.source === source && scopes.has(list.scope) && !made.has(`${list.institution}|${list.scope}|${list.term}`));
  await putAll(store, lists.map((list) => ({ ...catalogKeys.termsOffered(list.institution, source, list.scope, list.term), entity: ENTITY.termsOffered, ...list })));
  await deleteAll(store, stale.map((list) => catalogKeys.termsOffered(list.institution, source, list.scope, list.term)));
}

const COURSE_BUNDLE_TOOLS = [
  'tn_course_get',
  'tn_course_prereqs',
  'tn_course_requisites',
  'tn_course_outline',
  'tn_course_instructor',
  'tn_course_schedule',
  'tn_course_section_list',
  'tn_course_section_get',
  'tn_course_timetable',
  'tn_course_grades',
  'tn_course_materials',
  'tn_course_equivalent_elsewhere',
];

export const ACCESS_PATTERNS = /* @__PURE__ */ declareAccessPatterns(() => [
  {
    name: 'Everything about one course (fragments, offerings, sections, grades, materials, transfer rules)',
    entity: [ENTITY.courseRecords, ENTITY.courseTransfers],
    operation: 'Query',
    index: 'table',
    key: { PK: catalogKeys.coursePartition(param('institution'), param('code')) },
    usedBy: COURSE_BUNDLE_TOOLS,
    notes:
      "The course's own items only: per source and scope one item (a fragment and offerings, a term's sections, a session's grades, materials), and the rules it sends (one item, every receiver) and receives (one item per sender), each rows as one gzipped value, history kept inside and filtered in code. Cached in the warm function per catalog version.",
  },
  {
    name: "An institution's course fragments",
    entity: ENTITY.courseRecords,
    operation: 'Query',
    index: 'GSI1',
    key: { GSI1PK: catalogKeys.institutionCatalog(param('institution')) },
    usedBy: ['tn_course_search (index build)', 'tn_course_similar', 'tn_course_get (close matches)'],
    notes: `Sparse: the items holding a course fragment, \`GSI1SK = ${catalogKeys.byInstitution(param('institution'), param('code'), param('source'), param('scope...')).GSI1SK}\`, projecting their rows. Read when the search index is built (at ingestion; a warm process without the artifact builds it once per catalog version).`,
  },
  {
    name: "An institution's term lists (which courses each source offers in a term)",
    entity: ENTITY.termsOffered,
    operation: 'Query',
    index: 'table',
    key: { PK: catalogKeys.termsOfferedPartition(param('institution')) },
    usedBy: ['tn_course_search (index build: the term filter)', 'ingestion (replacing a source\'s lists)'],
    notes: 'One item per source, scope and term, listing course codes: a few items per institution.',
  },
  {
    name: "Replace a source's term lists",
    entity: ENTITY.termsOffered,
    operation: 'BatchWriteItem',
    index: 'table',
    key: catalogKeys.termsOffered(param('institution'), param('source'), param('scope'), param('term')),
    usedBy: ['ingestion (sections and offerings sources)'],
    notes: 'Puts the lists a run made; deletes the lists of its scopes it no longer makes (derived data, not records).',
  },
  {
    name: 'Catalog version',
    entity: ENTITY.catalogVersion,
    operation: 'GetItem',
    index: 'table',
    key: catalogKeys.catalogVersion,
    usedBy: ['cached course and transfer tools (cache invalidation)', 'npm start (the storage format of a data directory)'],
    notes: 'Bumped by every ingestion run that changed something; holds the storage format of the data (STORAGE_FORMAT).',
  },
  {
    name: 'Which shipped sample files were loaded?',
    entity: ENTITY.sampleCatalogMarker,
    operation: 'Query',
    index: 'table',
    key: { PK: catalogKeys.sampleCatalogMarkerPartition, SK: beginsWith(catalogKeys.sampleCatalogMarkerPrefix) },
    usedBy: ['npm start (sample catalog)', 'test setup'],
    notes: 'Consistent read of every marker at once, so a restart costs one request, not one per file. A marker of an older storage format does not count.',
  },
  {
    name: 'Mark a shipped sample file loaded',
    entity: ENTITY.sampleCatalogMarker,
    operation: 'PutItem',
    index: 'table',
    key: catalogKeys.sampleCatalogMarker(param('file')),
    usedBy: ['npm start (sample catalog)', 'test setup'],
    notes: 'After a run that did not fail; a release that ships new sample files loads just those.',
  },
]);
