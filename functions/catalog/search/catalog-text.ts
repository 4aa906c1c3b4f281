import type { CourseSource } from './search-index.js';
import { codeTerms, termsOf } from './tokens.js';

/** The fields a course's text is indexed in, in order: code, title head, title tail, description. */
export const FIELD_COUNT = 4;
export const FIELD = { code: 0, titleHead: 1, titleTail: 2, description: 3 } as const;

/**
 * Every course's index terms, read once: the vocabulary (term id → term) and, per course and field,
 * the run of its term ids in `ids` (course c's field f is ids[offsets[c·4+f] .. offsets[c·4+f+1])).
 * The postings and the subject names both read this, so a 100,000-course build tokenizes each text
 * once and holds ids, not strings.
 */
export interface CatalogText {
  vocabulary: string[];
  ids: Uint32Array;
  offsets: Uint32Array;
}

export function readCatalogText(courses: CourseSource[]): CatalogText {
  const idOf = new Map<string, number>();
  const vocabulary: string[] = [];
  let ids = new Uint32Array(1 << 16);
  const offsets = new Uint32Array(courses.length * FIELD_COUNT + 1);
  let count = 0;
  courses.forEach((course, c) => {
    const { head, tail } = titleParts(course.title);
    const fields = [codeTerms(course.subject, course.number), termsOf(head), termsOf(tail), termsOf(course.description ?? '')];
    fields.forEach((terms, f) => {
      for (const term of terms) {
        let id = idOf.get(term);
        if (id === undefined) {
          idOf.set(term, (id = vocabulary.length));
          vocabulary.push(term);
        }
        if (count === ids.length) {
          const bigger = new Uint32Array(ids.length * 2);
          bigger.set(ids);
          ids = bigger;
        }
        ids[count++] = id;
      }
      offsets[c * FIELD_COUNT + f + 1] = count;
    });
  });
  return { vocabulary, ids: ids.subarray(0, count), offsets };
}

/** Course c's term ids in field f. */
export function fieldIds(text: CatalogText, c: number, f: number): Uint32Array {
  return text.ids.subarray(text.offsets[c * FIELD_COUNT + f]!, text.offsets[c * FIELD_COUNT + f + 1]!);
}

/**
 * A title's head and what follows its first "with" or "for": "Principles of Microeconomics with
 * Calculus" is economics, "Calculus for the Social Sciences" calculus.
 */
export function titleParts(title: string | null): { head: string; tail: string } {
  const at = title ? title.search(/\s(?:with|for)\s/i) : -1;
  return at < 0 ? { head: title ?? '', tail: '' } : { head: title!.slice(0, at), tail: title!.slice(at) };
}
