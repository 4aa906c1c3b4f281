import { course, search } from './catalog-commands.js';
import type { Env } from './config.js';
import { CliError } from './connection.js';
import { login, logout } from './login.js';
import { paint, processIo, type Io } from './output.js';
import { ask, cancel, draft, end, exportSession, history, importSession, sessions } from './session-commands.js';
import { sync } from './sync-daemon.js';
import { timetable } from './timetable-command.js';
import { compare, transfer } from './transfer-commands.js';

export const STUDENT_USAGE = `Student commands (TN_URL, default http://127.0.0.1:8787; TN_TOKEN or tn login):
  tn login [--url URL] [--no-browser]         sign in (OAuth, browser); --token-stdin keeps a token instead; tn logout
  tn ask [--session ID] [--course REF] "message"   ask the tutor; the answer streams to stdout
  tn sessions [--limit N] [--all]             your sessions from every device (* the current one)
  tn history [ID]                             a session's transcript
  tn draft [--session ID] "text"              save a draft without sending it
  tn cancel [--session ID] [clientEventId…]   discard pending drafts
  tn export [ID] > file.json                  a portable snapshot
  tn import file.json                         restore a snapshot
  tn end [ID] [--reason text]                 end a session
  tn sync [--watch] [--session ID]            print other devices' messages, mirror sessions to Markdown
  tn search words… [--institution sfu] [--term 2026-spring]  search the course catalog
  tn course sfu:CMPT 225 [--term T] [--done CMPT 125 B MACM 101]   a course: grades, sections, prerequisite check
  tn transfer --from langara --to sfu CPSC 1160 CPSC 1181   transfer credit [--completed-on CPSC 1160=2019-12] [--program P]
  tn compare --from langara CPSC 1150 MATH 1171    every receiver, ranked on one credit scale
  tn timetable --term 2026-spring --institution sfu CMPT 225 MACM 201 [--not-before 10:00] [--days-off Fr] [--option N] [--ics file.ics]
                                              a week that fits; --ics saves it for a calendar
Most commands take --json for the tool's output as JSON.`;

type Command = (args: string[], io: Io) => Promise<number>;

export const STUDENT_COMMANDS: Record<string, Command> = {
  login,
  logout,
  ask,
  sessions,
  history,
  draft,
  cancel,
  export: exportSession,
  import: importSession,
  end,
  sync,
  search,
  course,
  transfer,
  compare,
  timetable,
};

/** Every command tn knows, the operator ones included, for "did you mean". */
const ALL_COMMANDS = [...Object.keys(STUDENT_COMMANDS), 'token', 'plan', 'help'];

/** One line naming the command tn does not know, the nearest it does, and where the list is. */
export function unknownCommand(name: string): string {
  const nearest = ALL_COMMANDS.map((known) => ({ known, distance: editDistance(name.toLowerCase(), known) }))
    .filter(({ known, distance }) => distance <= Math.max(1, Math.floor(known.length / 3)) || known.startsWith(name.toLowerCase()) || name.toLowerCase().startsWith(known))
    .sort((a, b) => a.distance - b.distance)[0];
  return `tn: unknown command "${name}".${nearest ? ` Did you mean "tn ${nearest.known}"?` : ''} Run tn help for the commands.\n`;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)));
    previous = current;
  }
  return previous[b.length]!;
}

/** Runs a student command; every failure is one line on stderr (code and message) and a non-zero exit code. */
export async function runStudentCli(argv: string[], env: Env = process.env, io: Io = processIo(env)): Promise<number> {
  const [name, ...rest] = argv;
  const command = name && Object.hasOwn(STUDENT_COMMANDS, name) ? STUDENT_COMMANDS[name] : undefined;
  if (!command) {
    io.err(name ? unknownCommand(name) : `${STUDENT_USAGE}\n`);
    return 2;
  }
  try {
    return await command(rest, io);
  } catch (error) {
    if (error instanceof CliError) {
      io.err(`${paint(io, 'red', error.code === 'USAGE' ? 'usage' : error.code)}: ${error.message}\n`);
      return error.exitCode;
    }
    if ((error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      io.err(`usage: ${(error as Error).message}\nRun tn help for the commands.\n`);
      return 2;
    }
    io.err(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}
