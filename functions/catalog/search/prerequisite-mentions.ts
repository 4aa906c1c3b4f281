/** What the count reads of a course: its code and the requisite texts that name other courses. */
export interface RequisiteSource {
  ref: string;
  institution: string;
  prerequisitesText?: string | null;
  corequisitesText?: string | null;
}

/**
 * A subject code and number ("MATH 150", "CPSC_V 110", "cmpt225"), or a bare number that takes the last
 * subject named before it ("MATH 150, 151 or 154", "CPSC 1040 or 1045").
 */
const CODE_OR_NUMBER = /\b(?:([A-Z]{2,5})(?:_[A-Z])?\s?(\d{3,4}[A-Z]?)|(\d{3,4}[A-Z]?))\b/g;

/**
 * How many courses of the same institution name each course in their prerequisites or corequisites:
 * the catalog's own measure of how central a course is (MATH 100 at UBC opens dozens of courses, a
 * special-topics seminar none). Only codes that are courses of that institution count, and each
 * requiring course counts once, so a long list of alternatives weighs what one mention does.
 */
export function countRequiredBy(courses: RequisiteSource[]): Uint16Array {
  const position = new Map<string, number>();
  courses.forEach((course, i) => position.set(course.ref, i));
  const counts = new Uint16Array(courses.length);
  courses.forEach((course) => {
    const text = [course.prerequisitesText, course.corequisitesText].filter(Boolean).join(' ; ');
    if (!text) return;
    const named = new Set<number>();
    for (const code of codesIn(text)) {
      const at = position.get(`${course.institution}:${code}`);
      if (at !== undefined && courses[at]!.ref !== course.ref) named.add(at);
    }
    for (const at of named) if (counts[at]! < 0xffff) counts[at]!++;
  });
  return counts;
}

/**
 * Per course, the courses of its institution its prerequisites name (not its corequisites, which are
 * taken alongside): course i's are ids[offsets[i] .. offsets[i+1]). What a query's matches build on
 * tells which of them comes first (topic-sequence.ts): UBC's MATH 101 names MATH 100.
 */
export function prerequisiteEdges(courses: RequisiteSource[]): { requiresOffsets: Uint32Array; requiresIds: Uint32Array } {
  const position = new Map<string, number>();
  courses.forEach((course, i) => position.set(course.ref, i));
  const offsets = new Uint32Array(courses.length + 1);
  const ids: number[] = [];
  courses.forEach((course, i) => {
    const named = new Set<number>();
    for (const code of course.prerequisitesText ? codesIn(course.prerequisitesText) : []) {
      const at = position.get(`${course.institution}:${code}`);
      if (at !== undefined && at !== i) named.add(at);
    }
    ids.push(...named);
    offsets[i + 1] = ids.length;
  });
  return { requiresOffsets: offsets, requiresIds: Uint32Array.from(ids) };
}

/** Course codes a requisite text names, the subject carried to bare numbers within a sentence. */
export function codesIn(text: string): string[] {
  const codes: string[] = [];
  for (const sentence of text.split(/[.;]\s/)) {
    let subject: string | undefined;
    for (const match of sentence.matchAll(CODE_OR_NUMBER)) {
      if (match[1]) subject = match[1];
      const number = match[2] ?? match[3];
      if (subject && number) codes.push(`${subject} ${number}`);
    }
  }
  return codes;
}
