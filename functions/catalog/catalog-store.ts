import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { queryAll } from '../platform/store/query-all.js';
import { deleteAll, putAll } from '../platform/store/batch-writes.js';
import { ROWS_BY_PARTITION, rowKey, storedRows } from './ingestion/record-packs.js';
import { beginsWith, declareAccessPatterns, param } from '../platform/store/access-patterns.js';
import type { Store } from '../platform/store/dynamo-client.js';
import { catalogKeys, ENTITY } from '../platform/store/keys.js';
import type { CatalogRecord, CourseFragment, GradeDistribution, Material, Offering, Section } from './catalog-model.js';

/** What a pack part says of itself besides its rows: enough for storedRows to read the projected rows. */
const PACK_HEADER = ['PK', 'SK', 'entity', 'status', 'packSource', 'GSI2PK'] as const;

export interface CourseBundle {
  institution: string;
  code: string;
  fragments: CourseFragment[];
  offerings: Offering[];
  sections: Section[];
  grades: GradeDistribution[];
  materials: Material[];
  /** Raw items other domains keep in the course partition (e.g. transfer equivalences). */
  extras: Record<string, unknown>[];
}

/**
 * Everything known about one course: its partition, and its rows in its subject level's packs (only its own
 * entry of each, projected), read at once. Retired records are left out; a row found in both places
 * (a move into the subject level's pack cut short) counts once.
 */
export async function getCourseBundle(store: Store, institution: string, code: string): Promise<CourseBundle | undefined> {
  const coursePk = catalogKeys.coursePartition(institution, code);
  const [own, inSubjectPacks] = await Promise.all([
    queryAll(store, { KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': coursePk } }),
    queryAll(store, {
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ProjectionExpression: [...PACK_HEADER.map((_, i) => `#h${i}`), '#rows.#course'].join(', '),
      ExpressionAttributeNames: { ...Object.fromEntries(PACK_HEADER.map((name, i) => [`#h${i}`, name])), '#rows': ROWS_BY_PARTITION, '#course': coursePk },
      ExpressionAttributeValues: { ':pk': catalogKeys.coursePackPartition(institution, code), ':prefix': catalogKeys.recordPackPrefix },
    }),
  ]);
  const active = new Map<string, Record<string, unknown>>();
  const rows = [...own.flatMap(storedRows), ...inSubjectPacks.flatMap(storedRows).filter((row) => row.PK === coursePk)];
  for (const row of rows) if (row.status === 'active') active.set(String(row.SK), row);
  const bundle: CourseBundle = { institution, code, fragments: [], offerings: [], sections: [], grades: [], materials: [], extras: [] };
  for (const item of active.values()) {
    const record = item.record as CatalogRecord | undefined;
    if (!record) {
      bundle.extras.push(item);
      continue;
    }
    if (record.kind === 'course') bundle.fragments.push(record);
    else if (record.kind === 'offering') bundle.offerings.push(record);
    else if (record.kind === 'section') bundle.sections.push(record);
    else if (record.kind === 'grades') bundle.grades.push(record);
    else if (record.kind === 'material') bundle.materials.push(record);
  }
  // A course named only by transfer rules (e.g. at an institution without catalog data) is still known.
  const known = bundle.fragments.length + bundle.offerings.length + bundle.sections.length + bundle.grades.length + bundle.extras.length;
  return known > 0 ? bundle : undefined;
}

/**
 * Every active course fragment of an institution (GSI1: its subject levels' fragment packs, and fragments
 * stored as items before packs), for the search index. A fragment found twice (a move cut short) counts once.
 */
export async function listCourseFragments(store: Store, institution: string): Promise<CourseFragment[]> {
  const items = await queryAll(store, {
    IndexName: 'GSI1',
    KeyConditionExpression: 'GSI1PK = :pk',
    ExpressionAttributeValues: { ':pk': catalogKeys.institutionCatalog(institution) },
  });
  const active = new Map<string, CourseFragment>();
  for (const row of items.flatMap(storedRows)) {
    const record = row.record as CatalogRecord | undefined;
    if (row.status === 'active' && record?.kind === 'course') active.set(rowKey(String(row.PK), String(row.SK)), record);
  }
  return [...active.values()];
}

export async function getCatalogVersion(store: Store): Promise<number> {
  const result = await store.doc.send(new GetCommand({ TableName: store.tableName, Key: catalogKeys.catalogVersion }));
  return Number(result.Item?.version ?? 0);
}

/** Every shipped sample file this table has loaded, in one Query (a restart checks them all at once). */
export async function loadedSampleFiles(store: Store): Promise<Set<string>> {
  const items = await queryAll(store, {
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
    ExpressionAttributeValues: { ':pk': catalogKeys.sampleCatalogMarkerPartition, ':prefix': catalogKeys.sampleCatalogMarkerPrefix },
    ConsistentRead: true,
  });
  return new Set(items.map((item) => String(item.SK).slice(catalogKeys.sampleCatalogMarkerPrefix.length)));
}

export async function markSampleFileLoaded(store: Store, file: string, run: { runId: string; finishedAt: string }): Promise<void> {
  await store.doc.send(new PutCommand({ TableName: store.tableName, Item: { ...catalogKeys.sampleCatalogMarker(file), entity: ENTITY.sampleCatalogMarker, loadedAt: run.finishedAt, runId: run.runId } }));
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
    name: 'Everything about one course (fragments, offerings, sections, grades, materials, transfer listings)',
    entity: [ENTITY.catalogRecord, ENTITY.catalogPack, ENTITY.transferListing],
    operation: 'Query',
    index: 'table',
    key: { PK: catalogKeys.coursePartition(param('institution'), param('code')) },
    usedBy: COURSE_BUNDLE_TOOLS,
    notes:
      'Read at once with the course\'s rows in its subject level\'s packs (below), page after page; retired records are filtered in code. The transfer listings of the course (both directions) come with it, each carrying its rule summary (the rule itself is stored once). Results are cached in the warm function per catalog version.',
  },
  {
    name: "One course's rows in its subject level's packs (fragments, offerings, sections, grades)",
    entity: ENTITY.catalogPack,
    operation: 'Query',
    index: 'table',
    key: { PK: catalogKeys.subjectLevelPartition(param('institution'), param('subject'), param('level')), SK: beginsWith(catalogKeys.recordPackPrefix) },
    usedBy: COURSE_BUNDLE_TOOLS,
    notes:
      "Projects the pack header and `rowsByPartition.<course partition>`: each pack part returns only the course's own rows (a part holding none returns none), so no other course's rows are sent or decoded. Read capacity is charged on the whole part.",
  },
  {
    name: "An institution's course fragments",
    entity: [ENTITY.catalogPack, ENTITY.catalogRecord],
    operation: 'Query',
    index: 'GSI1',
    key: { GSI1PK: catalogKeys.institutionCatalog(param('institution')) },
    usedBy: ['tn_course_search (index build)', 'tn_course_similar', 'tn_course_get (close matches)'],
    notes:
      'The active parts of its subject levels\' fragment packs (a retired part leaves the listing), and fragments stored as items before packs. Read when the search index is built (at ingestion; a warm process without the artifact builds it once per catalog version).',
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
    usedBy: ['cached course and transfer tools (cache invalidation)'],
    notes: 'Bumped by every ingestion run that changed something.',
  },
  {
    name: 'Which shipped sample files were loaded?',
    entity: ENTITY.sampleCatalogMarker,
    operation: 'Query',
    index: 'table',
    key: { PK: catalogKeys.sampleCatalogMarkerPartition, SK: beginsWith(catalogKeys.sampleCatalogMarkerPrefix) },
    usedBy: ['npm start (sample catalog)', 'test setup'],
    notes: 'Consistent read of every marker at once, so a restart costs one request, not one per file.',
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
