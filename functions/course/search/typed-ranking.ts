import { levelPrior } from './course-standing.js';
import type { IndexedDocs, Postings } from './index-build.js';
import type { CatalogLexicon } from './lexicon.js';
import type { Scratch } from './scratch.js';
import type { SearchHit } from './search-index.js';
import { boundedEditDistance, termOf, wordsOf } from './tokens.js';

/** What the ranking as typed reads of the index. */
export interface TypedIndex {
  readonly docs: IndexedDocs;
  readonly postings: Postings;
  readonly lexicon: CatalogLexicon;
  idf(term: number): number;
  hit(doc: number, score: number): SearchHit;
}

const PREFIX_FACTOR = 0.5;
const FUZZY_FACTOR = 0.35;
const MAX_PREFIX_TERMS = 200;
const MAX_FUZZY_TERMS = 20;

/**
 * The words as typed, BM25F and the level prior alone: the ranking before ADR 0033 (over today's
 * terms, singular and plural as one). Kept as the baseline the relevance and speed benchmarks measure
 * the student-aware ranking against, and for similar courses, which share a course's own words.
 */
export class TypedRanking {
  constructor(
    private readonly index: TypedIndex,
    private readonly scratch: Scratch,
  ) {}

  /** Courses matching every word (prefix for the last, nearest spellings for unknown words), then, when too few, those matching some. */
  rank(text: string, allowed: (doc: number) => boolean, enough: number): SearchHit[] {
    const words = wordsOf(text).slice(0, 32).map(termOf);
    if (!words.length) return [];
    const touched: number[] = [];
    words.forEach((word, position) => this.scoreWord(this.candidates(word, position === words.length - 1), touched));
    const all: number[] = [];
    const some: number[] = [];
    for (const doc of touched) if (allowed(doc)) (this.scratch.matched[doc] === words.length ? all : some).push(doc);
    const ranked = this.ranked(this.prior(all));
    const hits = ranked.length < enough ? ranked.concat(this.ranked(this.prior(some))) : ranked;
    this.scratch.reset(touched);
    return hits;
  }

  /** Courses sharing these terms, each term at its full weight, best first. */
  rankTerms(terms: number[], allowed: (doc: number) => boolean): SearchHit[] {
    const touched: number[] = [];
    for (const term of terms) this.scoreWord([[term, 1]], touched);
    const hits = this.ranked(this.prior(touched.filter(allowed)));
    this.scratch.reset(touched);
    return hits;
  }

  private prior(docs: number[]): number[] {
    const { levels } = this.index.docs;
    for (const doc of docs) this.scratch.score[doc]! *= levelPrior(levels[doc]!);
    return docs;
  }

  private candidates(word: string, last: boolean): [number, number][] {
    const { lexicon } = this.index;
    const exact = lexicon.termIndex(word);
    const candidates: [number, number][] = exact >= 0 ? [[exact, 1]] : [];
    if (last && (word.length >= 3 || /^\d+$/.test(word))) {
      for (const term of lexicon.termsStartingWith(word, MAX_PREFIX_TERMS)) candidates.push([term, PREFIX_FACTOR]);
    }
    if (exact < 0 && word.length >= 4) {
      const max = word.length >= 8 ? 2 : 1;
      const { terms } = this.index.postings;
      for (let term = 0; term < terms.length && candidates.length < MAX_FUZZY_TERMS; term++) {
        if (boundedEditDistance(word, terms[term]!, max) <= max) candidates.push([term, FUZZY_FACTOR]);
      }
    }
    return candidates;
  }

  /** Adds one word's best-matching candidate to each document it reaches. */
  private scoreWord(candidates: [number, number][], touched: number[]): void {
    const { offsets, postingDocs, postingWeights } = this.index.postings;
    const { tokenBest, score, matched } = this.scratch;
    const reached: number[] = [];
    for (const [term, factor] of candidates) {
      const weight = this.index.idf(term) * factor;
      for (let p = offsets[term]!; p < offsets[term + 1]!; p++) {
        const doc = postingDocs[p]!;
        const value = postingWeights[p]! * weight;
        if (tokenBest[doc] === 0) reached.push(doc);
        if (value > tokenBest[doc]!) tokenBest[doc] = value;
      }
    }
    for (const doc of reached) {
      if (matched[doc] === 0) touched.push(doc);
      matched[doc]!++;
      score[doc]! += tokenBest[doc]!;
      tokenBest[doc] = 0;
    }
  }

  /** Best first; each hit's course is read from the table only when a page shows it. */
  private ranked(docs: number[]): SearchHit[] {
    const { score } = this.scratch;
    docs.sort((a, b) => score[b]! - score[a]! || a - b);
    return docs.map((doc) => this.index.hit(doc, score[doc]!));
  }
}
