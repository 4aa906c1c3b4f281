import { levelPrior, levelWeight, sequenceOf, standingOf, TRAIT } from './course-standing.js';
import { buildPostings, type IndexedDocs, type Postings } from './index-build.js';
import { CatalogLexicon, groupOf, lowerBound } from './lexicon.js';
import { planQuery, type Concept, type QueryPlan } from './query-plan.js';
import { valuesOf } from './string-table.js';
import { boundedEditDistance, termOf, termsOf, wordsOf } from './tokens.js';

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

const PREFIX_FACTOR = 0.5;
const FUZZY_FACTOR = 0.35;
const MAX_PREFIX_TERMS = 200;
const MAX_FUZZY_TERMS = 20;
const SIMILAR_TERMS = 24;
/** A course of a subject the query names matches the word at this share of a code match, at most the subject code's own idf. */
const MEMBER_FACTOR = 1;
/** Within a subject a word names, what the word in the text adds to membership. */
const WORDS_INSIDE = 0.25;
/** Courses of a subject the query names rank above equal matches elsewhere. */
const NAMED_SUBJECT = 1.3;
/** A title that starts a sequence or says "Introduction" when a first course is asked for. */
const INTRODUCTORY_TITLE = 1.15;
/** The part of a sequence asked for ("calc 1"), and another part. */
const SAME_PART = 1.3;
const OTHER_PART = 0.8;
const FIRST_PART = 1.1;
/** Course positions the packed sort keys hold (2^21): with 32 bits of score, exact below 2^53. */
const POSITIONS = 2 ** 21;
const SCORE = new Float32Array(1);
const SCORE_BITS = new Uint32Array(SCORE.buffer);

/**
 * The catalog's full-text index: BM25-weighted postings (code, title and description, boosted in
 * that order) in typed arrays, and a compact table of what a result shows. Built at ingestion and
 * loaded as one binary artifact, so a cold function searches without rebuilding; a query touches only
 * the postings of its own words, so common words cost a scan of one array, never a scored walk of
 * every partial match. The ranking (ADR 0033) reads the query as a student means it (query-plan.ts)
 * and weighs each match by the course's standing in the catalog (course-standing.ts).
 */
export class SearchIndex {
  private readonly tokenBest: Float32Array;
  /** A concept's best text match in courses of a subject it names, added to membership at WORDS_INSIDE. */
  private readonly insideBest: Float32Array;
  private readonly score: Float32Array;
  private readonly matched: Uint8Array;
  private readonly tier: Uint8Array;
  /** Each course's standing (course-standing.ts), computed the first time a query weighs it; 0 until then. */
  private readonly standing: Float64Array;
  private keys = new Float64Array(1024);
  /** Per subject group, the bits of the query's concepts that name it (scratch, cleared after each query). */
  private readonly groupBits: Uint32Array;
  private readonly lexicon: CatalogLexicon;
  private subjectTerms?: Int32Array;
  private sortedRefs?: string[];

  constructor(
    readonly docs: IndexedDocs,
    readonly postings: Postings,
  ) {
    const n = docs.refs.length;
    this.tokenBest = new Float32Array(n);
    this.insideBest = new Float32Array(n);
    this.score = new Float32Array(n);
    this.matched = new Uint8Array(n);
    this.tier = new Uint8Array(n);
    this.standing = new Float64Array(n);
    this.groupBits = new Uint32Array(Math.max(1, docs.institutions.length * docs.subjects.length));
    this.lexicon = new CatalogLexicon(postings.terms, docs.institutions, docs.subjects, docs.subjectNames);
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
    const plan = planQuery(text, this.lexicon);
    if (!plan) return [];
    const allowed = this.filterOf({ ...filters, institution: filters.institution ?? plan.institution });
    if (!allowed) return [];
    const touched: number[] = [];
    const coded = plan.codes.length > 0;
    if (coded) this.markCodes(plan, touched);
    const concepts = plan.concepts.length > 32 ? plan.concepts.slice(0, 32) : plan.concepts;
    let required = 0;
    for (let i = 0; i < concepts.length; i++) {
      if (concepts[i]!.required) required++;
      for (const group of concepts[i]!.groups) this.groupBits[group]! |= 1 << i;
    }
    for (let i = 0; i < concepts.length; i++) this.scoreConcept(concepts[i]!, 1 << i, touched);
    const { matched, tier } = this;
    const filtered = filters.institution !== undefined || plan.institution !== undefined || filters.subject !== undefined || filters.level !== undefined || filters.term !== undefined;
    const exact: number[] = [];
    const started: number[] = [];
    const all: number[] = [];
    for (const doc of touched) {
      if (matched[doc] !== required && !coded) continue;
      if (filtered && !allowed(doc)) continue;
      const codeTier = coded ? tier[doc]! : 0;
      if (codeTier === 2) exact.push(doc);
      else if (codeTier === 1) started.push(doc);
      else if (matched[doc] === required) all.push(doc);
    }
    // A code typed first (exact, then the codes it starts), then courses matching every concept;
    // only when too few do, the courses matching some (gathered only then).
    let hits = this.bestFirst(this.weigh(all, plan));
    if (coded) hits = this.bestFirst(this.weigh(exact, plan)).concat(this.bestFirst(this.weigh(started, plan)), hits);
    if (hits.length < enough) {
      const some = touched.filter((doc) => matched[doc] !== required && (!coded || tier[doc] === 0) && (!filtered || allowed(doc)));
      hits = hits.concat(this.bestFirst(this.weigh(some, plan)));
    }
    for (const concept of concepts) for (const group of concept.groups) this.groupBits[group] = 0;
    this.reset(touched, coded);
    return hits;
  }

  /**
   * The words as typed, BM25F and the level prior alone: the ranking before ADR 0033 (over today's
   * terms, singular and plural as one), kept as the baseline the relevance and speed benchmarks
   * measure the student-aware ranking against.
   */
  queryAsTyped(text: string, filters: SearchFilters = {}, enough = 1): SearchHit[] {
    const words = wordsOf(text).slice(0, 32).map(termOf);
    if (!words.length) return [];
    const allowed = this.filterOf(filters);
    if (!allowed) return [];
    const touched: number[] = [];
    words.forEach((word, position) => this.scoreWord(this.candidatesAsTyped(word, position === words.length - 1), touched));
    const all: number[] = [];
    const some: number[] = [];
    for (const doc of touched) if (allowed(doc)) (this.matched[doc] === words.length ? all : some).push(doc);
    const levels = this.docs.levels;
    const prior = (docs: number[]) => {
      for (const doc of docs) this.score[doc]! *= levelPrior(levels[doc]!);
      return docs;
    };
    const ranked = this.ranked(prior(all));
    const hits = ranked.length < enough ? ranked.concat(this.ranked(prior(some))) : ranked;
    this.reset(touched);
    return hits;
  }

  /** Same-institution courses sharing the most telling words of this one's title and description. */
  similar(course: Pick<CourseSource, 'ref' | 'institution' | 'title' | 'description'>): SearchHit[] {
    const words = [...new Set(termsOf([course.title, course.description].filter(Boolean).join(' ')))];
    const known = words
      .map((word) => this.lexicon.termIndex(word))
      .filter((term) => term >= 0)
      .sort((a, b) => this.documentFrequency(a) - this.documentFrequency(b))
      .slice(0, SIMILAR_TERMS);
    const allowed = this.filterOf({ institution: course.institution });
    if (!allowed || !known.length) return [];
    const touched: number[] = [];
    for (const term of known) this.scoreWord([[term, 1]], touched);
    const levels = this.docs.levels;
    const docs = touched.filter((doc) => allowed(doc) && this.docs.refs.get(doc) !== course.ref);
    for (const doc of docs) this.score[doc]! *= levelPrior(levels[doc]!);
    const hits = this.ranked(docs);
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

  /** References starting with `prefix` (`sfu:CMPT 2` → `sfu:CMPT 201`, …) in order, by binary search. */
  refsStartingWith(prefix: string, limit: number): { refs: string[]; total: number } {
    const sorted = (this.sortedRefs ??= (valuesOf(this.docs.refs) as string[]).sort());
    let end = lowerBound(sorted, prefix);
    const start = end;
    while (end < sorted.length && sorted[end]!.startsWith(prefix)) end++;
    return { refs: sorted.slice(start, Math.min(end, start + limit)), total: end - start };
  }

  /** Courses whose code the query typed: tier 2 exactly, tier 1 a code it starts ("cpsc 31" → CPSC 310…). */
  private markCodes(plan: QueryPlan, touched: number[]): void {
    const { offsets, postingDocs } = this.postings;
    for (const { term, exact } of plan.codes) {
      const joined = this.lexicon.wordOf(term);
      for (let p = offsets[term]!; p < offsets[term + 1]!; p++) {
        const doc = postingDocs[p]!;
        // The course's own code, not a mention of it in another course's description.
        if (`${this.docs.subjects[this.docs.subjectOf[doc]!]!}${this.docs.numbers.get(doc)!}`.toLowerCase() !== joined) continue;
        if (this.score[doc] === 0) touched.push(doc);
        this.tier[doc] = Math.max(this.tier[doc]!, exact ? 2 : 1);
        // Among codes of one tier, the course's standing orders them.
        this.score[doc] = Math.max(this.score[doc]!, 1);
      }
    }
  }

  /**
   * Adds one concept's best match to each course it reaches: a spelling in the text (weighted by the
   * rarest reading's idf, so "intro" weighs what "introduction" does), or membership of a subject the
   * concept names. Only required concepts count towards matching every one.
   */
  private scoreConcept(concept: Concept, bit: number, touched: number[]): void {
    const { offsets, postingDocs, postingWeights } = this.postings;
    const { institutionOf, subjectOf } = this.docs;
    const { tokenBest, insideBest, groupBits } = this;
    const subjectCount = this.docs.subjects.length;
    const reached: number[] = [];
    let common = -1;
    for (const { term } of concept.texts) if (common < 0 || this.documentFrequency(term) > this.documentFrequency(common)) common = term;
    const idf = common < 0 ? 0 : this.idf(common);
    const named = concept.groups.length > 0;
    for (const { term, factor } of concept.texts) {
      const weight = idf * factor;
      for (let p = offsets[term]!, end = offsets[term + 1]!; p < end; p++) {
        const doc = postingDocs[p]!;
        // Within a subject the word names, saying the word tells little more (every ECON course is
        // about economics): membership scores there, the words add a little, and the course's
        // standing orders them.
        const value = postingWeights[p]! * weight;
        if (named && groupBits[institutionOf[doc]! * subjectCount + subjectOf[doc]!]! & bit) {
          if (value > insideBest[doc]!) insideBest[doc] = value;
          continue;
        }
        const best = tokenBest[doc]!;
        if (value > best) {
          if (best === 0) reached.push(doc);
          tokenBest[doc] = value;
        }
      }
    }
    if (named) {
      for (const term of this.subjectTermsOf(concept.groups)) {
        const weight = MEMBER_FACTOR * (idf > 0 ? Math.min(idf, this.idf(term)) : this.idf(term));
        for (let p = offsets[term]!, end = offsets[term + 1]!; p < end; p++) {
          const doc = postingDocs[p]!;
          if (!(groupBits[institutionOf[doc]! * subjectCount + subjectOf[doc]!]! & bit)) continue;
          const value = postingWeights[p]! * weight;
          const best = tokenBest[doc]!;
          if (value > best) {
            if (best === 0) reached.push(doc);
            tokenBest[doc] = value;
          }
        }
      }
    }
    const { matched, score } = this;
    for (const doc of reached) {
      // Every course a code or an earlier concept reached has a score already.
      if (score[doc] === 0) touched.push(doc);
      if (concept.required) matched[doc]!++;
      score[doc]! += tokenBest[doc]! + WORDS_INSIDE * insideBest[doc]!;
      tokenBest[doc] = 0;
      insideBest[doc] = 0;
    }
  }

  /** The code terms of the subjects of these groups ("cpsc"), each once: their postings hold every course of the subject. */
  private subjectTermsOf(groups: number[]): number[] {
    const subjectCount = this.docs.subjects.length;
    const terms = (this.subjectTerms ??= Int32Array.from(this.docs.subjects, (subject) => this.lexicon.termIndex(subject.toLowerCase())));
    return [...new Set(groups.map((group) => terms[group % subjectCount]!))].filter((term) => term >= 0);
  }

  /** Each matched course's score times its standing, its level for what was asked, its subject, its part. */
  private weigh(docs: number[], plan: QueryPlan): number[] {
    const { levels, traits, institutionOf, subjectOf, requiredBy } = this.docs;
    const subjectCount = this.docs.subjects.length;
    for (const doc of docs) {
      const trait = traits[doc]!;
      let standing = this.standing[doc]!;
      if (standing === 0) standing = this.standing[doc] = standingOf(requiredBy[doc]!, trait, levels[doc]!);
      let weight = standing * levelWeight(levels[doc]!, plan.introductory);
      if (plan.introductory && trait & TRAIT.introductory) weight *= INTRODUCTORY_TITLE;
      if (this.groupBits[groupOf(institutionOf[doc]!, subjectOf[doc]!, subjectCount)]) weight *= NAMED_SUBJECT;
      // The part asked for ("calc 1"); unasked, a first course, or a topic without a part, means part I.
      const part = sequenceOf(trait);
      if (part && plan.sequence) weight *= part === plan.sequence ? SAME_PART : OTHER_PART;
      else if (part) weight *= part === 1 ? (plan.introductory ? SAME_PART : FIRST_PART) : OTHER_PART;
      this.score[doc]! *= weight;
    }
    return docs;
  }

  private candidatesAsTyped(word: string, last: boolean): [number, number][] {
    const exact = this.lexicon.termIndex(word);
    const candidates: [number, number][] = exact >= 0 ? [[exact, 1]] : [];
    if (last && (word.length >= 3 || /^\d+$/.test(word))) {
      for (const term of this.lexicon.termsStartingWith(word, MAX_PREFIX_TERMS)) candidates.push([term, PREFIX_FACTOR]);
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
    const score = this.score;
    docs.sort((a, b) => score[b]! - score[a]! || a - b);
    return docs.map((doc) => new LazyHit(this, doc, score[doc]!));
  }

  /**
   * Best first, ties by position, sorted as numbers: each course's float32 score bits (order-preserving
   * for non-negative scores) and its position packed into one integer below 2^53.
   */
  private bestFirst(docs: number[]): SearchHit[] {
    if (this.size > POSITIONS) return this.ranked(docs);
    if (!docs.length) return [];
    const { score } = this;
    if (this.keys.length < docs.length) this.keys = new Float64Array(docs.length * 2);
    const keys = this.keys.subarray(0, docs.length);
    for (let i = 0; i < docs.length; i++) {
      const doc = docs[i]!;
      SCORE[0] = score[doc]!;
      keys[i] = (0xffffffff - SCORE_BITS[0]!) * POSITIONS + doc;
    }
    keys.sort();
    const hits: SearchHit[] = new Array(keys.length);
    for (let i = 0; i < keys.length; i++) {
      const doc = keys[i]! % POSITIONS;
      hits[i] = new LazyHit(this, doc, score[doc]!);
    }
    return hits;
  }

  private reset(touched: number[], coded = false): void {
    for (const doc of touched) {
      this.score[doc] = 0;
      this.matched[doc] = 0;
    }
    if (coded) for (const doc of touched) this.tier[doc] = 0;
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

export { levelPrior };
