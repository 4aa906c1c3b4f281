import type { Store } from '../platform/store/dynamo-client.js';
import { listCourseFragments } from '../catalog/catalog-store.js';
import { coursesFromFragments } from '../catalog/course-view.js';
import { requiredByOf, type Requirer } from '../catalog/required-by.js';
import { loadRequiredBy, saveRequiredBy } from '../catalog/required-by-store.js';

type Lists = Record<string, Requirer[]>;

/** Per store, per catalog version and institution: the lists a warm function has read. */
const held = new WeakMap<Store, Map<string, Promise<Lists>>>();

/**
 * The courses of the same institution whose requisites name this one, by code and title. Read once
 * per catalog version and institution; a version whose ingestion stored none (written by an older
 * release, or a table loaded without publishing) is built here from the institution's catalogue and
 * stored for every other function.
 */
export async function requirersOf(store: Store, version: number, institution: string, code: string): Promise<Requirer[]> {
  let lists = held.get(store);
  if (!lists) held.set(store, (lists = new Map()));
  const key = `${version}#${institution}`;
  for (const old of lists.keys()) if (!old.startsWith(`${version}#`)) lists.delete(old);
  let pending = lists.get(key);
  if (!pending) {
    pending = listsOf(store, version, institution).catch((error: unknown) => {
      lists.delete(key);
      throw error;
    });
    lists.set(key, pending);
  }
  return (await pending)[code] ?? [];
}

async function listsOf(store: Store, version: number, institution: string): Promise<Lists> {
  const stored = await loadRequiredBy(store, version, institution);
  if (stored) return stored;
  const graph = requiredByOf(coursesFromFragments(await listCourseFragments(store, institution)));
  const mine = graph.get(institution) ?? {};
  // Stored even when empty, so an institution with no catalogue is not read again by the next function.
  await saveRequiredBy(store, version, new Map([[institution, mine]]), new Date()).catch(() => undefined);
  return mine;
}
