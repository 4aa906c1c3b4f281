import * as z from 'zod/v4';
import { ProvenanceSchema, type CourseFragment } from './catalog-model.js';

/** Catalogue-like sources describe a course best (the newer UBC calendar before the ~2022 scrape); others add attributes or prerequisite text. */
const SOURCE_PRIORITY = ['sfu-outlines', 'ubc-calendar', 'ubc-catalog', 'uvic-kuali', 'uvic-requisites', 'langara-catalogue', 'langara-prereqs', 'langara-attributes'];

export const CourseViewSchema = z.object({
  ref: z.string().describe('Canonical reference, e.g. "sfu:CMPT 225"'),
  institution: z.string(),
  code: z.string().describe('"SUBJ NUM", e.g. "CMPT 225"'),
  subject: z.string(),
  number: z.string(),
  level: z.number().int().describe('Year level from the course number: 1 for 100-level (or 1000-level at Langara), …'),
  title: z.string().nullable(),
  description: z.string().nullable(),
  credits: z.number().nullable(),
  prerequisitesText: z.string().nullable(),
  corequisitesText: z.string().nullable(),
  notes: z.string().nullable(),
  designation: z.string().nullable(),
  attributes: z.array(z.string()),
  deliveryMethod: z.string().nullable(),
  degreeLevel: z.string().nullable(),
  hours: z.record(z.string(), z.number()).nullable(),
  sources: z.array(ProvenanceSchema).describe('Where each part of this record came from'),
});
export type CourseView = z.infer<typeof CourseViewSchema>;

/** A course number's year level: CMPT 225 → 2, CPSC 1150 → 1, MATH 100A → 1. */
export function levelOf(number: string): number {
  const digits = /^\d+/.exec(number)?.[0] ?? '0';
  return Number(digits[0] ?? 0);
}

/** Merges a course's fragments, the higher-priority source winning each field it has. */
export function mergeFragments(fragments: CourseFragment[]): CourseView {
  const ordered = [...fragments].sort((a, b) => rank(a.provenance.source) - rank(b.provenance.source));
  const first = ordered[0]!;
  const pick = <K extends keyof CourseFragment>(field: K): NonNullable<CourseFragment[K]> | null => {
    for (const fragment of ordered) {
      const value = fragment[field];
      if (value !== undefined && value !== null && value !== '') return value as NonNullable<CourseFragment[K]>;
    }
    return null;
  };
  const [subject, number] = first.code.split(' ') as [string, string];
  return {
    ref: `${first.institution}:${first.code}`,
    institution: first.institution,
    code: first.code,
    subject,
    number,
    level: levelOf(number),
    title: pick('title'),
    description: pick('description'),
    credits: pick('credits'),
    prerequisitesText: pick('prerequisitesText'),
    corequisitesText: pick('corequisitesText'),
    notes: pick('notes'),
    designation: pick('designation'),
    attributes: [...new Set(ordered.flatMap((f) => f.attributes ?? []))],
    deliveryMethod: pick('deliveryMethod'),
    degreeLevel: pick('degreeLevel'),
    hours: pick('hours'),
    sources: ordered.map((f) => f.provenance),
  };
}

function rank(source: string): number {
  const index = SOURCE_PRIORITY.indexOf(source);
  return index < 0 ? SOURCE_PRIORITY.length : index;
}

/** Groups fragments by course and merges each group. */
export function coursesFromFragments(fragments: CourseFragment[]): CourseView[] {
  const byCode = new Map<string, CourseFragment[]>();
  for (const fragment of fragments) {
    const key = `${fragment.institution}:${fragment.code}`;
    const list = byCode.get(key) ?? [];
    list.push(fragment);
    byCode.set(key, list);
  }
  return [...byCode.values()].map(mergeFragments);
}
