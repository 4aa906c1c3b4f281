import type { Lexicon } from './query-plan.js';
import type { SubjectNames } from './subject-names.js';
import { boundedEditDistance, termOf } from './tokens.js';

const MAX_NEAR_TERMS = 20;
/**
 * How much less likely one more edit makes a reading: a misspelling is read as the known words whose
 * course count × NEAR_EDIT^distance comes within NEAR_KEPT of the likeliest ("psycology" is psychology,
 * never also the three phycology courses; "stastics" is statics or statistics).
 */
const NEAR_EDIT = 0.1;
const NEAR_KEPT = 0.1;

/** What the lexicon asks of the index behind it. */
export interface LexiconCatalog {
  /** Whether a joined code term ("econ101") is some course's own code, at this institution when one is given. */
  isCourseCode(term: number, institution?: string): boolean;
  /** How many courses use the term. */
  documentFrequency(term: number): number;
}

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
    private readonly catalog: LexiconCatalog,
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

  /**
   * Words starting with the same letter (typos rarely change it) within one edit, or two from eight
   * letters as typed, weighed by how common each is and how near (NEAR_EDIT, NEAR_KEPT).
   */
  nearestTerms(word: string, typedLength = word.length): number[] {
    const max = typedLength >= 8 ? 2 : 1;
    const found: { term: number; likelihood: number }[] = [];
    const end = lowerBound(this.terms, String.fromCharCode(word.charCodeAt(0) + 1));
    for (let term = lowerBound(this.terms, word[0]!); term < end; term++) {
      const distance = boundedEditDistance(word, this.terms[term]!, max);
      if (distance <= max) found.push({ term, likelihood: this.catalog.documentFrequency(term) * NEAR_EDIT ** distance });
    }
    const best = Math.max(0, ...found.map((f) => f.likelihood));
    return found
      .filter((f) => f.likelihood >= best * NEAR_KEPT)
      .sort((a, b) => b.likelihood - a.likelihood)
      .slice(0, MAX_NEAR_TERMS)
      .map((f) => f.term);
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

  isCourseCode(term: number, institution?: string): boolean {
    return this.catalog.isCourseCode(term, institution);
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
