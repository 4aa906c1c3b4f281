import { readFile } from 'node:fs/promises';
import type { ToolOutput } from '../functions/mcp/tools/define-tool.js';
import type { cancelPendingContract } from '../functions/session/contracts/cancel-pending.js';
import type { endContract } from '../functions/session/contracts/end.js';
import type { importContract } from '../functions/session/contracts/import.js';
import type { startContract } from '../functions/session/contracts/start.js';
import { parseArgs } from 'node:util';
import { ulid } from 'ulid';
import { deviceId, forgetSession, knownSessions, localDrafts, rememberSession, saveLocalDrafts } from './config.js';
import { CliError, withConnection, type Connection } from './connection.js';
import { paint, printJson, table, withProgress, type Io } from './output.js';
import { formatEvent, type EventView } from './transcript.js';

interface AskOutput {
  sessionId: string;
  response: string;
  status: string;
  clientEventId: string;
  questionSeq: number;
  answerSeq: number | null;
}

function usageError(message: string): CliError {
  return new CliError(message, 'USAGE', 2);
}

function oneMessage(positionals: string[], what: string): string {
  const message = positionals.join(' ').trim();
  if (!message) throw usageError(`Give the ${what} to send, e.g. tn ${what === 'draft' ? 'draft' : 'ask'} "How do for loops work?"`);
  return message;
}

async function startSession(connection: Connection, io: Io, course?: string, topic?: string): Promise<string> {
  const started = await connection.call<ToolOutput<typeof startContract>>('tn_session_start', { ...(course ? { course } : {}), ...(topic ? { topic } : {}) });
  await rememberSession(io.env, started.sessionId, course);
  io.err(paint(io, 'dim', `Started session ${started.sessionId}${course ? ` on ${course}` : ''}.\n`));
  return started.sessionId;
}

/** `tn ask`: the named session, a new one on --course, else the current one (a new one when there is none); the answer streams to stdout. */
export async function ask(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { session: { type: 'string' }, course: { type: 'string' }, topic: { type: 'string' }, json: { type: 'boolean' } },
  });
  const message = oneMessage(positionals, 'message');
  const device = await deviceId(io.env);
  return withConnection(io.env, async (connection) => {
    let sessionId = values.session ?? (values.course ? await startSession(connection, io, values.course, values.topic) : undefined);
    if (sessionId) io.err(`session ${sessionId}\n`);
    const clientEventId = `cli-${ulid()}`;
    let streamed = false;
    const send = () =>
      connection.call<AskOutput>(
        'tn_session_ask',
        { ...(sessionId ? { sessionId } : {}), message, clientEventId, deviceId: device },
        values.json ? {} : { onProgress: (piece) => ((streamed = true), io.out(piece)) },
      );
    const sendOrKeep = async (): Promise<AskOutput> => {
      try {
        return await send();
      } catch (error) {
        if (!(error instanceof CliError) || error.code !== 'UNPROCESSABLE_ENTITY') throw error;
        // No model answers: keep the question, as the web app does, and say what is missing.
        const { tutor } = await connection.call<ListOutput>('tn_session_list', { limit: 1 });
        if (!tutor.needs || !NO_MODEL[tutor.needs]) throw error;
        const kept = await connection.call<AskOutput>('tn_session_ask', { ...(sessionId ? { sessionId } : {}), message, clientEventId: `${clientEventId}-draft`, draft: true, deviceId: device });
        await rememberSession(io.env, kept.sessionId);
        throw new CliError(`${NO_MODEL[tutor.needs]} Your question is kept as a draft in session ${kept.sessionId}.`, 'NO_MODEL');
      }
    };
    let answer: AskOutput;
    try {
      answer = await sendOrKeep();
    } catch (error) {
      if (sessionId || !(error instanceof CliError) || error.code !== 'NOT_FOUND') throw error;
      sessionId = await startSession(connection, io, undefined, values.topic);
      answer = await sendOrKeep();
    }
    await rememberSession(io.env, answer.sessionId);
    if (values.json) printJson(io, answer);
    else io.out(`${streamed ? '' : answer.response}\n`);
    if (!values.session) io.err(`session ${answer.sessionId}\n`);
    return 0;
  });
}

interface ResumeOutput {
  state: SessionRow;
}

interface SessionRow {
  sessionId: string;
  status: string;
  context: { course: string | null; topic: string | null };
  lastActivityAt: string;
  latestSeq: number;
  preview?: string | null;
}

interface ListOutput {
  items: SessionRow[];
  nextCursor?: string;
  hasMore: boolean;
  tutor: { answeredBy: 'byok' | 'operator' | null; needs: 'sign-in' | 'provider-key' | 'default-key' | null };
}

const NO_MODEL: Record<string, string> = {
  'provider-key': 'No model can answer you here yet: add your provider key (the web app\'s Settings page).',
  'default-key': 'You have several provider keys and none is the default: choose one in the web app\'s Settings page.',
};

/**
 * `tn sessions`: your sessions from every device (tn_session_list), latest activity first; the first
 * active one is the current session, which commands naming no session use. Without sign-in there is
 * no account to list, so it shows the sessions this machine used.
 */
export async function sessions(args: string[], io: Io): Promise<number> {
  const { values } = parseArgs({ args, options: { json: { type: 'boolean' }, all: { type: 'boolean' }, limit: { type: 'string' } } });
  const limit = values.limit === undefined ? 20 : Number(values.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw usageError('--limit takes a whole number from 1 to 100.');
  return withConnection(io.env, async (connection) => {
    const first = await connection.call<ListOutput>('tn_session_list', { limit });
    const rows = [...first.items];
    let page = first;
    while (values.all && page.nextCursor) {
      page = await connection.call<ListOutput>('tn_session_list', { limit: 100, cursor: page.nextCursor });
      rows.push(...page.items);
    }
    // A token the server refused would have failed the call: holding one means signed in.
    const signedIn = Boolean(connection.target.token || connection.target.authProvider);
    if (!signedIn) rows.push(...(await sessionsOfThisMachine(connection, io)));
    const current = signedIn ? rows.find((s) => s.status === 'active')?.sessionId : undefined;
    if (values.json) return printJson(io, { current: current ?? null, signedIn, sessions: rows, hasMore: page.hasMore, tutor: first.tutor }), 0;
    if (!signedIn) io.err(paint(io, 'dim', 'Not signed in: showing the sessions this machine used. tn login lists yours from every device.\n'));
    if (first.tutor.needs && NO_MODEL[first.tutor.needs]) io.err(`${NO_MODEL[first.tutor.needs]}\n`);
    if (!rows.length) return io.out('No sessions yet: start one with tn ask --course "sfu:CMPT 120" "your question".\n'), 0;
    const mark = (id: string) => (id === current ? '*' : ' ');
    const about = (s: SessionRow) => [s.context.course, s.context.topic].filter(Boolean).join(' · ') || null;
    io.out(
      table(
        io,
        [' ', 'session', 'status', 'about', 'first question', 'events', 'last activity'],
        rows.map((s) => [mark(s.sessionId), s.sessionId, s.status, about(s), s.preview ?? null, s.latestSeq, s.lastActivityAt]),
        48,
      ),
    );
    if (page.hasMore) io.out(paint(io, 'dim', 'More sessions: tn sessions --all\n'));
    if (current) io.out(paint(io, 'dim', '* the current session (used when a command names none)\n'));
    return 0;
  });
}

/** Anonymous sessions belong to no account: the ones this machine started, as the server has them now. */
async function sessionsOfThisMachine(connection: Connection, io: Io): Promise<SessionRow[]> {
  const rows: SessionRow[] = [];
  for (const { sessionId } of (await knownSessions(io.env)).slice(0, 20)) {
    try {
      rows.push((await connection.call<ResumeOutput>('tn_session_resume', { sessionId, recent: 0 })).state);
    } catch (error) {
      if (error instanceof CliError && error.code === 'NOT_FOUND') await forgetSession(io.env, sessionId);
      else throw error;
    }
  }
  return rows;
}

/** `tn history [ID]`: the whole transcript, page by page. */
export async function history(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { json: { type: 'boolean' }, after: { type: 'string' } } });
  return withConnection(io.env, async (connection) => {
    const events: EventView[] = [];
    let cursor: string | undefined;
    let sessionId = positionals[0];
    do {
      const page = await connection.call<{ items: EventView[]; nextCursor?: string; sessionId: string }>('tn_session_history', {
        ...(sessionId ? { sessionId } : {}),
        ...(values.after ? { afterSeq: Number(values.after) } : {}),
        limit: 100,
        ...(cursor ? { cursor } : {}),
      });
      sessionId = page.sessionId;
      events.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor);
    if (values.json) return printJson(io, { sessionId, events }), 0;
    io.err(`session ${sessionId}\n`);
    for (const event of events) io.out(formatEvent(io, event));
    return 0;
  });
}

/** `tn draft "text"`: saved on the server as a pending draft; queued locally for `tn sync` when the server is unreachable. */
export async function draft(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { session: { type: 'string' }, json: { type: 'boolean' } } });
  const message = oneMessage(positionals, 'draft');
  const clientEventId = `cli-draft-${ulid()}`;
  const device = await deviceId(io.env);
  try {
    const saved = await withConnection(io.env, (connection) =>
      connection.call<AskOutput>('tn_session_ask', { ...(values.session ? { sessionId: values.session } : {}), message, clientEventId, draft: true, deviceId: device }),
    );
    await rememberSession(io.env, saved.sessionId);
    if (values.json) printJson(io, saved);
    else io.out(`Draft saved (${saved.clientEventId}); send it with tn ask, discard it with tn cancel.\n`);
    io.err(`session ${saved.sessionId}\n`);
    return 0;
  } catch (error) {
    if (!(error instanceof CliError) || !error.unreachable) throw error;
    await saveLocalDrafts(io.env, [...(await localDrafts(io.env)), { clientEventId, sessionId: values.session ?? null, message, createdAt: new Date().toISOString() }]);
    io.err(`${error.message} The draft is kept on this machine; tn sync pushes it when the server is back.\n`);
    return 0;
  }
}

/** `tn cancel [--session ID] [clientEventId…]`: discards pending drafts (all of them when none is named). */
export async function cancel(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { session: { type: 'string' }, json: { type: 'boolean' } } });
  const device = await deviceId(io.env);
  const queued = await localDrafts(io.env);
  const keep = queued.filter((d) => positionals.length && !positionals.includes(d.clientEventId));
  if (keep.length !== queued.length) await saveLocalDrafts(io.env, keep);
  return withConnection(io.env, async (connection) => {
    const result = await connection.call<ToolOutput<typeof cancelPendingContract>>('tn_session_cancel_pending', {
      ...(values.session ? { sessionId: values.session } : {}),
      ...(positionals.length ? { clientEventIds: positionals } : {}),
      deviceId: device,
    });
    if (values.json) return printJson(io, result), 0;
    if (!result.cancelled.length) io.out('No pending drafts.\n');
    for (const d of result.cancelled) io.out(`Cancelled ${d.clientEventId}: ${d.content}\n`);
    for (const id of result.notPending) io.err(`${id} was not pending (already sent or cancelled).\n`);
    return 0;
  });
}

/** `tn export ID > file`: the snapshot as JSON on stdout. */
export async function exportSession(args: string[], io: Io): Promise<number> {
  const { positionals } = parseArgs({ args, allowPositionals: true, options: { json: { type: 'boolean' } } });
  return withConnection(io.env, async (connection) => {
    const snapshot = await withProgress(io, 'Exporting…', () => connection.call<{ session: { sessionId: string } }>('tn_session_export', positionals[0] ? { sessionId: positionals[0] } : {}));
    printJson(io, snapshot);
    io.err(`Exported session ${snapshot.session.sessionId}.\n`);
    return 0;
  });
}

/** `tn import file`: restores a snapshot made by tn export. */
export async function importSession(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { json: { type: 'boolean' } } });
  if (!positionals[0]) throw usageError('Give the file tn export wrote: tn import session.json');
  let snapshot: unknown;
  try {
    snapshot = JSON.parse(await readFile(positionals[0], 'utf8'));
  } catch (error) {
    throw new CliError(`Cannot read ${positionals[0]} as JSON (${(error as Error).message.split('\n')[0]}).`, 'BAD_FILE', 1);
  }
  return withConnection(io.env, async (connection) => {
    const result = await withProgress(io, 'Importing…', () => connection.call<ToolOutput<typeof importContract>>('tn_session_import', { snapshot }));
    await rememberSession(io.env, result.sessionId);
    if (values.json) return printJson(io, result), 0;
    io.out(`${result.status === 'imported' ? 'Imported' : 'Already present:'} session ${result.sessionId} (${result.latestSeq} events).\n`);
    return 0;
  });
}

/** `tn end ID [--reason text]`. */
export async function end(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { reason: { type: 'string' }, json: { type: 'boolean' } } });
  const device = await deviceId(io.env);
  return withConnection(io.env, async (connection) => {
    const result = await connection.call<ToolOutput<typeof endContract>>('tn_session_end', {
      ...(positionals[0] ? { sessionId: positionals[0] } : {}),
      ...(values.reason ? { reason: values.reason } : {}),
      deviceId: device,
    });
    if (values.json) return printJson(io, result), 0;
    io.out(`Session ${result.sessionId} ${result.alreadyEnded ? 'was already ended' : 'ended'} (${result.endedAt}).\n`);
    if (result.cancelledDrafts.length) io.out(`Cancelled drafts: ${result.cancelledDrafts.join(', ')}\n`);
    return 0;
  });
}
