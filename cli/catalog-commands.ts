import { parseArgs } from 'node:util';
import { CliError, withConnection } from './connection.js';
import { readCourseCodes } from './course-codes.js';
import { gradesText, prerequisiteVerdict, sectionsText, type CourseView, type Grades, type PrerequisiteCheck, type Section } from './course-details.js';
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
