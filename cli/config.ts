import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export type Env = Record<string, string | undefined>;

/** Where the CLI keeps its files: TN_CONFIG_DIR, else $XDG_CONFIG_HOME/tutor-nexus, else ~/.config/tutor-nexus. */
function configDir(env: Env): string {
  if (env.TN_CONFIG_DIR) return env.TN_CONFIG_DIR;
  const base = env.XDG_CONFIG_HOME || path.join(env.HOME || os.homedir(), '.config');
  return path.join(base, 'tutor-nexus');
}

async function readJson<T>(file: string): Promise<T | undefined> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as T;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Writes through a temporary file, so a crash never leaves half a file; `mode` 0600 for secrets. */
async function writeJson(file: string, value: unknown, mode = 0o644): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(value, null, 2)}\n`, { mode });
  await chmod(temporary, mode);
  await rename(temporary, file);
}

export interface Credentials {
  url?: string;
  /** A bearer token given to `tn login --token` (a personal or local access token). */
  token?: string;
  /** An OAuth sign-in (`tn login`): the registered client and its tokens, kept as the SDK gives them. */
  oauth?: { redirectUri?: string; client?: unknown; tokens?: unknown };
  savedAt: string;
}

export const credentialsFile = (env: Env) => path.join(configDir(env), 'credentials.json');

export async function readCredentials(env: Env): Promise<Credentials | undefined> {
  return readJson<Credentials>(credentialsFile(env));
}

/** The token file is readable by its owner only (0600), in a directory only its owner can enter. */
export async function saveCredentials(env: Env, credentials: Credentials): Promise<string> {
  const file = credentialsFile(env);
  await writeJson(file, credentials, 0o600);
  return file;
}

/**
 * A stable id of this machine's CLI (sent as deviceId), made once and kept in the config dir,
 * so the server's device cursors survive restarts and the daemon can tell its own events apart.
 */
export async function deviceId(env: Env): Promise<string> {
  if (env.TN_DEVICE_ID) return env.TN_DEVICE_ID;
  const file = path.join(configDir(env), 'device.json');
  const existing = await readJson<{ deviceId: string }>(file);
  if (existing?.deviceId) return existing.deviceId;
  const host = os.hostname().replace(/[^A-Za-z0-9.-]/g, '').slice(0, 24) || 'host';
  const id = `cli-${host}-${randomBytes(4).toString('hex')}`;
  await writeJson(file, { deviceId: id, createdAt: new Date().toISOString() });
  return id;
}

export interface KnownSession {
  sessionId: string;
  course: string | null;
  firstUsedAt: string;
  lastUsedAt: string;
}

const sessionsFile = (env: Env) => path.join(configDir(env), 'sessions.json');

/** Sessions this machine has used, most recent first: how it finds anonymous ones again (signed in, tn_session_list has them all). */
export async function knownSessions(env: Env): Promise<KnownSession[]> {
  const list = (await readJson<KnownSession[]>(sessionsFile(env))) ?? [];
  return list.sort((a, b) => b.lastUsedAt.localeCompare(a.lastUsedAt));
}

export async function rememberSession(env: Env, sessionId: string, course?: string | null): Promise<void> {
  const list = await knownSessions(env);
  const now = new Date().toISOString();
  const found = list.find((s) => s.sessionId === sessionId);
  if (found) {
    found.lastUsedAt = now;
    if (course) found.course = course;
  } else {
    list.push({ sessionId, course: course ?? null, firstUsedAt: now, lastUsedAt: now });
  }
  await writeJson(sessionsFile(env), list.sort((a, b) => b.lastUsedAt.localeCompare(a.lastUsedAt)).slice(0, 200));
}

export async function forgetSession(env: Env, sessionId: string): Promise<void> {
  const list = await knownSessions(env);
  await writeJson(sessionsFile(env), list.filter((s) => s.sessionId !== sessionId));
}

/** Drafts typed on this machine that the server has not acknowledged yet (pushed by the daemon). */
export interface LocalDraft {
  clientEventId: string;
  sessionId: string | null;
  message: string;
  createdAt: string;
}

const draftsFile = (env: Env) => path.join(configDir(env), 'outbox.json');

export async function localDrafts(env: Env): Promise<LocalDraft[]> {
  return (await readJson<LocalDraft[]>(draftsFile(env))) ?? [];
}

export async function saveLocalDrafts(env: Env, drafts: LocalDraft[]): Promise<void> {
  await writeJson(draftsFile(env), drafts);
}

export const mirrorDir = (env: Env) => path.join(configDir(env), 'sessions');
