import { traitsOf } from './course-standing.js';
import { countRequiredBy } from './prerequisite-mentions.js';
import type { CourseSource } from './search-index.js';
import { PackedTable } from './string-table.js';
import { deriveSubjectNames, type SubjectNames } from './subject-names.js';
import { codeTerms, termsOf } from './tokens.js';

/** The result table: one entry per course, strings packed, and interned where they repeat. */
export interface IndexedDocs {
  refs: PackedTable;
  codes: PackedTable;
  numbers: PackedTable;
  titles: PackedTable;
  snippets: PackedTable;
  institutions: string[];
  institutionOf: Uint16Array;
  subjects: string[];
  subjectOf: Uint16Array;
  levels: Uint8Array;
  /** NaN where the course states no credits. */
  credits: Float32Array;
  /** Terms some source lists the course in; course i's are offeredIds[offeredOffsets[i] .. offeredOffsets[i+1]). */
  offeredTerms: string[];
  offeredOffsets: Uint32Array;
  offeredIds: Uint16Array;
  /** How many courses of the same institution name this one as a prerequisite or corequisite. */
  requiredBy: Uint16Array;
  /** What the title says of the course (course-standing.ts: first course, special topics, part of a sequence). */
  traits: Uint8Array;
  /** The words the catalog names each institution's subjects by (subject-names.ts). */
  subjectNames: SubjectNames;
}

/** Sorted terms; term i's documents are postingDocs[offsets[i] .. offsets[i+1]) with their weights. */
export interface Postings {
  terms: string[];
  offsets: Uint32Array;
  postingDocs: Uint32Array;
  postingWeights: Float32Array;
}

/**
 * Per field: its boost, and how much its length discounts a match (b). A title is what the course is
 * about however long it is ("Differential Calculus with Applications to Physical Sciences and
 * Engineering" is as much calculus as "Pre-Calculus"), so a title's length discounts a match half as much as a description's.
 */
const FIELDS = [
  { boost: 4, b: 0.7, words: (c: CourseSource) => codeTerms(c.subject, c.number) },
  { boost: 3, b: 0.5, words: (c: CourseSource) => termsOf(c.title ?? '') },
  { boost: 1, b: 0.7, words: (c: CourseSource) => termsOf(c.description ?? '') },
];
const K1 = 1.2;
const SNIPPET_LENGTH = 160;

/**
 * BM25F-style weights per (term, course): each field's saturated term frequency, normalised by the
 * field's length against its average and boosted, summed over fields. The idf is applied at query time
 * from the posting list's length, so the artifact needs no global statistics besides the count.
 */
export function buildPostings(courses: CourseSource[]): { docs: IndexedDocs; postings: Postings } {
  const docs = docTable(courses);
  const averages = FIELDS.map((field) => courses.reduce((sum, course) => sum + field.words(course).length, 0) / Math.max(1, courses.length) || 1);
  const termIds = new Map<string, number>();
  let termOf = new Uint32Array(1 << 16);
  let docOf = new Uint32Array(1 << 16);
  let weightOf = new Float32Array(1 << 16);
  let count = 0;
  courses.forEach((course, doc) => {
    const weights = new Map<string, number>();
    FIELDS.forEach((field, f) => {
      const words = field.words(course);
      const frequencies = new Map<string, number>();
      for (const word of words) frequencies.set(word, (frequencies.get(word) ?? 0) + 1);
      const norm = K1 * (1 - field.b + (field.b * words.length) / averages[f]!);
      for (const [word, tf] of frequencies) weights.set(word, (weights.get(word) ?? 0) + (field.boost * tf * (K1 + 1)) / (tf + norm));
    });
    for (const [word, weight] of weights) {
      if (count === termOf.length) [termOf, docOf, weightOf] = [grow(termOf), grow(docOf), grow(weightOf)];
      let id = termIds.get(word);
      if (id === undefined) termIds.set(word, (id = termIds.size));
      termOf[count] = id;
      docOf[count] = doc;
      weightOf[count] = weight;
      count++;
    }
  });
  return { docs, postings: groupByTerm(termIds, termOf.subarray(0, count), docOf, weightOf) };
}

/** Counting sort by term (documents stay ascending within a term), terms then laid out alphabetically. */
function groupByTerm(termIds: Map<string, number>, termOf: Uint32Array, docOf: Uint32Array, weightOf: Float32Array): Postings {
  const byId = [...termIds.keys()];
  const order = byId.map((_, id) => id).sort((a, b) => (byId[a]! < byId[b]! ? -1 : 1));
  const rank = new Uint32Array(byId.length);
  order.forEach((id, position) => (rank[id] = position));
  const offsets = new Uint32Array(byId.length + 1);
  for (const id of termOf) offsets[rank[id]! + 1]!++;
  for (let i = 0; i < byId.length; i++) offsets[i + 1]! += offsets[i]!;
  const next = offsets.slice(0, byId.length);
  const postingDocs = new Uint32Array(termOf.length);
  const postingWeights = new Float32Array(termOf.length);
  termOf.forEach((id, i) => {
    const at = next[rank[id]!]!++;
    postingDocs[at] = docOf[i]!;
    postingWeights[at] = weightOf[i]!;
  });
  return { terms: order.map((id) => byId[id]!), offsets, postingDocs, postingWeights };
}

function docTable(courses: CourseSource[]): IndexedDocs {
  const institutions = intern(courses.map((c) => c.institution));
  const subjects = intern(courses.map((c) => c.subject));
  return {
    refs: PackedTable.pack(courses.map((c) => c.ref)),
    codes: PackedTable.pack(courses.map((c) => c.code)),
    numbers: PackedTable.pack(courses.map((c) => c.number)),
    titles: PackedTable.pack(courses.map((c) => c.title)),
    snippets: PackedTable.pack(courses.map((c) => (c.description ? c.description.slice(0, SNIPPET_LENGTH) : null))),
    institutions: institutions.values,
    institutionOf: Uint16Array.from(institutions.indexes),
    subjects: subjects.values,
    subjectOf: Uint16Array.from(subjects.indexes),
    levels: Uint8Array.from(courses.map((c) => c.level)),
    credits: Float32Array.from(courses.map((c) => c.credits ?? Number.NaN)),
    ...offeredTable(courses),
    requiredBy: countRequiredBy(courses),
    traits: Uint8Array.from(courses.map((c) => traitsOf(c.title))),
    subjectNames: deriveSubjectNames(courses),
  };
}

function offeredTable(courses: CourseSource[]): Pick<IndexedDocs, 'offeredTerms' | 'offeredOffsets' | 'offeredIds'> {
  const terms = intern(courses.flatMap((c) => c.termsOffered ?? []));
  const offsets = new Uint32Array(courses.length + 1);
  courses.forEach((c, i) => (offsets[i + 1] = offsets[i]! + (c.termsOffered?.length ?? 0)));
  return { offeredTerms: terms.values, offeredOffsets: offsets, offeredIds: Uint16Array.from(terms.indexes) };
}

function intern(values: string[]): { values: string[]; indexes: number[] } {
  const ids = new Map<string, number>();
  const indexes = values.map((value) => {
    let id = ids.get(value);
    if (id === undefined) ids.set(value, (id = ids.size));
    return id;
  });
  return { values: [...ids.keys()], indexes };
}

function grow<T extends Uint32Array | Float32Array>(array: T): T {
  const bigger = new (array.constructor as new (length: number) => T)(array.length * 2);
  bigger.set(array);
  return bigger;
}
