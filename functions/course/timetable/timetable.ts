import type { Section } from '../../catalog/catalog-model.js';
import { termLabel, termOrder } from '../../catalog/terms.js';
import { DomainError } from '../../platform/domain-error.js';
import { courseOptions, type CourseOptions } from './section-options.js';
import { solve, type Combination, type Conflict, type Ranking } from './solver.js';
import { termSpan, type TermSpan } from './term-span.js';
import { clockOf, DAYS, minutesOf, slotsOf, type Day } from './week.js';

export interface TimetableCourse {
  ref: string;
  code: string;
  title: string | null;
  /** The course's sections in every term. */
  sections: Section[];
}

export interface Preferences {
  /** "HH:MM": no class starts before. */
  notBefore?: string;
  /** "HH:MM": no class ends after. */
  notAfter?: string;
  daysOff?: Day[];
  ranking?: Ranking;
}

/** A section the student wants kept: `index` is its place in the request, for the error that names it. */
export interface Pin {
  index: number;
  course: string;
  section: string;
}

type CourseStatusKind = 'placed' | 'no-sections' | 'no-fixed-times' | 'no-fit';

interface CourseStatus {
  course: string;
  title: string | null;
  status: CourseStatusKind;
  /** Distinct ways to take the course that fit the preferences (sections at the same times count once). */
  options: number;
  /** Sections with no fixed time, left out of the week (online or arranged). */
  untimed: string[];
  /** Terms in which the course has sections, newest first. */
  termsWithSections: string[];
  message: string;
}

export interface Timetable {
  term: string;
  span: TermSpan;
  courses: CourseStatus[];
  combinations: Combination[];
  complete: boolean;
  conflicts: (Conflict & { message: string })[];
  /** Terms in which any requested course has sections, newest first. */
  availableTerms: string[];
}

const DAY_NAMES: Record<Day, string> = { Mo: 'Mondays', Tu: 'Tuesdays', We: 'Wednesdays', Th: 'Thursdays', Fr: 'Fridays', Sa: 'Saturdays', Su: 'Sundays' };

const termsOf = (sections: Section[]) => [...new Set(sections.map((s) => s.term))].sort((a, b) => termOrder(b) - termOrder(a));

/**
 * The timetables a student can build from these courses in a term: conflict-free combinations of one
 * enrolment per course, best first, or the courses that make none possible. Courses without sections
 * in the term are named and the rest still placed. Without a term, the newest term any course has
 * sections in.
 */
export function buildTimetable(courses: TimetableCourse[], term: string | undefined, preferences: Preferences = {}, pins: Pin[] = []): Timetable {
  const availableTerms = termsOf(courses.flatMap((c) => c.sections));
  const chosenTerm = term ?? availableTerms[0];
  const names = listOf(courses.map((c) => c.code));
  if (!chosenTerm || !availableTerms.includes(chosenTerm)) {
    throw DomainError.notFound(
      chosenTerm ? `No sections of ${names} are known in ${termLabel(chosenTerm)}.` : `No sections of ${names} are known in any term.`,
      availableTerms.length ? [`Terms with sections: ${availableTerms.join(', ')}`] : ['Only SFU and Langara publish sections with meeting times here.'],
    );
  }
  const inTerm = courses.map((course) => course.sections.filter((s) => s.term === chosenTerm));
  checkPins(pins, courses, inTerm);
  const accept = acceptor(preferences);
  const built = courses.map((course, i) => {
    const pinned = new Set(pins.filter((p) => p.course === course.ref).map((p) => p.section));
    return courseOptions(course.ref, inTerm[i]!, (chosen) => accept(chosen) && [...pinned].every((name) => chosen.some((s) => s.section === name)));
  });
  const statuses = courses.map((course, i) => statusOf(course, built[i]!, chosenTerm, preferences, pins));
  const placed = built.filter((_, i) => statuses[i]!.status === 'placed' || statuses[i]!.status === 'no-fixed-times');
  const solution = placed.length ? solve(placed, preferences.ranking ?? 'compact') : { combinations: [], complete: true, conflicts: [] };
  const codeOf = new Map(courses.map((c) => [c.ref, c.code]));
  const restricted = Boolean(preferences.notBefore || preferences.notAfter || preferences.daysOff?.length || pins.length);
  return {
    term: chosenTerm,
    span: termSpan(chosenTerm, inTerm.flat()),
    courses: statuses,
    combinations: solution.combinations,
    complete: solution.complete,
    conflicts: solution.conflicts.map((conflict) => ({ ...conflict, message: conflictMessage(conflict, codeOf, restricted) })),
    availableTerms,
  };
}

function checkPins(pins: Pin[], courses: TimetableCourse[], inTerm: Section[][]): void {
  for (const pin of pins) {
    const at = courses.findIndex((c) => c.ref === pin.course);
    if (at < 0) throw DomainError.invalid(`${pin.course} ${pin.section} is a section of a course not in the list.`, [{ field: `sections.${pin.index}`, message: 'add its course to courses' }]);
    const names = inTerm[at]!.map((s) => s.section);
    if (!names.includes(pin.section)) {
      throw DomainError.invalid(`${courses[at]!.code} has no section ${pin.section} in this term.`, [
        { field: `sections.${pin.index}`, message: names.length ? `sections: ${names.join(', ')}` : 'the course has no sections in this term' },
      ]);
    }
  }
}

/** Preferences are limits on every meeting of every section taken. */
function acceptor(preferences: Preferences): (sections: Section[]) => boolean {
  const notBefore = minutesOf(preferences.notBefore);
  const notAfter = minutesOf(preferences.notAfter);
  const daysOff = new Set(preferences.daysOff ?? []);
  return (sections) =>
    sections.every((section) =>
      section.meetings.flatMap(slotsOf).every((slot) => (notBefore === undefined || slot.start >= notBefore) && (notAfter === undefined || slot.end <= notAfter) && !daysOff.has(slot.day)),
    );
}

function statusOf(course: TimetableCourse, built: CourseOptions, term: string, preferences: Preferences, pins: Pin[]): CourseStatus {
  const termsWithSections = termsOf(course.sections);
  const base = { course: course.ref, title: course.title, options: built.options.length, untimed: built.untimed, termsWithSections };
  if (built.available === 0) {
    const elsewhere = termsWithSections.length ? ` (it has sections in ${listOf(termsWithSections.map(termLabel))})` : '';
    return { ...base, status: 'no-sections', message: `${course.code} has no sections with meeting times in ${termLabel(term)}${elsewhere}.` };
  }
  if (built.options.length === 0) {
    const limits = [
      ...(preferences.notBefore ? [`no classes before ${preferences.notBefore}`] : []),
      ...(preferences.notAfter ? [`none after ${preferences.notAfter}`] : []),
      ...(preferences.daysOff?.length ? [`${listOf([...preferences.daysOff].sort((a, b) => DAYS.indexOf(a) - DAYS.indexOf(b)).map((d) => DAY_NAMES[d]))} off`] : []),
      ...pins.filter((p) => p.course === course.ref).map((p) => `section ${p.section} kept`),
    ];
    return { ...base, status: 'no-fit', message: `No way to take ${course.code} fits ${limits.length ? listOf(limits) : 'these choices'}.` };
  }
  if (built.noFixedTimes) return { ...base, status: 'no-fixed-times', message: `${course.code} has no fixed meeting times in ${termLabel(term)}: it fits any week.` };
  const extra = built.untimed.length ? ` (${listOf(built.untimed)} without fixed times left out)` : '';
  return { ...base, status: 'placed', message: `${course.code}: ${built.options.length} distinct way${built.options.length === 1 ? '' : 's'} to take it${extra}.` };
}

function conflictMessage(conflict: Conflict, codeOf: Map<string, string>, restricted: boolean): string {
  const names = conflict.courses.map((ref) => codeOf.get(ref) ?? ref);
  const example = conflict.clashes[0];
  const at = (side: NonNullable<typeof example>['a']) => `${codeOf.get(side.course) ?? side.course} ${side.section} ${side.day} ${clockOf(side.start)}-${clockOf(side.end)}`;
  const head = names.length === 2 ? `${names[0]} and ${names[1]} always clash` : `${listOf(names)} cannot all fit in one week`;
  return `${head}${restricted ? ' with your choices' : ''}${example ? `: e.g. ${at(example.a)} overlaps ${at(example.b)}` : ''}.`;
}

function listOf(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}
