import { parseArgs } from 'node:util';
import { CliError, withConnection } from './connection.js';
import { readCourseCodes } from './course-codes.js';
import { paint, printJson, table, withProgress, type Io } from './output.js';

function required(text: string, example: string): string {
  if (!text.trim()) throw new CliError(`Missing argument, e.g. ${example}`, 'USAGE', 2);
  return text.trim();
}

interface Hit {
  ref: string;
  title: string | null;
  credits: number | null;
  score: number;
}

/** `tn search words… [--institution sfu] [--subject CMPT] [--level 2] [--term 2026-spring] [--limit 10] [--json]`. */
export async function search(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { institution: { type: 'string' }, subject: { type: 'string' }, level: { type: 'string' }, term: { type: 'string' }, limit: { type: 'string' }, json: { type: 'boolean' } },
  });
  const query = required(positionals.join(' '), 'tn search "data structures" --institution sfu');
  const input = {
    query,
    ...(values.institution ? { institution: values.institution } : {}),
    ...(values.subject ? { subject: values.subject } : {}),
    ...(values.level ? { level: Number(values.level) } : {}),
    ...(values.term ? { term: values.term } : {}),
    limit: values.limit ? Number(values.limit) : 10,
  };
  const page = await withConnection(io.env, (c) => withProgress(io, 'Searching…', () => c.call<{ items: Hit[]; nextCursor?: string }>('tn_course_search', input)));
  if (values.json) return printJson(io, page), 0;
  if (!page.items.length) return io.out(`No courses match "${query}".\n`), 0;
  io.out(table(io, ['course', 'title', 'credits', 'score'], page.items.map((h) => [h.ref, h.title, h.credits, h.score.toFixed(2)])));
  if (page.nextCursor) io.out(paint(io, 'dim', 'More results: raise --limit.\n'));
  return 0;
}

interface CourseView {
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

interface Grades {
  summary: { sections: number; terms: string[]; enrolled: number; weightedAverage: number | null };
  trend?: { byTerm: { term: string; sections: number; enrolled: number; average: number | null; median: number | null }[]; direction: string; explanation: string };
}

interface Section {
  term: string;
  section: string;
  instructors: string[];
  meetings: { type: string; days: string[]; startTime?: string; endTime?: string }[];
  seats?: { available: number | null; status: string };
}

interface Requirement {
  type: 'course' | 'condition' | 'unparsed' | 'all' | 'any';
  code?: string;
  minGrade?: string;
  text?: string;
  count?: number;
  children?: Requirement[];
}

interface PrerequisiteCheck {
  check: { satisfied: boolean | 'unknown'; missing: Requirement[]; unmetConditions: string[]; explanation: string[] } | null;
}

/**
 * `tn course sfu:CMPT 225 [--term 2026-spring] [--done CMPT 125 B MACM 101 …] [--json]`: the course,
 * its grades across terms, its sections in a term (the newest by default), and with --done the
 * prerequisite check against the courses given (codes unquoted, each optionally followed by a grade).
 */
export async function course(args: string[], io: Io): Promise<number> {
  const { rest, done } = splitDone(args);
  const { values, positionals } = parseArgs({ args: rest, allowPositionals: true, options: { json: { type: 'boolean' }, term: { type: 'string' } } });
  const ref = courseRef(required(positionals.join(' '), 'tn course sfu:CMPT 225'));
  const completed = done ? readCourseCodes(done, { grades: true, example: 'CMPT 125 B MACM 101' }) : undefined;
  if (done && !completed!.length) throw new CliError('--done needs the courses you have completed, e.g. --done CMPT 125 B MACM 101', 'USAGE', 2);
  const found = await withConnection(io.env, (c) =>
    withProgress(io, 'Loading…', async () => {
      const view = await c.call<CourseView>('tn_course_get', { course: ref });
      const term = values.term ?? view.sectionTerms[0];
      const optional = <T>(work: Promise<T>) => work.then((value) => ({ value }), (error: unknown) => ({ error: error instanceof Error ? error.message : String(error) }));
      const [grades, sections, prerequisites] = await Promise.all([
        view.gradeTerms.length ? optional(c.call<Grades>('tn_course_grades', { course: view.ref })) : undefined,
        term ? optional(c.call<{ items: Section[]; totalCount?: number }>('tn_course_section_list', { course: view.ref, term, limit: 50 })) : undefined,
        completed ? optional(c.call<PrerequisiteCheck>('tn_course_prereqs', { course: view.ref, completed: completed.map(({ code, grade }) => ({ course: code, ...(grade ? { grade } : {}) })) })) : undefined,
      ]);
      return { view, term, grades, sections, prerequisites };
    }),
  );
  const { view, term, grades, sections, prerequisites } = found;
  if (values.json) {
    const value = <T>(part: { value: T } | { error: string } | undefined) => (part && 'value' in part ? part.value : undefined);
    return printJson(io, { ...view, grades: value(grades), sections: value(sections)?.items, prerequisiteCheck: value(prerequisites)?.check }), 0;
  }
  const rows: [string, string | number | null][] = [
    ['course', view.ref],
    ['title', view.title],
    ['credits', view.credits],
    ['prerequisites', view.prerequisitesText],
    ['corequisites', view.corequisitesText],
    ['designation', view.designation],
    ['offered', view.offeredTerms.slice(0, 6).join(', ') || null],
  ];
  io.out(table(io, ['field', 'value'], rows.filter(([, v]) => v !== null && v !== ''), 100));
  if (view.description) io.out(`\n${view.description}\n`);
  if (prerequisites) io.out(`\n${prerequisiteVerdict(io, completed!, prerequisites)}`);
  else if (view.prerequisitesText) io.out(paint(io, 'dim', `\nCheck the prerequisites: tn course ${view.ref} --done <courses you completed, e.g. CMPT 125 B MACM 101>\n`));
  if (grades) io.out(`\n${gradesText(io, grades)}`);
  if (sections && term) io.out(`\n${sectionsText(io, view, term, sections)}`);
  return 0;
}

/** Everything after --done (or --completed) up to the next option is the list of completed courses, unquoted. */
function splitDone(args: string[]): { rest: string[]; done?: string[] } {
  const at = args.findIndex((arg) => arg === '--done' || arg === '--completed');
  if (at < 0) return { rest: args };
  let end = at + 1;
  while (end < args.length && !args[end]!.startsWith('--')) end++;
  return { rest: [...args.slice(0, at), ...args.slice(end)], done: args.slice(at + 1, end) };
}

/** "sfu:CMPT 225", "sfu CMPT 225" and "sfu cmpt225" all name one course. */
function courseRef(typed: string): string {
  const spaced = /^([a-z][a-z-]*)\s+(\S.*)$/i.exec(typed);
  return !typed.includes(':') && spaced ? `${spaced[1]}:${spaced[2]}` : typed;
}

function prerequisiteVerdict(io: Io, completed: { code: string; grade?: string }[], part: { value: PrerequisiteCheck } | { error: string }): string {
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

function gradesText(io: Io, part: { value: Grades } | { error: string }): string {
  if ('error' in part) return paint(io, 'yellow', `Grades could not be read (${part.error}).\n`);
  const { summary, trend } = part.value;
  const average = summary.weightedAverage === null ? 'no average published' : `average ${summary.weightedAverage.toFixed(1)}`;
  const head = `${paint(io, 'bold', 'Grades')}: ${average} over ${summary.sections} section${summary.sections === 1 ? '' : 's'}, ${summary.enrolled} students`;
  if (!trend?.byTerm.length) return `${head}.\n`;
  const rows = trend.byTerm.map((t) => [t.term, t.sections, t.enrolled, t.average === null ? null : t.average.toFixed(1), t.median === null ? null : t.median.toFixed(1)]);
  return `${head}; ${trend.explanation}\n${table(io, ['term', 'sections', 'students', 'average', 'median'], rows)}`;
}

function sectionsText(io: Io, view: CourseView, term: string, part: { value: { items: Section[]; totalCount?: number } } | { error: string }): string {
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

interface Match {
  ruleId: string;
  usedCourses: string[];
  missingCourses: string[];
  targets: { text?: string; kind?: string }[];
  targetCredits: number | null;
  confidence: number;
  condition: string | null;
}

interface Resolved {
  sourceInstitution: string;
  targetInstitution: string;
  asOfDate: string;
  exactMatches: Match[];
  partialMatches: Match[];
  conditionalMatches?: Match[];
  nearMisses: { course: string; reason: string }[];
  plan: { totalCredits: number; ruleIds: string[] };
}

/** `tn transfer --from langara --to sfu CPSC 1160 CPSC 1181 [--as-of YYYY-MM-DD] [--json]` (codes quoted or not). */
export async function transfer(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { from: { type: 'string' }, to: { type: 'string' }, 'as-of': { type: 'string' }, json: { type: 'boolean' } },
  });
  if (!values.from || !values.to || !positionals.length) throw new CliError('Usage: tn transfer --from langara --to sfu CPSC 1160 CPSC 1181', 'USAGE', 2);
  const courses = readCourseCodes(positionals, { example: 'CPSC 1150 MATH 1171' }).map((c) => c.code);
  const input = { sourceInstitution: values.from, targetInstitution: values.to, sourceCourses: [...new Set(courses)], ...(values['as-of'] ? { asOfDate: values['as-of'] } : {}) };
  const result = await withConnection(io.env, (c) => withProgress(io, 'Resolving transfer credit…', () => c.call<Resolved>('tn_transfer_resolve', input)));
  if (values.json) return printJson(io, result), 0;
  const kinds: [string, Match[]][] = [
    ['exact', result.exactMatches],
    ['partial', result.partialMatches],
    ['conditional', result.conditionalMatches ?? []],
  ];
  const rows = kinds.flatMap(([kind, matches]) =>
    matches.map((m) => [
      kind,
      m.usedCourses.join(' + '),
      m.targets.map((t) => t.text ?? t.kind).join(', '),
      m.targetCredits,
      m.missingCourses.length ? `missing ${m.missingCourses.join(', ')}` : (m.condition ?? ''),
      m.confidence.toFixed(2),
    ]),
  );
  io.out(`${paint(io, 'bold', `${result.sourceInstitution} → ${result.targetInstitution}`)} (rules in force ${result.asOfDate})\n`);
  if (rows.length) io.out(table(io, ['match', 'courses', 'earns', 'credits', 'note', 'confidence'], rows));
  else io.out('No transfer rule covers these courses.\n');
  for (const miss of result.nearMisses) io.out(paint(io, 'yellow', `${miss.course}: ${miss.reason}\n`));
  io.out(`Best plan: ${result.plan.totalCredits} credits from ${result.plan.ruleIds.length} rule${result.plan.ruleIds.length === 1 ? '' : 's'}.\n`);
  return 0;
}
