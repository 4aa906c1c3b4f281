/**
 * "Leads to": which courses of the same institution name a course in their prerequisites or
 * corequisites. Read from the requisite texts of the whole catalogue when its search index is built,
 * by the codes each text names (a bare number takes the subject named before it in its sentence:
 * "BISC 101 and 102"); sentences that recommend a course or exclude credit for it are not
 * requirements and are skipped. Only codes that are courses of that institution count.
 */

export interface RequisiteText {
  institution: string;
  code: string;
  title: string | null;
  prerequisitesText?: string | null;
  corequisitesText?: string | null;
}

/** A course that requires the one asked about: its code and title. */
export type Requirer = [code: string, title: string | null];

/** Per institution, per course code: the courses that name it, by code. */
export type RequiredBy = Map<string, Record<string, Requirer[]>>;

// "300-level", "120 credits", "2.50" and percentages are numbers, not courses.
const CODE_OR_NUMBER = /\b(?:([A-Z]{2,5})(?:_[A-Z])?\s?(\d{3,4}[A-Z]?)|(?<![.\d])(\d{3,4}[A-Z]?))\b(?![-.]?\d|\s*-?\s*level|\s*(?:credits?|units?|hours?|%))/g;
/** Sentences that name a course without requiring it. */
const NOT_A_REQUIREMENT = /recommend|credit for|may not|not open|cannot (be taken|take|receive)|excluded|exclusion|equivalen(t|cy) (course|credit)/i;

/** The course codes a requisite text requires, in order, each once. */
export function requiredCodes(text: string): string[] {
  const codes: string[] = [];
  for (const sentence of text.split(/(?<=[.;])\s+|\n+/)) {
    if (NOT_A_REQUIREMENT.test(sentence)) continue;
    let subject: string | undefined;
    for (const match of sentence.matchAll(CODE_OR_NUMBER)) {
      if (match[1]) subject = match[1];
      const number = match[2] ?? match[3];
      if (subject && number) codes.push(`${subject} ${number}`);
    }
  }
  return [...new Set(codes)];
}

export function requiredByOf(courses: RequisiteText[]): RequiredBy {
  const known = new Set(courses.map((c) => `${c.institution}:${c.code}`));
  const graph: RequiredBy = new Map();
  for (const course of courses) {
    const text = [course.prerequisitesText, course.corequisitesText].filter(Boolean).join('\n');
    if (!text) continue;
    for (const code of requiredCodes(text)) {
      if (code === course.code || !known.has(`${course.institution}:${code}`)) continue;
      const byCode = graph.get(course.institution) ?? graph.set(course.institution, {}).get(course.institution)!;
      (byCode[code] ??= []).push([course.code, course.title]);
    }
  }
  for (const byCode of graph.values()) for (const list of Object.values(byCode)) list.sort((a, b) => a[0].localeCompare(b[0], 'en', { numeric: true }));
  return graph;
}
