import MiniSearch from 'minisearch';
import { listInstitutions } from '../shared/catalog/institution-registry.js';
import type { Store } from '../shared/store/dynamo-client.js';
import { listCourseFragments } from './catalog-store.js';
import { coursesFromFragments, type CourseView } from './course-view.js';

export interface SearchHit {
  course: CourseView;
  score: number;
}

export interface SearchFilters {
  institution?: string;
  subject?: string;
  level?: number;
}

interface IndexedCourse {
  id: string;
  code: string;
  compactCode: string;
  subject: string;
  title: string;
  description: string;
  institution: string;
  level: number;
}

/**
 * The in-memory catalog: every course merged from its fragments, plus MiniSearch BM25 indexes over
 * code, title and description, one per institution. Built from the table once per warm process and
 * catalog version. Sharding by institution keeps the usual search (within one school) proportional
 * to that school's catalog rather than to every school's; searches across schools query each shard
 * and merge by score (each shard weighs words by its own catalog, which is what a student of that
 * school would expect).
 */
export class CatalogIndex {
  readonly courses = new Map<string, CourseView>();
  private sortedRefs?: string[];
  private readonly shards = new Map<string, MiniSearch<IndexedCourse>>();

  constructor(courses: CourseView[]) {
    const byInstitution = new Map<string, CourseView[]>();
    for (const course of courses) {
      this.courses.set(course.ref, course);
      const list = byInstitution.get(course.institution) ?? [];
      list.push(course);
      byInstitution.set(course.institution, list);
    }
    for (const [institution, list] of byInstitution) {
      const shard = this.newShard();
      shard.addAll(
        list.map((course) => ({
          id: course.ref,
          code: course.code,
          compactCode: course.code.replace(' ', ''),
          subject: course.subject,
          title: course.title ?? '',
          description: course.description ?? '',
          institution: course.institution,
          level: course.level,
        })),
      );
      this.shards.set(institution, shard);
    }
  }

  private newShard(): MiniSearch<IndexedCourse> {
    return new MiniSearch<IndexedCourse>({
      fields: ['code', 'compactCode', 'subject', 'title', 'description'],
      storeFields: [],
      processTerm: (term) => {
        const lower = term.toLowerCase();
        return STOP_WORDS.has(lower) ? null : lower;
      },
      searchOptions: {
        boost: { code: 4, compactCode: 4, title: 3, subject: 1.5, description: 1 },
        // Only the last word may be unfinished (typing), and only from three letters on; only longer
        // words are worth fuzzing. Expanding short words ("Calculus I" → every term starting with
        // "i") is what makes a large index slow.
        prefix: (term, index, terms) => index === terms.length - 1 && term.length >= 3,
        fuzzy: (term) => (term.length >= 5 ? 0.15 : false),
        boostDocument: (id) => levelPrior(this.courses.get(id)?.level ?? 4),
      },
    });
  }

  /** The shards a search touches: one institution's, or every one. */
  private shardsFor(institution?: string): MiniSearch<IndexedCourse>[] {
    if (!institution) return [...this.shards.values()];
    const shard = this.shards.get(institution);
    return shard ? [shard] : [];
  }

  static async build(store: Store): Promise<CatalogIndex> {
    const institutions = await listInstitutions(store);
    const fragments = (await Promise.all(institutions.map((i) => listCourseFragments(store, i.id)))).flat();
    return new CatalogIndex(coursesFromFragments(fragments));
  }

  get size(): number {
    return this.courses.size;
  }

  /**
   * Courses matching every word; only when none does, courses matching some of the words, so a
   * long or partly misspelt query still finds something. (Scoring every partial match of common
   * words on every query is what made a 100k-course index slow at p99.)
   */
  query(text: string, filters: SearchFilters = {}, enough = 1): SearchHit[] {
    const matches = (course: CourseView) =>
      (!filters.institution || course.institution === filters.institution) &&
      (!filters.subject || course.subject === filters.subject) &&
      (!filters.level || course.level === filters.level);
    const filter = filters.subject || filters.level ? (result: { id: string }) => matches(this.courses.get(result.id)!) : undefined;
    const shards = this.shardsFor(filters.institution);
    const run = (combineWith: 'AND' | 'OR') => shards.flatMap((shard) => shard.search(text, { filter, combineWith })).sort((a, b) => b.score - a.score);
    const all = run('AND');
    if (all.length < enough) {
      const seen = new Set(all.map((r) => r.id));
      all.push(...run('OR').filter((r) => !seen.has(r.id)));
    }
    return all.map((result) => ({ course: this.courses.get(result.id)!, score: result.score }));
  }

  /** Same-institution courses whose text is closest to this one's; never the course itself. */
  similar(course: CourseView): SearchHit[] {
    const text = [course.title, course.description].filter(Boolean).join(' ');
    if (!text) return [];
    return this.shardsFor(course.institution)
      .flatMap((shard) => shard.search(text, { fields: ['title', 'description'], prefix: false, fuzzy: false, filter: (result) => result.id !== course.ref }))
      .map((result) => ({ course: this.courses.get(result.id)!, score: result.score }));
  }

  /**
   * References starting with `prefix` (`sfu:CMPT 2` → `sfu:CMPT 201`, `sfu:CMPT 225`, …) in order, for
   * argument completion: a binary search over the sorted references, so it costs the same on any catalog.
   */
  refsStartingWith(prefix: string, limit: number): { refs: string[]; total: number } {
    const sorted = (this.sortedRefs ??= [...this.courses.keys()].sort());
    let low = 0;
    let high = sorted.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (sorted[middle]! < prefix) low = middle + 1;
      else high = middle;
    }
    let end = low;
    while (end < sorted.length && sorted[end]!.startsWith(prefix)) end++;
    return { refs: sorted.slice(low, Math.min(end, low + limit)), total: end - low };
  }

  /** Institutions with courses in the index. */
  get institutions(): string[] {
    return [...this.shards.keys()];
  }

  /** Courses at an institution whose code or title is close to what was asked for (NOT_FOUND hints). */
  closeMatches(institution: string, code: string, limit = 5): CourseView[] {
    const [subject, number] = code.split(' ');
    const sameSubject = [...this.courses.values()].filter((c) => c.institution === institution && c.subject === subject);
    const byNumber = sameSubject
      .map((c) => ({ c, distance: editDistance(c.number, number ?? '') }))
      .sort((a, b) => a.distance - b.distance || a.c.number.localeCompare(b.c.number))
      .slice(0, limit)
      .map(({ c }) => c);
    if (byNumber.length) return byNumber;
    return this.query(code, { institution }).slice(0, limit).map((hit) => hit.course);
  }
}

/** Words too common in course text to tell courses apart. */
const STOP_WORDS = new Set(['a', 'an', 'and', 'are', 'as', 'at', 'be', 'by', 'for', 'from', 'in', 'into', 'is', 'it', 'of', 'on', 'or', 'the', 'this', 'to', 'with']);

/**
 * A student searching a topic usually wants the course that introduces it, so among equally
 * relevant matches lower levels rank slightly higher (CMPT 225 before CMPT 307 for "data
 * structures"); graduate courses (5xx+) slightly lower. Small enough that relevance still decides.
 */
export function levelPrior(level: number): number {
  if (level >= 5) return 0.9;
  return 1 + 0.05 * (4 - Math.max(1, level));
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const current = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = current;
    }
  }
  return row[b.length]!;
}
