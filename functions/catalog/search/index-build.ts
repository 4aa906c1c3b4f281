import { traitsOf } from './course-standing.js';
import { countRequiredBy, prerequisiteEdges } from './prerequisite-mentions.js';
import type { CourseSource } from './search-index.js';
import { PackedTable } from './string-table.js';
import { deriveSubjectNames, type SubjectNames } from './subject-names.js';
import { FIELD, fieldIds, readCatalogText, type CatalogText } from './catalog-text.js';

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
  /** The courses each course's prerequisites name: course i's are requiresIds[requiresOffsets[i] .. requiresOffsets[i+1]). */
  requiresOffsets: Uint32Array;
  requiresIds: Uint32Array;
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
  /** Each posting's BM25F weight; its lowest bit says whether the term is in the course's title (titledIn). */
  postingWeights: Float32Array;
}

/**
 * The weights' bits, where bit 0 of posting p says its term is in the course's title. Kept in the
 * weight itself (one unit in its last place, far below what ranks) so the ranking's scan reads no
 * second array.
 */
export function titledIn(weights: Float32Array): Uint32Array {
  return new Uint32Array(weights.buffer, weights.byteOffset, weights.length);
}

/**
 * Per field (catalog-text.ts order): its boost, and how much its length discounts a match (b). A
 * title is what the course is about, its head more than what follows "with" or "for"; a title's
 * length discounts a match half as much as a description's (a long title is no less about its words).
 */
const FIELDS = [
  { boost: 4, b: 0.7 },
  { boost: 3, b: 0.5 },
  { boost: 1.5, b: 0.5 },
  { boost: 1, b: 0.7 },
];
const K1 = 1.2;
const SNIPPET_LENGTH = 160;

/**
 * BM25F weights per (term, course): each field's term frequency, boosted and normalised by the
 * field's length against its average, summed over fields and saturated once (a word in the title and
 * again in the description is worth a little more than in the title alone). The idf is applied at
 * query time from the posting list's length, so the artifact needs no global statistics besides the count.
 */
export function buildPostings(courses: CourseSource[]): { docs: IndexedDocs; postings: Postings } {
  const text = readCatalogText(courses);
  const docs = docTable(courses, text);
  const n = Math.max(1, courses.length);
  const averages = FIELDS.map((_, f) => {
    let sum = 0;
    for (let c = 0; c < courses.length; c++) sum += fieldIds(text, c, f).length;
    return sum / n || 1;
  });
  let termOf = new Uint32Array(1 << 16);
  let docOf = new Uint32Array(1 << 16);
  let weightOf = new Float32Array(1 << 16);
  let titledOf = new Uint8Array(1 << 16);
  let count = 0;
  const frequency = new Float64Array(text.vocabulary.length);
  const inTitle = new Uint8Array(text.vocabulary.length);
  const seen: number[] = [];
  for (let doc = 0; doc < courses.length; doc++) {
    FIELDS.forEach((field, f) => {
      const ids = fieldIds(text, doc, f);
      const add = field.boost / (1 - field.b + (field.b * ids.length) / averages[f]!);
      const title = f === FIELD.titleHead || f === FIELD.titleTail ? 1 : 0;
      for (const id of ids) {
        if (frequency[id] === 0) seen.push(id);
        frequency[id]! += add;
        inTitle[id]! |= title;
      }
    });
    for (const id of seen) {
      const tf = frequency[id]!;
      if (count === termOf.length) [termOf, docOf, weightOf, titledOf] = [grow(termOf), grow(docOf), grow(weightOf), grow(titledOf)];
      termOf[count] = id;
      docOf[count] = doc;
      weightOf[count] = (tf * (K1 + 1)) / (tf + K1);
      titledOf[count] = inTitle[id]!;
      count++;
      frequency[id] = 0;
      inTitle[id] = 0;
    }
    seen.length = 0;
  }
  return { docs, postings: groupByTerm(text.vocabulary, termOf.subarray(0, count), docOf, weightOf, titledOf) };
}

/** Counting sort by term (documents stay ascending within a term), terms then laid out alphabetically. */
function groupByTerm(byId: string[], termOf: Uint32Array, docOf: Uint32Array, weightOf: Float32Array, titledOf: Uint8Array): Postings {
  const order = byId.map((_, id) => id).sort((a, b) => (byId[a]! < byId[b]! ? -1 : 1));
  const rank = new Uint32Array(byId.length);
  order.forEach((id, position) => (rank[id] = position));
  const offsets = new Uint32Array(byId.length + 1);
  for (const id of termOf) offsets[rank[id]! + 1]!++;
  for (let i = 0; i < byId.length; i++) offsets[i + 1]! += offsets[i]!;
  const next = offsets.slice(0, byId.length);
  const postingDocs = new Uint32Array(termOf.length);
  const postingWeights = new Float32Array(termOf.length);
  const bits = titledIn(postingWeights);
  termOf.forEach((id, i) => {
    const at = next[rank[id]!]!++;
    postingDocs[at] = docOf[i]!;
    postingWeights[at] = weightOf[i]!;
    bits[at] = (bits[at]! & ~1) | titledOf[i]!;
  });
  return { terms: order.map((id) => byId[id]!), offsets, postingDocs, postingWeights };
}

function docTable(courses: CourseSource[], text: CatalogText): IndexedDocs {
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
    ...prerequisiteEdges(courses),
    traits: Uint8Array.from(courses.map((c) => traitsOf(c.title))),
    subjectNames: deriveSubjectNames(courses, text),
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

function grow<T extends Uint32Array | Float32Array | Uint8Array>(array: T): T {
  const bigger = new (array.constructor as new (length: number) => T)(array.length * 2);
  bigger.set(array);
  return bigger;
}
