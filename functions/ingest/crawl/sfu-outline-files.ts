import { termLabel } from '../../catalog/terms.js';
import type { CompactOutline, ListEntry } from './sfu-outlines-api.js';

/**
 * A department's outlines as the files the existing adapters read (`sfu-outlines` and `sfu-sections`,
 * the shapes of the shipped SFU sample): the crawl hands them over exactly as a file run would.
 */

/** An SFU term as the crawl walks it: canonical (`2026-fall`), and the API's year and term values. */
export interface Term {
  term: string;
  year: string;
  value: string;
}

/** One course of a department, with the outline of each of its sections. */
export interface CourseOutlines {
  course: ListEntry;
  outlines: { section: ListEntry; outline: CompactOutline }[];
}
/** A course as the `sfu-outlines` adapter reads it: its first section's outline, and this term's offering. */
export function outlineFile({ course, outlines }: CourseOutlines, term: Term, department: ListEntry) {
  const first = outlines[0]!.outline;
  return {
    dept: first.dept ?? department.text,
    number: first.number ?? course.text,
    title: first.title ?? course.title,
    units: first.units,
    description: first.description,
    notes: first.notes,
    designation: first.designation,
    deliveryMethod: first.deliveryMethod,
    prerequisites: first.prerequisites,
    corequisites: first.corequisites,
    degreeLevel: first.degreeLevel,
    offerings: [{ term: first.term ?? termLabel(term.term), instructors: [...new Set(outlines.flatMap((o) => o.outline.instructors))] }],
  };
}

/** A course's sections as the `sfu-sections` adapter reads them. */
export function sectionsFile({ course, outlines }: CourseOutlines, term: Term, department: ListEntry) {
  const first = outlines[0]!.outline;
  return {
    dept: first.dept ?? department.text,
    number: first.number ?? course.text,
    title: first.title ?? course.title,
    units: first.units,
    term: first.term ?? termLabel(term.term),
    sections: outlines.map(({ section, outline }) => ({
      section: outline.section ?? section.text,
      deliveryMethod: outline.deliveryMethod,
      classNumber: outline.classNumber,
      instructors: outline.instructors.map((name) => ({ name })),
      schedules: outline.schedules,
    })),
  };
}
