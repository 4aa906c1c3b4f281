import { levelWeight, sequenceOf, standingOf, TRAIT } from './course-standing.js';
import { titledIn, type IndexedDocs, type Postings } from './index-build.js';
import { groupOf, type CatalogLexicon } from './lexicon.js';
import type { Concept, QueryPlan } from './query-plan.js';
import type { Scratch } from './scratch.js';
import type { SearchHit } from './search-index.js';
import { TopicSequence } from './topic-sequence.js';

/** What the ranking reads of the index. */
export interface RankedIndex {
  readonly docs: IndexedDocs;
  readonly postings: Postings;
  readonly lexicon: CatalogLexicon;
  readonly size: number;
  idf(term: number): number;
  documentFrequency(term: number): number;
  hit(doc: number, score: number): SearchHit;
}

/** A course of a subject the query names matches the word at this share of a code match, at most the subject code's own idf. */
const MEMBER_FACTOR = 1;
/** Within a subject a word names, what the word in the text adds to membership. */
const WORDS_INSIDE = 0.5;
/** Courses of a subject the query names rank above equal matches elsewhere. */
const NAMED_SUBJECT = 1.3;
/** A title that starts a sequence or says "Introduction" when a first course is asked for. */
const INTRODUCTORY_TITLE = 1.15;
/** The part of a sequence asked for ("calc 1"), and another part. */
const SAME_PART = 1.3;
const OTHER_PART = 0.8;
const FIRST_PART = 1.1;
/**
 * How much of its standing lifts a course that is not about every word of a query naming a subject:
 * one of the subject that meets another word only in its description ("discrete math": UBC MATH 102,
 * required by many, mentions "discrete probability") ranks by half its standing's lift, so a central
 * course's passing mention stays below courses about the word. Read only where a subject is named and
 * another word asked (a title's bit per posting costs the scan ~10% when read for every query).
 */
const PASSING_LIFT = 0.5;
/** Course positions the packed sort keys hold (2^21): with 32 bits of score, exact below 2^53. */
const POSITIONS = 2 ** 21;
const SCORE = new Float32Array(1);
const SCORE_BITS = new Uint32Array(SCORE.buffer);

/**
 * The ranking of ADR 0033 over a query plan (query-plan.ts): courses whose code was typed first, then
 * those matching every concept (by a spelling, or by being in a subject a word names), each weighed
 * by its standing (course-standing.ts), its level for what was asked, whether its subject was named
 * and the part of a sequence. Its scratch arrays are cleared after each query.
 */
export class StudentRanking {
  /** A concept's best text match in courses of a subject it names, added to membership at WORDS_INSIDE. */
  private readonly insideBest: Float32Array;
  /** 2 for a course whose code was typed, 1 for one whose code starts with what was typed. */
  private readonly tier: Uint8Array;
  /** Each course's standing, computed the first time a query weighs it; 0 until then. */
  private readonly standing: Float64Array;
  /** Per course, how many required words its title meets (with groupBits: about every word asked?); cleared through `titled`. */
  private readonly about: Uint8Array;
  private readonly titled: number[] = [];
  /** The postings' weights as bits: bit 0 is set where the term is in the course's title. */
  private readonly weightBits: Uint32Array;
  /** The bits of the query's required concepts, and how many there are. */
  private requiredBits = 0;
  private requiredCount = 0;
  /** Whether the query names a subject: only then can a central course of it lift a passing mention of another word. */
  private readTitles = false;
  /** Per subject group, the bits of the query's concepts that name it. */
  private readonly groupBits: Uint32Array;
  /** Which part of the topic each full match is, from the prerequisites among the matches. */
  private readonly sequence: TopicSequence;
  private keys = new Float64Array(1024);
  private subjectTerms?: Int32Array;

  constructor(
    private readonly index: RankedIndex,
    private readonly scratch: Scratch,
  ) {
    const n = index.size;
    this.insideBest = new Float32Array(n);
    this.tier = new Uint8Array(n);
    this.standing = new Float64Array(n);
    this.about = new Uint8Array(n);
    this.weightBits = titledIn(index.postings.postingWeights);
    this.groupBits = new Uint32Array(Math.max(1, index.docs.institutions.length * index.docs.subjects.length));
    this.sequence = new TopicSequence(n, index.docs.requiresOffsets, index.docs.requiresIds);
  }

  /** The hits for a plan; `allowed` filters courses when the search is narrowed. */
  rank(plan: QueryPlan, allowed: ((doc: number) => boolean) | undefined, enough: number): SearchHit[] {
    const { matched, score } = this.scratch;
    const touched: number[] = [];
    const coded = plan.codes.length > 0;
    if (coded) this.markCodes(plan, touched);
    const concepts = plan.concepts.length > 32 ? plan.concepts.slice(0, 32) : plan.concepts;
    let required = 0;
    this.requiredBits = 0;
    for (let i = 0; i < concepts.length; i++) {
      if (concepts[i]!.required) {
        required++;
        this.requiredBits |= 1 << i;
      }
      for (const group of concepts[i]!.groups) this.groupBits[group]! |= 1 << i;
    }
    this.requiredCount = required;
    this.readTitles = required > 1 && concepts.some((concept) => concept.groups.length > 0);
    for (let i = 0; i < concepts.length; i++) this.scoreConcept(concepts[i]!, 1 << i, touched);
    const { tier } = this;
    const exact: number[] = [];
    const started: number[] = [];
    const all: number[] = [];
    for (const doc of touched) {
      if (matched[doc] !== required && !coded) continue;
      if (allowed && !allowed(doc)) continue;
      const codeTier = coded ? tier[doc]! : 0;
      if (codeTier === 2) exact.push(doc);
      else if (codeTier === 1) started.push(doc);
      else if (matched[doc] === required) all.push(doc);
    }
    // A code typed first (exact, then the codes it starts), then courses matching every concept;
    // only when too few do, the courses matching some (gathered only then).
    // A topic's parts are read only where they weigh: a part asked for, or a topic asked for as it is.
    const parts = plan.sequence > 0 || !plan.introductory;
    if (parts) this.sequence.read(all, score);
    let hits = this.bestFirst(this.weigh(all, plan));
    if (parts) this.sequence.clear(all);
    if (coded) hits = this.bestFirst(this.weigh(exact, plan)).concat(this.bestFirst(this.weigh(started, plan)), hits);
    if (hits.length < enough) {
      const some = touched.filter((doc) => matched[doc] !== required && (!coded || tier[doc] === 0) && (!allowed || allowed(doc)));
      hits = hits.concat(this.bestFirst(this.weigh(some, plan)));
    }
    for (const concept of concepts) for (const group of concept.groups) this.groupBits[group] = 0;
    for (const doc of touched) {
      score[doc] = 0;
      matched[doc] = 0;
    }
    for (const doc of this.titled) this.about[doc] = 0;
    this.titled.length = 0;
    if (coded) for (const doc of touched) tier[doc] = 0;
    return hits;
  }

  /** Courses whose code the query typed: tier 2 exactly, tier 1 a code it starts ("cpsc 31" → CPSC 310…). */
  private markCodes(plan: QueryPlan, touched: number[]): void {
    const { offsets, postingDocs } = this.index.postings;
    for (const { term, exact } of plan.codes) {
      const joined = this.index.lexicon.wordOf(term);
      for (let p = offsets[term]!; p < offsets[term + 1]!; p++) {
        const doc = postingDocs[p]!;
        // The course's own code, not a mention of it in another course's description.
        if (`${this.index.docs.subjects[this.index.docs.subjectOf[doc]!]!}${this.index.docs.numbers.get(doc)!}`.toLowerCase() !== joined) continue;
        if (this.scratch.score[doc] === 0) touched.push(doc);
        this.tier[doc] = Math.max(this.tier[doc]!, exact ? 2 : 1);
        // Among codes of one tier, the course's standing orders them.
        this.scratch.score[doc] = Math.max(this.scratch.score[doc]!, 1);
      }
    }
  }

  /**
   * Adds one concept's best match to each course it reaches: a spelling in the text (weighted by the
   * idf of its commonest spelling, so a rare shorthand weighs what the word it stands for does), or membership of a subject the
   * concept names. Only required concepts count towards matching every one.
   */
  private scoreConcept(concept: Concept, bit: number, touched: number[]): void {
    const { offsets, postingDocs, postingWeights } = this.index.postings;
    const { weightBits, readTitles } = this;
    const { institutionOf, subjectOf } = this.index.docs;
    const { tokenBest } = this.scratch;
    const { insideBest, groupBits } = this;
    const subjectCount = this.index.docs.subjects.length;
    const reached: number[] = [];
    let common = -1;
    for (const { term } of concept.texts) if (common < 0 || this.index.documentFrequency(term) > this.index.documentFrequency(common)) common = term;
    const idf = common < 0 ? 0 : this.index.idf(common);
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
        // Outside a named subject insideBest is unused: -1 there marks the word in the title.
        if (readTitles && weightBits[p]! & 1) insideBest[doc] = -1;
      }
    }
    if (named) {
      for (const term of this.subjectTermsOf(concept.groups)) {
        const weight = MEMBER_FACTOR * (idf > 0 ? Math.min(idf, this.index.idf(term)) : this.index.idf(term));
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
    const { matched, score } = this.scratch;
    const { about, titled } = this;
    for (const doc of reached) {
      // Every course a code or an earlier concept reached has a score already.
      if (score[doc] === 0) touched.push(doc);
      const inside = insideBest[doc]!;
      if (concept.required) {
        matched[doc]!++;
        if (inside < 0 && about[doc]!++ === 0) titled.push(doc);
      }
      score[doc]! += tokenBest[doc]! + (inside > 0 ? WORDS_INSIDE * inside : 0);
      tokenBest[doc] = 0;
      insideBest[doc] = 0;
    }
  }

  /** The code terms of the subjects of these groups ("cpsc"), each once: their postings hold every course of the subject. */
  private subjectTermsOf(groups: number[]): number[] {
    const subjectCount = this.index.docs.subjects.length;
    const terms = (this.subjectTerms ??= Int32Array.from(this.index.docs.subjects, (subject) => this.index.lexicon.termIndex(subject.toLowerCase())));
    return [...new Set(groups.map((group) => terms[group % subjectCount]!))].filter((term) => term >= 0);
  }

  /** Each matched course's score times its standing, its level for what was asked, its subject, its part. */
  private weigh(docs: number[], plan: QueryPlan): number[] {
    const { levels, traits, institutionOf, subjectOf, requiredBy } = this.index.docs;
    const subjectCount = this.index.docs.subjects.length;
    for (const doc of docs) {
      const trait = traits[doc]!;
      let standing = this.standing[doc]!;
      if (standing === 0) standing = this.standing[doc] = standingOf(requiredBy[doc]!, trait, levels[doc]!);
      const group = groupOf(institutionOf[doc]!, subjectOf[doc]!, subjectCount);
      // Standing orders courses about what was asked (in the title, or a subject a word names); it lifts a passing mention only in part.
      if (this.readTitles && standing > 1 && this.about[doc]! + bitCount(this.groupBits[group]! & this.requiredBits) < this.requiredCount) standing = 1 + (standing - 1) * PASSING_LIFT;
      let weight = standing * levelWeight(levels[doc]!, plan.introductory);
      if (plan.introductory && trait & TRAIT.introductory) weight *= INTRODUCTORY_TITLE;
      if (this.groupBits[group]) weight *= NAMED_SUBJECT;
      // The part asked for ("calc 1", "calculus 2"), by the title's numeral or else by what the course
      // requires among the matches. Unasked, part I is preferred where a title numbers it, and a course
      // building on another match comes after it, unless a first course was asked for (the level says
      // that, and a subject's remedial courses must not outrank its first ones).
      const titled = sequenceOf(trait);
      if (plan.sequence) weight *= (titled || this.sequence.partOf(doc)) === plan.sequence ? SAME_PART : OTHER_PART;
      else if (titled) weight *= titled === 1 ? (plan.introductory ? INTRODUCTORY_TITLE : FIRST_PART) : OTHER_PART;
      else if (!plan.introductory && this.sequence.partOf(doc) > 1) weight *= OTHER_PART;
      this.scratch.score[doc]! *= weight;
    }
    return docs;
  }

  /**
   * Best first, ties by position, sorted as numbers: each course's float32 score bits (order-preserving
   * for non-negative scores) and its position packed into one integer below 2^53.
   */
  private bestFirst(docs: number[]): SearchHit[] {
    if (this.index.size > POSITIONS) return this.byComparison(docs);
    if (!docs.length) return [];
    const { score } = this.scratch;
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
      hits[i] = this.index.hit(doc, score[doc]!);
    }
    return hits;
  }

  /** Best first by comparison, for an index too large for packed keys. */
  private byComparison(docs: number[]): SearchHit[] {
    const { score } = this.scratch;
    docs.sort((a, b) => score[b]! - score[a]! || a - b);
    return docs.map((doc) => this.index.hit(doc, score[doc]!));
  }
}

/** How many bits are set (at most 32 concepts). */
const bitCount = (bits: number): number => (bits ? (bits & 1) + bitCount(bits >>> 1) : 0);
