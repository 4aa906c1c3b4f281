import { buildPostings, type IndexedDocs, type Postings } from './index-build.js';
import { valuesOf } from './string-table.js';
import { boundedEditDistance, wordsOf } from './tokens.js';

/** What a search result carries: enough to list the course without reading it. */
export interface IndexedCourse {
  ref: string;
  institution: string;
  code: string;
  subject: string;
  number: string;
  level: number;
  title: string | null;
  credits: number | null;
  /** The first 160 characters of the description. */
  snippet: string | null;
}

export interface SearchHit {
  course: IndexedCourse;
  score: number;
}

export interface SearchFilters {
  institution?: string;
  subject?: string;
  level?: number;
  /** Only courses some source lists in this term ("2026-spring"). */
  term?: string;
}

/** The fields a course is indexed from (a CourseView has them all), and the terms it is offered in. */
export type CourseSource = Omit<IndexedCourse, 'snippet'> & { description: string | null; termsOffered?: string[] };

const PREFIX_FACTOR = 0.5;
const FUZZY_FACTOR = 0.35;
const MAX_PREFIX_TERMS = 200;
const MAX_FUZZY_TERMS = 20;
const SIMILAR_TERMS = 24;

/**
 * The catalog's full-text index: BM25-weighted postings (code, title and description, boosted in
 * that order) in typed arrays, and a compact table of what a result shows. Built at ingestion and
 * loaded as one binary artifact, so a cold function searches without rebuilding; a query touches only
 * the postings of its own words, so common words cost a scan of one array, never a scored walk of
 * every partial match.
 */
export class SearchIndex {
  private readonly tokenBest: Float32Array;
  private readonly score: Float32Array;
  private readonly matched: Uint8Array;
  private sortedRefs?: string[];
  private docByRef?: Map<string, number>;

  constructor(
    readonly docs: IndexedDocs,
    readonly postings: Postings,
  ) {
    const n = docs.refs.length;
    this.tokenBest = new Float32Array(n);
    this.score = new Float32Array(n);
    this.matched = new Uint8Array(n);
  }

  static build(courses: CourseSource[]): SearchIndex {
    const { docs, postings } = buildPostings(courses);
    return new SearchIndex(docs, postings);
  }

  get size(): number {
    return this.docs.refs.length;
  }

  get institutions(): string[] {
    return [...this.docs.institutions];
  }

  /** Courses per institution, counted from the table's columns (no course is read). */
  courseCounts(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const id of this.docs.institutionOf) {
      const institution = this.docs.institutions[id]!;
      counts.set(institution, (counts.get(institution) ?? 0) + 1);
    }
    return counts;
  }

  course(doc: number): IndexedCourse {
    const d = this.docs;
    const credits = d.credits[doc]!;
    return {
      ref: d.refs.get(doc)!,
      institution: d.institutions[d.institutionOf[doc]!]!,
      code: d.codes.get(doc)!,
      subject: d.subjects[d.subjectOf[doc]!]!,
      number: d.numbers.get(doc)!,
      level: d.levels[doc]!,
      title: d.titles.get(doc),
      credits: Number.isNaN(credits) ? null : credits,
      snippet: d.snippets.get(doc),
    };
  }

  /**
   * Courses matching every word (the last one may be unfinished; a word the catalog does not know is
   * read as its near spellings); only when too few do, courses matching some of the words.
   */
  query(text: string, filters: SearchFilters = {}, enough = 1): SearchHit[] {
    // A search is a few words; a pasted paragraph is cut to its first 32 (the match counters are bytes).
    const words = wordsOf(text).slice(0, 32);
    if (!words.length) return [];
    const allowed = this.filterOf(filters);
    if (!allowed) return [];
    const touched: number[] = [];
    words.forEach((word, position) => this.scoreWord(this.candidatesOf(word, position === words.length - 1), touched));
    const all: number[] = [];
    const some: number[] = [];
    for (const doc of touched) if (allowed(doc)) (this.matched[doc] === words.length ? all : some).push(doc);
    const ranked = this.ranked(all);
    const hits = ranked.length < enough ? ranked.concat(this.ranked(some)) : ranked;
    this.reset(touched);
    return hits;
  }

  /** Same-institution courses sharing the most telling words of this one's title and description. */
  similar(course: Pick<CourseSource, 'ref' | 'institution' | 'title' | 'description'>): SearchHit[] {
    const words = [...new Set(wordsOf([course.title, course.description].filter(Boolean).join(' ')))];
    const known = words
      .map((word) => this.termIndex(word))
      .filter((term) => term >= 0)
      .sort((a, b) => this.documentFrequency(a) - this.documentFrequency(b))
      .slice(0, SIMILAR_TERMS);
    const allowed = this.filterOf({ institution: course.institution });
    if (!allowed || !known.length) return [];
    const touched: number[] = [];
    for (const term of known) this.scoreWord([[term, 1]], touched);
    const hits = this.ranked(touched.filter((doc) => allowed(doc) && this.docs.refs.get(doc) !== course.ref));
    this.reset(touched);
    return hits;
  }

  /** Courses at an institution whose code is closest to the one asked for (NOT_FOUND hints). */
  closeMatches(institution: string, code: string, limit = 5): IndexedCourse[] {
    const [subject, number = ''] = code.split(' ');
    const d = this.docs;
    const candidates: { doc: number; distance: number }[] = [];
    for (let doc = 0; doc < d.refs.length; doc++) {
      if (d.institutions[d.institutionOf[doc]!] !== institution || d.subjects[d.subjectOf[doc]!] !== subject) continue;
      candidates.push({ doc, distance: boundedEditDistance(d.numbers.get(doc)!, number, 8) });
    }
    const byNumber = candidates
      .sort((a, b) => a.distance - b.distance || d.numbers.get(a.doc)!.localeCompare(d.numbers.get(b.doc)!))
      .slice(0, limit)
      .map(({ doc }) => this.course(doc));
    if (byNumber.length) return byNumber;
    return this.query(code, { institution }).slice(0, limit).map((hit) => hit.course);
  }

  /** One course by its reference (`langara:CPSC 1150`): what the catalogue says of it in brief (credits, title, level). */
  courseByRef(ref: string): IndexedCourse | undefined {
    this.docByRef ??= new Map((valuesOf(this.docs.refs) as string[]).map((value, doc) => [value, doc]));
    const doc = this.docByRef.get(ref);
    return doc === undefined ? undefined : this.course(doc);
  }

  /** References starting with `prefix` (`sfu:CMPT 2` → `sfu:CMPT 201`, …) in order, by binary search. */
  refsStartingWith(prefix: string, limit: number): { refs: string[]; total: number } {
    const sorted = (this.sortedRefs ??= (valuesOf(this.docs.refs) as string[]).sort());
    let end = lowerBound(sorted, prefix);
    const start = end;
    while (end < sorted.length && sorted[end]!.startsWith(prefix)) end++;
    return { refs: sorted.slice(start, Math.min(end, start + limit)), total: end - start };
  }

  private candidatesOf(word: string, last: boolean): [number, number][] {
    const exact = this.termIndex(word);
    const candidates: [number, number][] = exact >= 0 ? [[exact, 1]] : [];
    if (last && (word.length >= 3 || /^\d+$/.test(word))) {
      const { terms } = this.postings;
      const from = lowerBound(terms, word);
      for (let term = from; term < terms.length && term < from + MAX_PREFIX_TERMS && terms[term]!.startsWith(word); term++) {
        if (term !== exact) candidates.push([term, PREFIX_FACTOR]);
      }
    }
    if (exact < 0 && word.length >= 4) {
      const max = word.length >= 8 ? 2 : 1;
      const { terms } = this.postings;
      for (let term = 0; term < terms.length && candidates.length < MAX_FUZZY_TERMS; term++) {
        if (boundedEditDistance(word, terms[term]!, max) <= max) candidates.push([term, FUZZY_FACTOR]);
      }
    }
    return candidates;
  }

  /** Adds one word's best-matching candidate to each document it reaches. */
  private scoreWord(candidates: [number, number][], touched: number[]): void {
    const { offsets, postingDocs, postingWeights } = this.postings;
    const reached: number[] = [];
    for (const [term, factor] of candidates) {
      const weight = this.idf(term) * factor;
      for (let p = offsets[term]!; p < offsets[term + 1]!; p++) {
        const doc = postingDocs[p]!;
        const value = postingWeights[p]! * weight;
        if (this.tokenBest[doc] === 0) reached.push(doc);
        if (value > this.tokenBest[doc]!) this.tokenBest[doc] = value;
      }
    }
    for (const doc of reached) {
      if (this.matched[doc] === 0) touched.push(doc);
      this.matched[doc]!++;
      this.score[doc]! += this.tokenBest[doc]!;
      this.tokenBest[doc] = 0;
    }
  }

  /** Best first; each hit's course is read from the table only when a page shows it. */
  private ranked(docs: number[]): SearchHit[] {
    const levels = this.docs.levels;
    for (const doc of docs) this.score[doc]! *= levelPrior(levels[doc]!);
    const score = this.score;
    docs.sort((a, b) => score[b]! - score[a]! || a - b);
    return docs.map((doc) => new LazyHit(this, doc, score[doc]!));
  }

  private reset(touched: number[]): void {
    for (const doc of touched) {
      this.score[doc] = 0;
      this.matched[doc] = 0;
    }
  }

  private filterOf(filters: SearchFilters): ((doc: number) => boolean) | undefined {
    const d = this.docs;
    const institution = filters.institution === undefined ? -1 : d.institutions.indexOf(filters.institution);
    const subject = filters.subject === undefined ? -1 : d.subjects.indexOf(filters.subject);
    const term = filters.term === undefined ? -1 : d.offeredTerms.indexOf(filters.term);
    if ((filters.institution !== undefined && institution < 0) || (filters.subject !== undefined && subject < 0) || (filters.term !== undefined && term < 0)) return undefined;
    return (doc) =>
      (institution < 0 || d.institutionOf[doc] === institution) &&
      (subject < 0 || d.subjectOf[doc] === subject) &&
      (!filters.level || d.levels[doc] === filters.level) &&
      (term < 0 || this.offeredIn(doc, term));
  }

  private offeredIn(doc: number, term: number): boolean {
    const { offeredOffsets, offeredIds } = this.docs;
    for (let i = offeredOffsets[doc]!; i < offeredOffsets[doc + 1]!; i++) if (offeredIds[i] === term) return true;
    return false;
  }

  private termIndex(word: string): number {
    const { terms } = this.postings;
    const at = lowerBound(terms, word);
    return terms[at] === word ? at : -1;
  }

  private documentFrequency(term: number): number {
    return this.postings.offsets[term + 1]! - this.postings.offsets[term]!;
  }

  private idf(term: number): number {
    const df = this.documentFrequency(term);
    return Math.log(1 + (this.size - df + 0.5) / (df + 0.5));
  }
}

class LazyHit implements SearchHit {
  private read?: IndexedCourse;
  constructor(
    private readonly index: SearchIndex,
    private readonly doc: number,
    readonly score: number,
  ) {}
  get course(): IndexedCourse {
    return (this.read ??= this.index.course(this.doc));
  }
}

/**
 * A student searching a topic usually wants the course that introduces it, so among equally
 * relevant matches lower levels rank slightly higher (CMPT 225 before CMPT 307 for "data
 * structures"); graduate courses (5xx+) slightly lower. Small enough that relevance still decides.
 */
function levelPrior(level: number): number {
  if (level >= 5) return 0.9;
  return 1 + 0.05 * (4 - Math.max(1, level));
}

function lowerBound(sorted: string[], value: string): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle]! < value) low = middle + 1;
    else high = middle;
  }
  return low;
}
