import { listInstitutions } from '../shared/catalog/institution-registry.js';
import type { Store } from '../shared/store/dynamo-client.js';
import { listCourseFragments } from './catalog-store.js';
import { coursesFromFragments } from './course-view.js';
import { SearchIndex } from './search/search-index.js';

export { levelPrior, SearchIndex, type IndexedCourse, type SearchFilters, type SearchHit } from './search/search-index.js';

/** The catalog's search index built from the table's course fragments, every institution's. */
export async function buildCatalogIndex(store: Store): Promise<SearchIndex> {
  const institutions = await listInstitutions(store);
  const fragments = (await Promise.all(institutions.map((i) => listCourseFragments(store, i.id)))).flat();
  return SearchIndex.build(coursesFromFragments(fragments));
}
