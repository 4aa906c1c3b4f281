import { listInstitutions } from './institution-registry.js';
import type { Store } from '../platform/store/dynamo-client.js';
import { getCatalogVersion, listCourseFragments, listTermsOffered } from './catalog-store.js';
import { coursesFromFragments, type CourseView } from './course-view.js';
import { requiredByOf } from './required-by.js';
import { saveRequiredBy } from './required-by-store.js';
import { decodeIndex, encodeIndex } from './search/index-codec.js';
import { SearchIndex } from './search/search-index.js';
import { loadSearchIndex, saveSearchIndex } from './search/search-index-store.js';

export { SearchIndex } from './search/search-index.js';

/** Every institution's merged courses, with the terms some source lists each in. */
async function catalogCourses(store: Store): Promise<(CourseView & { termsOffered: string[] })[]> {
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
  return coursesFromFragments(fragments.flat()).map((course) => ({ ...course, termsOffered: [...(offered.get(course.ref) ?? [])].sort() }));
}

/**
 * The index and the "leads to" lists of one version (tn_course_prereqs), from one read of the
 * catalogue, both stored; `mayFailToStore` for a function that may not write (it uses what it built).
 */
async function buildAndStore(store: Store, version: number, now: Date, mayFailToStore = false): Promise<{ index: SearchIndex; artifact: Uint8Array }> {
  const courses = await catalogCourses(store);
  const index = SearchIndex.build(courses);
  const artifact = encodeIndex(index);
  const graph = requiredByOf(courses);
  // Every institution with a catalogue gets its lists, empty ones too: "leads to nothing" is an answer.
  for (const course of courses) if (!graph.has(course.institution)) graph.set(course.institution, {});
  const stored = Promise.all([saveSearchIndex(store, version, artifact, now), saveRequiredBy(store, version, graph, now)]);
  await (mayFailToStore ? stored.catch(() => undefined) : stored);
  return { index, artifact };
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
  return (await buildAndStore(store, version, now, true)).index;
}

/** After an ingestion that changed the catalog: the new version's index, built once and stored. */
export async function publishCatalogIndex(store: Store, now = new Date()): Promise<{ version: number; courses: number; bytes: number }> {
  const version = await getCatalogVersion(store);
  const { index, artifact } = await buildAndStore(store, version, now);
  return { version, courses: index.size, bytes: artifact.length };
}
