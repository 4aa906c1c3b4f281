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

export interface Requirement {
  type: 'course' | 'condition' | 'unparsed' | 'all' | 'any';
  code?: string;
  minGrade?: string;
  text?: string;
  count?: number;
  children?: Requirement[];
}

export interface PrerequisiteCheck {
  check: { satisfied: boolean | 'unknown'; missing: Requirement[]; unmetConditions: string[]; explanation: string[] } | null;
}

export function prerequisiteVerdict(io: Io, completed: { code: string; grade?: string }[], part: { value: PrerequisiteCheck } | { error: string }): string {
  const given = completed.map((c) => (c.grade ? `${c.code} ${c.grade}` : c.code)).join(', ');
  if ('error' in part) return paint(io, 'yellow', `Prerequisites could not be checked (${part.error}).\n`);
  const check = part.value.check;
  if (!check) return `Prerequisites with ${given}: nothing to check.\n`;
  if (check.satisfied === true) return `${paint(io, 'green', 'Prerequisites met')} with ${given}.\n`;
  const missing = check.missing.map(requirementText);
  if (check.satisfied === false) return `${paint(io, 'red', 'Prerequisites not met')} with ${given}. Still needed:\n${missing.map((m) => `  - ${m}\n`).join('')}`;
  // Unknown with nothing missing: a minimum grade could not be compared; the server's lines say which.
  const open = [...missing, ...check.unmetConditions];
  const reasons = open.length ? open : check.explanation.slice(1).filter((line) => !/: completed\.$|^\S+ \S+: .* meets /.test(line));
  const hint = completed.some((c) => !c.grade) ? paint(io, 'dim', `Add a grade after each course to check minimum grades, e.g. --done ${completed[0]!.code} B\n`) : '';
  return `${paint(io, 'yellow', 'Prerequisites not confirmed')} with ${given}:\n${reasons.map((m) => `  - ${m}\n`).join('')}${hint}`;
}

function requirementText(node: Requirement): string {
  if (node.type === 'course') return `${node.code}${node.minGrade ? ` (${node.minGrade} or better)` : ''}`;
  if (node.type === 'condition' || node.type === 'unparsed') return node.text ?? '';
  // A group inside a list is bracketed, so "one of A, B or (C and D)" reads one way only.
  const children = (node.children ?? []).map((child) => (child.children?.length ? `(${requirementText(child)})` : requirementText(child)));
  if (node.type === 'all') return children.join(' and ');
  const count = node.count ?? 1;
  return `${count === 1 ? 'one' : count} of ${children.join(', ')}`;
}

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
