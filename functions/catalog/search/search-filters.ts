import type { IndexedDocs } from './index-build.js';
import type { SearchFilters } from './search-index.js';

/** Whether a course passes the filters, read from the table's columns; undefined when a filter names nothing the index has (no course can pass). */
export function filterOf(docs: IndexedDocs, filters: SearchFilters): ((doc: number) => boolean) | undefined {
  const institution = filters.institution === undefined ? -1 : docs.institutions.indexOf(filters.institution);
  const subject = filters.subject === undefined ? -1 : docs.subjects.indexOf(filters.subject);
  const term = filters.term === undefined ? -1 : docs.offeredTerms.indexOf(filters.term);
  if ((filters.institution !== undefined && institution < 0) || (filters.subject !== undefined && subject < 0) || (filters.term !== undefined && term < 0)) return undefined;
  return (doc) =>
    (institution < 0 || docs.institutionOf[doc] === institution) &&
    (subject < 0 || docs.subjectOf[doc] === subject) &&
    (!filters.level || docs.levels[doc] === filters.level) &&
    (term < 0 || offeredIn(docs, doc, term));
}

/** Whether any filter narrows the search beyond the whole catalog. */
export function narrows(filters: SearchFilters): boolean {
  return filters.institution !== undefined || filters.subject !== undefined || filters.level !== undefined || filters.term !== undefined;
}

function offeredIn(docs: IndexedDocs, doc: number, term: number): boolean {
  const { offeredOffsets, offeredIds } = docs;
  for (let i = offeredOffsets[doc]!; i < offeredOffsets[doc + 1]!; i++) if (offeredIds[i] === term) return true;
  return false;
}
