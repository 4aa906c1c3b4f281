import { Scratch } from './scratch.js';
import { filterOf } from './search-filters.js';
import type { SearchFilters, SearchHit } from './search-index.js';
import { WordScorer, type WordIndex } from './similar-courses.js';
import { boundedEditDistance, termOf, wordsOf } from './tokens.js';

const PREFIX_FACTOR = 0.5;
const FUZZY_FACTOR = 0.35;
const MAX_PREFIX_TERMS = 200;
const MAX_FUZZY_TERMS = 20;

/**
 * The words as typed, BM25F and the level prior alone: the ranking before ADR 0033 (over today's
 * terms, singular and plural as one), kept as the baseline the relevance and speed benchmarks measure
 * the student-aware ranking against. Not part of the service (nothing in functions/ imports it), so it
 * costs the deployed bundles nothing; it has per-course arrays of its own.
 */
export class TypedRanking {
  private readonly words: WordScorer;

  constructor(index: WordIndex & { readonly size: number }) {
    this.words = new WordScorer(index, new Scratch(index.size));
  }

  /** Courses matching every word (a prefix for the last, the nearest spellings for an unknown one), then, when too few, those matching some. */
  query(text: string, filters: SearchFilters = {}, enough = 1): SearchHit[] {
    const { index, scratch } = this.words;
    const allowed = filterOf(index.docs, filters);
    const words = wordsOf(text).slice(0, 32).map(termOf);
    if (!allowed || !words.length) return [];
    const touched: number[] = [];
    words.forEach((word, position) => this.words.scoreWord(this.candidates(word, position === words.length - 1), touched));
    const all: number[] = [];
    const some: number[] = [];
    for (const doc of touched) if (allowed(doc)) (scratch.matched[doc] === words.length ? all : some).push(doc);
    const ranked = this.words.ranked(this.words.prior(all));
    const hits = ranked.length < enough ? ranked.concat(this.words.ranked(this.words.prior(some))) : ranked;
    scratch.reset(touched);
    return hits;
  }

  private candidates(word: string, last: boolean): [number, number][] {
    const { lexicon, postings } = this.words.index;
    const exact = lexicon.termIndex(word);
    const candidates: [number, number][] = exact >= 0 ? [[exact, 1]] : [];
    if (last && (word.length >= 3 || /^\d+$/.test(word))) {
      for (const term of lexicon.termsStartingWith(word, MAX_PREFIX_TERMS)) candidates.push([term, PREFIX_FACTOR]);
    }
    if (exact < 0 && word.length >= 4) {
      const max = word.length >= 8 ? 2 : 1;
      for (let term = 0; term < postings.terms.length && candidates.length < MAX_FUZZY_TERMS; term++) {
        if (boundedEditDistance(word, postings.terms[term]!, max) <= max) candidates.push([term, FUZZY_FACTOR]);
      }
    }
    return candidates;
  }
}
