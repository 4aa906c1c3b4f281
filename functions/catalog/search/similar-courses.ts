import { levelPrior } from './course-standing.js';
import type { IndexedDocs, Postings } from './index-build.js';
import type { CatalogLexicon } from './lexicon.js';
import type { Scratch } from './scratch.js';
import type { SearchHit } from './search-index.js';

/** What scoring words as they are reads of the index. */
export interface WordIndex {
  readonly docs: IndexedDocs;
  readonly postings: Postings;
  readonly lexicon: CatalogLexicon;
  idf(term: number): number;
  hit(doc: number, score: number): SearchHit;
}

/**
 * Words scored as they are, BM25F and the level prior alone: the courses sharing a course's most
 * telling words (similar()), and what the ranking as typed, the benchmarks' baseline, builds on.
 */
export class WordScorer {
  constructor(
    readonly index: WordIndex,
    readonly scratch: Scratch,
  ) {}

  /** Courses sharing these terms, each term at its full weight, best first. */
  rankTerms(terms: number[], allowed: (doc: number) => boolean): SearchHit[] {
    const touched: number[] = [];
    for (const term of terms) this.scoreWord([[term, 1]], touched);
    const hits = this.ranked(this.prior(touched.filter(allowed)));
    this.scratch.reset(touched);
    return hits;
  }

  prior(docs: number[]): number[] {
    const { levels } = this.index.docs;
    for (const doc of docs) this.scratch.score[doc]! *= levelPrior(levels[doc]!);
    return docs;
  }

  /** Adds one word's best-matching candidate (term, factor) to each document it reaches. */
  scoreWord(candidates: [number, number][], touched: number[]): void {
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
  ranked(docs: number[]): SearchHit[] {
    const { score } = this.scratch;
    docs.sort((a, b) => score[b]! - score[a]! || a - b);
    return docs.map((doc) => this.index.hit(doc, score[doc]!));
  }
}
