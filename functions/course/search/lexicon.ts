import type { Lexicon } from './query-plan.js';
import type { SubjectNames } from './subject-names.js';
import { boundedEditDistance, termOf } from './tokens.js';

const MAX_NEAR_TERMS = 20;

/**
 * The catalog's vocabulary as the query plan reads it: the sorted terms of the postings, and the
 * subject groups (institution × subject) each subject name and code stands for.
 */
export class CatalogLexicon implements Lexicon {
  private readonly named = new Map<string, number[]>();
  private readonly coded = new Map<string, number[]>();
  private readonly institutions: Set<string>;
  private readonly subjectCount: number;

  constructor(
    private readonly terms: string[],
    institutions: string[],
    subjects: string[],
    names: SubjectNames,
  ) {
    this.institutions = new Set(institutions);
    this.subjectCount = Math.max(1, subjects.length);
    const subjectIds = new Map(subjects.map((subject, id) => [subject, id]));
    institutions.forEach((institution, institutionId) => {
      for (const [subject, subjectNames] of Object.entries(names[institution] ?? {})) {
        const subjectId = subjectIds.get(subject);
        if (subjectId === undefined) continue;
        const group = groupOf(institutionId, subjectId, subjects.length);
        add(this.coded, subject.toLowerCase(), group);
        for (const name of subjectNames) add(this.named, name, group);
      }
    });
  }

  termIndex(word: string): number {
    const at = lowerBound(this.terms, word);
    return this.terms[at] === word ? at : -1;
  }

  termsStartingWith(prefix: string, limit: number): number[] {
    const found: number[] = [];
    for (let term = lowerBound(this.terms, prefix); term < this.terms.length && found.length < limit && this.terms[term]!.startsWith(prefix); term++) {
      if (this.terms[term] !== prefix) found.push(term);
    }
    return found;
  }

  /** Words starting with the same letter (typos rarely change it), at the smallest distance found. */
  nearestTerms(word: string): number[] {
    const max = word.length >= 8 ? 2 : 1;
    let best = max + 1;
    let found: number[] = [];
    const end = lowerBound(this.terms, String.fromCharCode(word.charCodeAt(0) + 1));
    for (let term = lowerBound(this.terms, word[0]!); term < end; term++) {
      const distance = boundedEditDistance(word, this.terms[term]!, Math.min(max, best));
      if (distance < best) [best, found] = [distance, [term]];
      else if (distance === best && distance <= max && found.length < MAX_NEAR_TERMS) found.push(term);
    }
    return best <= max ? found : [];
  }

  wordOf(term: number): string {
    return this.terms[term]!;
  }

  /** By the name's terms: "computer sciences" and "computer science" name the same subjects. */
  subjectsNamed(name: string): readonly number[] {
    return this.named.get(name.split(' ').map(termOf).join(' ')) ?? NONE;
  }

  subjectsCoded(word: string): readonly number[] {
    return this.coded.get(word) ?? NONE;
  }

  institutionOfGroup(group: number): number {
    return Math.floor(group / this.subjectCount);
  }

  institutionNamed(word: string): string | undefined {
    return this.institutions.has(word) ? word : undefined;
  }
}

/** An institution's subject as one number: what a course's two columns say, combined. */
export function groupOf(institutionId: number, subjectId: number, subjectCount: number): number {
  return institutionId * subjectCount + subjectId;
}

const NONE: readonly number[] = Object.freeze([]);

function add(map: Map<string, number[]>, key: string, group: number): void {
  const list = map.get(key);
  if (list) list.push(group);
  else map.set(key, [group]);
}

export function lowerBound(sorted: string[], value: string): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle]! < value) low = middle + 1;
    else high = middle;
  }
  return low;
}
