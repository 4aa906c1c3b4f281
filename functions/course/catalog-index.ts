import { listInstitutions } from '../shared/catalog/institution-registry.js';
import type { Store } from '../shared/store/dynamo-client.js';
import { getCatalogVersion, listCourseFragments, listTermsOffered } from './catalog-store.js';
import { coursesFromFragments } from './course-view.js';
import { decodeIndex, encodeIndex } from './search/index-codec.js';
import { SearchIndex } from './search/search-index.js';
import { loadSearchIndex, saveSearchIndex } from './search/search-index-store.js';

export { levelPrior } from './search/course-standing.js';
export { SearchIndex, type IndexedCourse, type SearchFilters, type SearchHit } from './search/search-index.js';

/** The catalog's search index built from the table's course fragments, every institution's. */
export async function buildCatalogIndex(store: Store): Promise<SearchIndex> {
  const institutions = await listInstitutions(store);
  const [fragments, lists] = await Promise.all([
    Promise.all(institutions.map((i) => listCourseFragments(store, i.id))),
    Promise.all(institutions.map((i) => listTermsOffered(store, i.id))),
  ]);
  const offered = new Map<string, Set<string>>();
  for (const list of lists.flat()) {
    for (const code of list.codes) {
      const ref = `${list.institution}:${code}`;
      offered.set(ref, (offered.get(ref) ?? new Set()).add(list.term));
    }
  }
  const courses = coursesFromFragments(fragments.flat()).map((course) => ({ ...course, termsOffered: [...(offered.get(course.ref) ?? [])].sort() }));
  return SearchIndex.build(courses);
}

/**
 * The index of this catalog version: the artifact its ingestion stored, or (none stored yet, or an
 * artifact this code cannot read) built from the fragments and stored for the next cold start, where
 * this function may write; a read-only function just uses what it built.
 */
export async function catalogIndexFor(store: Store, version: number, now = new Date()): Promise<SearchIndex> {
  const stored = await loadSearchIndex(store, version).catch(() => undefined);
  if (stored) {
    try {
      return decodeIndex(stored);
    } catch {
      // Written by another release's format: rebuilt below.
    }
  }
  const built = await buildCatalogIndex(store);
  await saveSearchIndex(store, version, encodeIndex(built), now).catch(() => undefined);
  return built;
}

/** After an ingestion that changed the catalog: the new version's index, built once and stored. */
export async function publishCatalogIndex(store: Store, now = new Date()): Promise<{ version: number; courses: number; bytes: number }> {
  const version = await getCatalogVersion(store);
  const index = await buildCatalogIndex(store);
  const artifact = encodeIndex(index);
  await saveSearchIndex(store, version, artifact, now);
  return { version, courses: index.size, bytes: artifact.length };
}
