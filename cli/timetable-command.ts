import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { CliError, withConnection } from './connection.js';
import { paint, printJson, table, withProgress, type Io } from './output.js';

const TIMETABLE_USAGE = 'tn timetable [--term 2026-spring] --institution sfu CMPT 225 MACM 201 [--not-before 10:00] [--not-after 17:00] [--days-off Fr] [--rank compact|fewest-days|late-start] [--option N] [--ics file.ics]';

interface Meeting {
  course: string;
  section: string;
  kind: string;
  day: string;
  start: string;
  end: string;
  campus?: string;
  room?: string;
}
interface Combination {
  rank: number;
  sections: { course: string; section: string; kind: string; sameTime: string[] }[];
  meetings: Meeting[];
  week: { days: number; gapMinutes: number; campusChanges: number; rushedCampusChanges: number };
  ics?: string;
}
interface Timetable {
  term: string;
  items: Combination[];
  totalCount?: number;
  hasMore: boolean;
  complete: boolean;
  courses: { course: string; status: string; message: string }[];
  conflicts: { message: string }[];
}

const CODE = /(?:([A-Za-z][\w-]*):\s*)?([A-Za-z]{2,5}(?:-[A-Za-z]{1,3})?)\s*-?\s*(\d{3,4}[A-Za-z]{0,2})\b/g;

/** `CMPT 225 MACM 201`, `"sfu:CMPT 225"`, `cmpt225,macm201`: course codes however they were typed, quoted or not. */
export function coursesOf(words: string[]): string[] {
  const text = words.join(' ');
  const codes = [...text.matchAll(CODE)].map(([, school, subject, number]) => `${school ? `${school.toLowerCase()}:` : ''}${subject!.toUpperCase()} ${number!.toUpperCase()}`);
  const rest = text.replace(CODE, ' ').replace(/[\s,;]+/g, ' ').trim();
  if (rest) throw new CliError(`"${rest}" is not a course code like CMPT 225.`, 'USAGE', 2);
  return codes;
}

const codeOf = (ref: string) => ref.slice(ref.indexOf(':') + 1);
const DAYS = ['Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa', 'Su'];

/** `tn timetable …`: the combination asked for (best first) as a week, the courses in the way named; `--ics` saves it as a calendar. */
export async function timetable(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      term: { type: 'string' },
      institution: { type: 'string' },
      'not-before': { type: 'string' },
      'not-after': { type: 'string' },
      'days-off': { type: 'string' },
      rank: { type: 'string' },
      option: { type: 'string' },
      ics: { type: 'string' },
      json: { type: 'boolean' },
    },
  });
  const courses = coursesOf(positionals);
  if (!courses.length) throw new CliError(`Name the courses, e.g. ${TIMETABLE_USAGE}`, 'USAGE', 2);
  if (!values.institution && courses.some((c) => !c.includes(':'))) throw new CliError('Add --institution (e.g. --institution sfu) or write sfu:CMPT 225.', 'USAGE', 2);
  const option = values.option === undefined ? 1 : Number(values.option);
  if (!Number.isInteger(option) || option < 1 || option > 100) throw new CliError('--option is a number from 1 to 100.', 'USAGE', 2);
  const daysOff = values['days-off']?.split(',').map((d) => d.trim().slice(0, 2).replace(/^./, (c) => c.toUpperCase())).filter(Boolean);
  const input = {
    courses,
    ...(values.term ? { term: values.term } : {}),
    ...(values.institution ? { institution: values.institution } : {}),
    ...(values['not-before'] ? { notBefore: values['not-before'] } : {}),
    ...(values['not-after'] ? { notAfter: values['not-after'] } : {}),
    ...(daysOff?.length ? { daysOff } : {}),
    ...(values.rank ? { rank: values.rank } : {}),
  };
  return withConnection(io.env, async (connection) => {
    const result = await withProgress(io, 'Building timetables…', () => connection.call<Timetable>('tn_course_timetable', { ...input, limit: option }));
    if (values.json && !values.ics) return printJson(io, result), 0;
    const chosen = result.items[option - 1];
    for (const course of result.courses.filter((c) => c.status !== 'placed')) io.err(paint(io, 'yellow', `${course.message}\n`));
    for (const conflict of result.conflicts) io.err(paint(io, 'red', `${conflict.message}\n`));
    if (!chosen) {
      if (result.items.length) throw new CliError(`Only ${result.items.length} timetables fit; --option ${option} is past the last.`, 'USAGE', 2);
      io.err('No timetable fits these courses.\n');
      return 1;
    }
    if (values.ics) {
      // Exactly this combination: its sections kept, as an .ics file.
      const sections = chosen.sections.map((s) => `${s.course} ${s.section}`);
      const one = await connection.call<Timetable>('tn_course_timetable', { ...input, sections, ics: true, limit: 1 });
      const ics = one.items[0]!.ics!;
      if (values.ics === '-') io.out(ics);
      else await writeFile(values.ics, ics);
      if (values.ics !== '-') io.err(`Saved ${values.ics}: ${ics.match(/BEGIN:VEVENT/g)?.length ?? 0} weekly events, ${result.term}.\n`);
      if (values.json) printJson(io, one);
      return 0;
    }
    const total = result.totalCount ?? result.items.length;
    io.out(`${paint(io, 'bold', `Timetable ${option} of ${total}${result.complete ? '' : '+'}`)}, ${result.term}: ${chosen.week.days} days on campus, ${chosen.week.gapMinutes} min between classes${chosen.week.rushedCampusChanges ? paint(io, 'yellow', `, ${chosen.week.rushedCampusChanges} campus change(s) with under an hour to travel`) : ''}\n`);
    const byDay = [...chosen.meetings].sort((a, b) => DAYS.indexOf(a.day) - DAYS.indexOf(b.day) || a.start.localeCompare(b.start));
    io.out(table(io, ['day', 'time', 'course', 'section', 'type', 'where'], byDay.map((m, i) => [i && byDay[i - 1]!.day === m.day ? '' : m.day, `${m.start}-${m.end}`, codeOf(m.course), m.section, m.kind, [m.room, m.campus].filter(Boolean).join(' ')])));
    const alternatives = chosen.sections.filter((s) => s.sameTime.length).map((s) => `${codeOf(s.course)} ${s.section} or ${s.sameTime.join(', ')}`);
    if (alternatives.length) io.out(paint(io, 'dim', `Same times: ${alternatives.join('; ')}\n`));
    if (option < total) io.out(paint(io, 'dim', `Next: --option ${option + 1}; save it with --ics timetable.ics\n`));
    return 0;
  });
}
