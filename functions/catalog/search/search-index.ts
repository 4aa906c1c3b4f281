import { buildPostings, type IndexedDocs, type Postings } from './index-build.js';
import { CatalogLexicon, lowerBound } from './lexicon.js';
import { planQuery } from './query-plan.js';
import { Scratch } from './scratch.js';
import { filterOf, narrows } from './search-filters.js';
import { WordScorer } from './similar-courses.js';
import { StudentRanking } from './student-ranking.js';
import { valuesOf } from './string-table.js';
import { boundedEditDistance, termsOf } from './tokens.js';

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
export type CourseSource = Omit<IndexedCourse, 'snippet'> & {
  description: string | null;
  termsOffered?: string[];
  /** Read for the codes they name: how central each course is (prerequisite-mentions.ts). */
  prerequisitesText?: string | null;
  corequisitesText?: string | null;
};

/** How many of a course's rarest words similar() looks for. */
const SIMILAR_TERMS = 24;

/**
 * The catalog's full-text index: BM25-weighted postings (code, title and description, boosted in
 * that order) in typed arrays, and a compact table of what a result shows. Built at ingestion and
 * loaded as one binary artifact, so a cold function searches without rebuilding; a query touches only
 * the postings of its own words, so common words cost a scan of one array, never a scored walk of
 * every partial match. The ranking (ADR 0033) reads the query as a student means it (query-plan.ts)
 * and weighs each match by the course's standing in the catalog (course-standing.ts).
 */
export class SearchIndex {
  readonly lexicon: CatalogLexicon;
  private readonly ranking: StudentRanking;
  private readonly similarWords: WordScorer;
  private sortedRefs?: string[];
  private docByRef?: Map<string, number>;

  constructor(
    readonly docs: IndexedDocs,
    readonly postings: Postings,
  ) {
    this.lexicon = new CatalogLexicon(postings.terms, docs.institutions, docs.subjects, docs.subjectNames, {
      isCourseCode: (term, institution) => this.isCourseCode(term, institution),
      documentFrequency: (term) => this.documentFrequency(term),
    });
    // One set of per-course arrays, shared: a query runs to completion before the next starts.
    const scratch = new Scratch(docs.refs.length);
    this.ranking = new StudentRanking(this, scratch);
    this.similarWords = new WordScorer(this, scratch);
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
   * Courses for what a student typed, the one they most likely mean first: a course code (exact,
   * then the codes it starts), then courses matching every concept of the query (by a spelling, a
   * synonym, or being in a subject a word names), weighed by how central each course is, its level
   * (first year when a first course is asked for), and whether its subject is the one named; only
   * when too few match every concept, courses matching some.
   */
  query(text: string, filters: SearchFilters = {}, enough = 1): SearchHit[] {
    const plan = planQuery(text, this.lexicon, filters);
    if (!plan) return [];
    const narrowed = { ...filters, institution: filters.institution ?? plan.institution };
    const allowed = filterOf(this.docs, narrowed);
    if (!allowed) return [];
    return this.ranking.rank(plan, narrows(narrowed) ? allowed : undefined, enough);
  }

  /** Same-institution courses sharing the most telling words of this one's title and description. */
  similar(course: Pick<CourseSource, 'ref' | 'institution' | 'title' | 'description'>): SearchHit[] {
    const words = [...new Set(termsOf([course.title, course.description].filter(Boolean).join(' ')))];
    const known = words
      .map((word) => this.lexicon.termIndex(word))
      .filter((term) => term >= 0)
      .sort((a, b) => this.documentFrequency(a) - this.documentFrequency(b))
      .slice(0, SIMILAR_TERMS);
    const allowed = filterOf(this.docs, { institution: course.institution });
    if (!allowed || !known.length) return [];
    return this.similarWords.rankTerms(known, (doc) => allowed(doc) && this.docs.refs.get(doc) !== course.ref);
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

  /** A hit whose course is read from the table only when a page shows it. */
  hit(doc: number, score: number): SearchHit {
    return new LazyHit(this, doc, score);
  }

  /**
   * Whether some course's own code, at this institution when one is given, is this joined code term
   * ("econ101"), not only a mention of it in another course's text. A code's postings are short.
   */
  private isCourseCode(term: number, institution?: string): boolean {
    const d = this.docs;
    const joined = this.postings.terms[term]!;
    const wanted = institution === undefined ? -1 : d.institutions.indexOf(institution);
    if (institution !== undefined && wanted < 0) return false;
    for (let p = this.postings.offsets[term]!; p < this.postings.offsets[term + 1]!; p++) {
      const doc = this.postings.postingDocs[p]!;
      if (wanted >= 0 && d.institutionOf[doc] !== wanted) continue;
      if (`${d.subjects[d.subjectOf[doc]!]!}${d.numbers.get(doc)!}`.toLowerCase() === joined) return true;
    }
    return false;
  }

  documentFrequency(term: number): number {
    return this.postings.offsets[term + 1]! - this.postings.offsets[term]!;
  }

  idf(term: number): number {
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
