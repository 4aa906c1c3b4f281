import { appendFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { mirrorDir, type Env } from './config.js';
import { paint, roleLabel, type Io } from './output.js';

/** The fields of a session event the CLI shows (tn_session_history / sync_status items). */
export interface EventView {
  eventId: string;
  seq: number;
  type: string;
  createdAt: string;
  role: string;
  content: string;
  deviceId: string | null;
}

const TYPE_NOTES: Record<string, string> = {
  draft: 'draft',
  draft_cancelled: 'draft cancelled',
  session_ended: 'session ended',
};

/** One event as a terminal line: "#3 you (web): text". */
export function formatEvent(io: Io, event: EventView): string {
  const note = TYPE_NOTES[event.type];
  const who = roleLabel(io, event.role);
  const device = event.deviceId ? paint(io, 'dim', ` (${event.deviceId})`) : '';
  const text = event.type === 'session_ended' || event.type === 'draft_cancelled' ? paint(io, 'dim', `[${note}]${event.content ? ` ${event.content}` : ''}`) : event.content;
  return `${paint(io, 'dim', `#${event.seq}`)} ${who}${device}${note && event.type === 'draft' ? paint(io, 'yellow', ' [draft]') : ''}: ${text}\n`;
}

/**
 * The local Markdown mirror of a session: `<config>/sessions/<sessionId>.md`, a heading per event
 * ("### 3 · tutor · 2026-11-24T10:00:00Z") and its text, appended in seq order; the file's last
 * heading says how far it got, so a restarted daemon continues without duplicates.
 */
export function mirrorPath(env: Env, sessionId: string): string {
  return path.join(mirrorDir(env), `${sessionId}.md`);
}

export async function mirroredSeq(env: Env, sessionId: string): Promise<number> {
  try {
    const text = await readFile(mirrorPath(env, sessionId), 'utf8');
    const seqs = [...text.matchAll(/^### (\d+) · /gm)].map((m) => Number(m[1]));
    return seqs.length ? Math.max(...seqs) : 0;
  } catch {
    return 0;
  }
}

const MIRROR_ROLES: Record<string, string> = { user: 'student', assistant: 'tutor' };

export async function appendToMirror(env: Env, sessionId: string, events: EventView[], header?: { course: string | null; topic: string | null }): Promise<number> {
  const file = mirrorPath(env, sessionId);
  let last = await mirroredSeq(env, sessionId);
  const fresh = events.filter((e) => e.seq > last).sort((a, b) => a.seq - b.seq);
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  if (last === 0) {
    const about = [header?.course, header?.topic].filter(Boolean).join(' – ');
    await writeFile(file, `# Tutoring session ${sessionId}${about ? `\n\n${about}` : ''}\n`, { flag: 'a' });
  }
  for (const event of fresh) {
    if (event.seq !== last + 1) break; // never leave a gap: the next poll fills it from history
    const note = TYPE_NOTES[event.type] ? ` · ${TYPE_NOTES[event.type]}` : '';
    const device = event.deviceId ? ` · ${event.deviceId}` : '';
    const body = event.content ? `\n${event.content}\n` : '';
    await appendFile(file, `\n### ${event.seq} · ${MIRROR_ROLES[event.role] ?? event.role}${note}${device} · ${event.createdAt}\n${body}`);
    last = event.seq;
  }
  return last;
}
