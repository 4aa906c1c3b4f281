import { parseArgs } from 'node:util';
import { deviceId, knownSessions, localDrafts, rememberSession, saveLocalDrafts, type LocalDraft } from './config.js';
import { CliError, Connection, resolveTarget, type Target } from './connection.js';
import { paint, type Io } from './output.js';
import { appendToMirror, formatEvent, mirroredSeq, mirrorPath, type EventView } from './transcript.js';

interface SyncStatus {
  sessionId: string;
  status: 'active' | 'ended';
  latestSeq: number;
  unseen: EventView[];
  fromOtherDevices: string[];
  hasMoreUnseen: boolean;
}

interface State {
  sessionId: string;
  course: string | null;
  topic: string | null;
}

const MAX_BACKOFF_MS = 30_000;
const WATCHED_KNOWN_SESSIONS = 10;

/** Waits `ms`, or less when `signal` aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done);
  });
}

/**
 * One pass over the watched sessions: push queued drafts, ask sync_status for each session with this
 * device's id (the server keeps the device's cursor), print what other devices wrote, and bring the
 * Markdown mirror up to the latest seq (from history when the mirror is behind the cursor).
 */
class SyncPass {
  readonly ended = new Set<string>();
  private readonly states = new Map<string, State>();

  constructor(
    private readonly io: Io,
    private readonly device: string,
    private readonly only: string | undefined,
    private readonly json: boolean,
  ) {}

  async run(connection: Connection, firstPass: boolean): Promise<number> {
    await this.pushDrafts(connection);
    const ids = await this.sessionsToWatch(connection);
    if (firstPass) this.io.err(paint(this.io, 'dim', `Watching ${ids.length} session${ids.length === 1 ? '' : 's'} as ${this.device} (Ctrl-C stops).\n`));
    let printed = 0;
    for (const sessionId of ids) {
      try {
        printed += await this.syncOne(connection, sessionId, ids.length > 1);
      } catch (error) {
        if (!(error instanceof CliError) || error.code !== 'NOT_FOUND') throw error;
        this.ended.add(sessionId);
        this.io.err(`Session ${sessionId} is gone (expired or not yours); no longer watching it.\n`);
      }
    }
    return printed;
  }

  private async sessionsToWatch(connection: Connection): Promise<string[]> {
    if (this.only) return [this.only];
    const ids: string[] = [];
    const current = await connection.call<{ state: { sessionId: string; context: { course: string | null; topic: string | null } } }>('tn_session_resume', { recent: 0 }).catch((error) => {
      if (error instanceof CliError && error.code === 'NOT_FOUND') return undefined;
      throw error;
    });
    if (current) {
      ids.push(current.state.sessionId);
      this.states.set(current.state.sessionId, { sessionId: current.state.sessionId, course: current.state.context.course, topic: current.state.context.topic });
    }
    for (const known of (await knownSessions(this.io.env)).slice(0, WATCHED_KNOWN_SESSIONS)) {
      if (!ids.includes(known.sessionId)) ids.push(known.sessionId);
    }
    return ids.filter((id) => !this.ended.has(id));
  }

  private async syncOne(connection: Connection, sessionId: string, prefix: boolean): Promise<number> {
    const status = await connection.call<SyncStatus>('tn_session_sync_status', { sessionId, deviceId: this.device });
    const others = new Set(status.fromOtherDevices);
    let printed = 0;
    for (const event of status.unseen) {
      if (!others.has(event.eventId)) continue;
      printed++;
      if (this.json) this.io.out(`${JSON.stringify({ sessionId, ...event })}\n`);
      else this.io.out(`${prefix ? paint(this.io, 'magenta', `[${sessionId.slice(-6)}] `) : ''}${formatEvent(this.io, event)}`);
    }
    await this.mirror(connection, sessionId, status);
    if (status.status === 'ended') this.ended.add(sessionId);
    return printed;
  }

  private async mirror(connection: Connection, sessionId: string, status: SyncStatus): Promise<void> {
    const env = this.io.env;
    let mirrored = await mirroredSeq(env, sessionId);
    const state = this.states.get(sessionId) ?? null;
    const fromUnseen = status.unseen.filter((e) => e.seq > mirrored);
    if (fromUnseen.length && fromUnseen[0]!.seq === mirrored + 1) mirrored = await appendToMirror(env, sessionId, fromUnseen, state ?? undefined);
    let cursor: string | undefined;
    while (mirrored < status.latestSeq) {
      const page = await connection.call<{ items: EventView[]; nextCursor?: string }>('tn_session_history', { sessionId, afterSeq: mirrored, limit: 100, ...(cursor ? { cursor } : {}) });
      const before = mirrored;
      mirrored = await appendToMirror(env, sessionId, page.items, state ?? undefined);
      cursor = page.nextCursor;
      if (!cursor && mirrored === before) break;
    }
  }

  /** Drafts `tn draft` queued while the server was unreachable, sent as drafts with their own clientEventId (a retry is harmless). */
  private async pushDrafts(connection: Connection): Promise<void> {
    const queued = await localDrafts(this.io.env);
    if (!queued.length) return;
    const left: LocalDraft[] = [];
    for (const draft of queued) {
      try {
        const saved = await connection.call<{ sessionId: string }>('tn_session_ask', {
          ...(draft.sessionId ? { sessionId: draft.sessionId } : {}),
          message: draft.message,
          clientEventId: draft.clientEventId,
          draft: true,
          deviceId: this.device,
        });
        await rememberSession(this.io.env, saved.sessionId);
        this.io.err(`Pushed draft ${draft.clientEventId} to session ${saved.sessionId}.\n`);
      } catch (error) {
        if (error instanceof CliError && error.unreachable) throw error;
        if (error instanceof CliError && ['NOT_FOUND', 'CONFLICT', 'BAD_REQUEST'].includes(error.code)) {
          this.io.err(`Dropped draft ${draft.clientEventId}: ${error.message}\n`);
        } else {
          left.push(draft);
        }
      }
    }
    // Keep drafts queued meanwhile by another `tn draft`.
    const pushed = new Set(queued.map((d) => d.clientEventId).filter((id) => !left.some((d) => d.clientEventId === id)));
    await saveLocalDrafts(this.io.env, (await localDrafts(this.io.env)).filter((d) => !pushed.has(d.clientEventId)));
  }
}

/** `tn sync [--watch] [--session ID] [--interval s] [--json]`: one pass, or the daemon polling every 5 s until Ctrl-C. */
export async function sync(args: string[], io: Io): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { watch: { type: 'boolean', short: 'w' }, session: { type: 'string' }, interval: { type: 'string', default: '5' }, json: { type: 'boolean' } },
  });
  const intervalMs = Math.max(1, Number(values.interval) || 5) * 1000;
  const target = await resolveTarget(io.env);
  const pass = new SyncPass(io, await deviceId(io.env), values.session, Boolean(values.json));
  if (!values.watch) {
    const connection = await Connection.open(target);
    try {
      const printed = await pass.run(connection, false);
      io.err(`${printed} new event${printed === 1 ? '' : 's'} from other devices.\n`);
      return 0;
    } finally {
      await connection.close();
    }
  }
  return watch(io, target, pass, intervalMs);
}

async function watch(io: Io, target: Target, pass: SyncPass, intervalMs: number): Promise<number> {
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  const stopped = new Promise<void>((resolve) => stop.signal.addEventListener('abort', () => resolve()));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  let connection: Connection | undefined;
  let failures = 0;
  let first = true;
  try {
    while (!stop.signal.aborted) {
      try {
        // Ctrl-C does not wait for a call in flight: the finally block closes the connection under it.
        connection ??= await Promise.race([Connection.open(target), stopped.then(() => undefined)]);
        if (!connection) break;
        await Promise.race([pass.run(connection, first), stopped]);
        if (stop.signal.aborted) break;
        first = false;
        if (failures) io.err(`Reconnected to ${target.url}.\n`);
        failures = 0;
        await sleep(intervalMs, stop.signal);
      } catch (error) {
        if (stop.signal.aborted) break;
        const failure = error instanceof CliError ? error : new CliError(String(error), 'ERROR');
        if (!failure.unreachable && failure.code !== 'RATE_LIMITED' && failure.code !== 'SERVICE_UNAVAILABLE') throw failure;
        await connection?.close();
        connection = undefined;
        failures++;
        const wait = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** (failures - 1));
        io.err(`${failures === 1 ? 'Connection lost' : 'Still no connection'}: ${failure.message} Retrying in ${Math.round(wait / 1000)} s.\n`);
        await sleep(wait, stop.signal);
      }
    }
    io.err(`Stopped. Mirrors are in ${mirrorPath(io.env, '<session>').replace('<session>.md', '')}\n`);
    return 0;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await connection?.close();
  }
}
