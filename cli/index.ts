import { compare, course, search, transfer } from './catalog-commands.js';
import type { Env } from './config.js';
import { CliError } from './connection.js';
import { login, logout } from './login.js';
import { paint, processIo, type Io } from './output.js';
import { ask, cancel, draft, end, exportSession, history, importSession, sessions } from './session-commands.js';
import { sync } from './sync-daemon.js';
import { timetable } from './timetable-command.js';

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
  tn course sfu:CMPT 225                      one course
  tn transfer --from langara --to sfu "CPSC 1160" "CPSC 1181"   transfer credit [--completed-on "CPSC 1160=2019-12"] [--program P]
  tn compare --from langara "CPSC 1150" "MATH 1171"    every receiver, ranked on one credit scale
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

/** Runs a student command; every failure is one line on stderr (code and message) and a non-zero exit code. */
export async function runStudentCli(argv: string[], env: Env = process.env, io: Io = processIo(env)): Promise<number> {
  const [name, ...rest] = argv;
  const command = name ? STUDENT_COMMANDS[name] : undefined;
  if (!command) {
    io.err(`${STUDENT_USAGE}\n`);
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
