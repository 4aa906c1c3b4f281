import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { queryAll } from '../shared/store/query-all.js';
import type { Store } from '../shared/store/dynamo-client.js';
import { catalogKeys } from '../shared/store/keys.js';
import type { CatalogRecord, CourseFragment, GradeDistribution, Material, Offering, Section } from './catalog-model.js';

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

/** Everything known about one course in one Query; retired records are left out. */
export async function getCourseBundle(store: Store, institution: string, code: string): Promise<CourseBundle | undefined> {
  const items = await queryAll(store, {
    KeyConditionExpression: 'PK = :pk',
    ExpressionAttributeValues: { ':pk': catalogKeys.coursePartition(institution, code) },
  });
  const bundle: CourseBundle = { institution, code, fragments: [], offerings: [], sections: [], grades: [], materials: [], extras: [] };
  for (const item of items) {
    if (item.status !== 'active') continue;
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

/** Every active course fragment of an institution (GSI1), for the search index. */
export async function listCourseFragments(store: Store, institution: string): Promise<CourseFragment[]> {
  const items = await queryAll(store, {
    IndexName: 'GSI1',
    KeyConditionExpression: 'GSI1PK = :pk',
    ExpressionAttributeValues: { ':pk': catalogKeys.institutionCatalog(institution) },
  });
  return items.filter((item) => item.status === 'active').map((item) => item.record as CourseFragment);
}

export async function getCatalogVersion(store: Store): Promise<number> {
  const result = await store.doc.send(new GetCommand({ TableName: store.tableName, Key: catalogKeys.catalogVersion }));
  return Number(result.Item?.version ?? 0);
}

/** Whether a shipped sample file was loaded into this table already (see local/sample-catalog.ts). */
export async function sampleFileLoaded(store: Store, file: string): Promise<boolean> {
  const result = await store.doc.send(new GetCommand({ TableName: store.tableName, Key: catalogKeys.sampleCatalogMarker(file), ConsistentRead: true }));
  return Boolean(result.Item);
}

export async function markSampleFileLoaded(store: Store, file: string, run: { runId: string; finishedAt: string }): Promise<void> {
  await store.doc.send(new PutCommand({ TableName: store.tableName, Item: { ...catalogKeys.sampleCatalogMarker(file), loadedAt: run.finishedAt, runId: run.runId } }));
}
