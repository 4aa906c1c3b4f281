/** How `tn course` prints the parts of a course beyond its catalog entry: grades, sections, the prerequisite check. */
import { paint, table, type Io } from './output.js';

export interface CourseView {
  ref: string;
  title: string | null;
  credits: number | null;
  description: string | null;
  prerequisitesText: string | null;
  corequisitesText: string | null;
  designation: string | null;
  offeredTerms: string[];
  sectionTerms: string[];
  gradeTerms: string[];
}

export interface Grades {
  summary: { sections: number; terms: string[]; enrolled: number; weightedAverage: number | null };
  trend?: { byTerm: { term: string; sections: number; enrolled: number; average: number | null; median: number | null }[]; direction: string; explanation: string };
}

export interface Section {
  term: string;
  section: string;
  instructors: string[];
  meetings: { type: string; days: string[]; startTime?: string; endTime?: string }[];
  seats?: { available: number | null; status: string };
}

export type PrerequisiteStatus = 'met' | 'met-if-grades' | 'not-met' | 'cannot-check' | 'not-known';

/** The parts of `tn_course_prereqs`' check the CLI prints: the server's verdict and its lists, never re-derived here. */
export interface PrerequisiteCheck {
  check: {
    satisfied: boolean | 'unknown';
    explanation: string[];
    status?: PrerequisiteStatus;
    verdict?: string;
    stillNeeded?: { text: string; courses: string[] }[];
    gradesToConfirm?: { course: string; minGrade: string }[];
    cannotCheck?: string[];
  } | null;
}

const STATUS_STYLE = { met: 'green', 'met-if-grades': 'yellow', 'not-met': 'red', 'cannot-check': 'yellow', 'not-known': 'yellow' } as const;

/**
 * "Prerequisites (with CMPT 125, MACM 101): Met if your grades are at least C- in CMPT 125 and MACM 101."
 * then, each under its own heading, what is still needed, the grades that decide it and what cannot be
 * checked here, as `tn_course_prereqs` words them (the web page shows the same answer).
 */
export function prerequisiteVerdict(io: Io, completed: { code: string; grade?: string }[], part: { value: PrerequisiteCheck } | { error: string }): string {
  const given = completed.map((c) => (c.grade ? `${c.code} ${c.grade}` : c.code)).join(', ');
  if ('error' in part) return paint(io, 'yellow', `Prerequisites could not be checked (${part.error}).\n`);
  const check = part.value.check;
  if (!check) return `Prerequisites with ${given}: nothing to check.\n`;
  // A server from before the verdict answers with its explanation lines only.
  const status: PrerequisiteStatus = check.status ?? (check.satisfied === true ? 'met' : check.satisfied === false ? 'not-met' : 'cannot-check');
  const verdict = check.verdict ?? check.explanation[0] ?? '';
  const list = (heading: string, lines: string[]) => (lines.length ? `${heading}:\n${lines.map((line) => `  - ${line}\n`).join('')}` : '');
  const grades = check.gradesToConfirm ?? [];
  const ungraded = completed.find((c) => !c.grade && grades.some((g) => sameCode(g.course, c.code)));
  const hint = ungraded ? paint(io, 'dim', `Add a grade after each course to confirm, e.g. --done ${ungraded.code} B\n`) : '';
  return [
    `${paint(io, STATUS_STYLE[status], 'Prerequisites')} (with ${given}): ${verdict}\n`,
    list('Still needed', (check.stillNeeded ?? []).map((n) => n.text)),
    list('Grades to confirm', grades.map((g) => `${g.course}: ${g.minGrade} or better`)),
    list('Cannot be checked here', check.cannotCheck ?? []),
    hint,
  ].join('');
}

const sameCode = (a: string, b: string) => a.replace(/\s+/g, '').toUpperCase() === b.replace(/\s+/g, '').toUpperCase();

export function gradesText(io: Io, part: { value: Grades } | { error: string }): string {
  if ('error' in part) return paint(io, 'yellow', `Grades could not be read (${part.error}).\n`);
  const { summary, trend } = part.value;
  const average = summary.weightedAverage === null ? 'no average published' : `average ${summary.weightedAverage.toFixed(1)}`;
  const head = `${paint(io, 'bold', 'Grades')}: ${average} over ${summary.sections} section${summary.sections === 1 ? '' : 's'}, ${summary.enrolled} students`;
  if (!trend?.byTerm.length) return `${head}.\n`;
  const rows = trend.byTerm.map((t) => [t.term, t.sections, t.enrolled, t.average === null ? null : t.average.toFixed(1), t.median === null ? null : t.median.toFixed(1)]);
  return `${head}; ${trend.explanation}\n${table(io, ['term', 'sections', 'students', 'average', 'median'], rows)}`;
}

export function sectionsText(io: Io, view: CourseView, term: string, part: { value: { items: Section[]; totalCount?: number } } | { error: string }): string {
  if ('error' in part) return paint(io, 'yellow', `Sections in ${term} could not be read (${part.error}).\n`);
  const { items } = part.value;
  const others = view.sectionTerms.filter((t) => t !== term);
  const head = `${paint(io, 'bold', `Sections, ${term}`)}${others.length ? paint(io, 'dim', ` (also: ${others.slice(0, 4).join(', ')}; --term to choose)`) : ''}`;
  if (!items.length) return `${head}: none listed.\n`;
  const rows = items.flatMap((section) => {
    const meetings = section.meetings.length ? section.meetings : [{ type: '', days: [] as string[] }];
    return meetings.map((meeting, i) => [
      i === 0 ? section.section : '',
      meeting.type,
      meeting.days.join(' ') || null,
      meeting.startTime && meeting.endTime ? `${meeting.startTime}-${meeting.endTime}` : null,
      i === 0 ? section.instructors.join(', ') || null : '',
      i === 0 ? seatsText(section.seats) : '',
    ]);
  });
  return `${head}\n${table(io, ['section', 'type', 'days', 'time', 'instructor', 'seats'], rows, 40)}`;
}

function seatsText(seats: Section['seats']): string | null {
  if (!seats) return null;
  return seats.available === null ? seats.status : `${seats.available} ${seats.status === 'open' ? 'open' : `(${seats.status})`}`;
}
