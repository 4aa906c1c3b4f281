import { execFile } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { dbPathArgument } from './emulator-launcher.js';

const execFileAsync = promisify(execFile);

const LOCK_FILE = 'tutor-nexus.lock';
const ORPHAN_STOP_GRACE_MS = 5_000;

interface LockRecord {
  /** The Node process that runs the emulator. */
  ownerPid: number;
  /** The emulator's JVM, once started. */
  jvmPid?: number;
  /** Its port on 127.0.0.1, once it serves the database. */
  port?: number;
  startedAt: string;
}

export interface DataDirLock {
  /**
   * Records the JVM (so a later start can recognise it if it is ever orphaned) and, once it serves the
   * database, its port (so a one-off command uses it instead of starting a second emulator).
   */
  record(emulator: { jvmPid?: number; port?: number }): Promise<void>;
  release(): void;
}

/** One emulator per database directory: raised when another live process runs one on it. */
class DataDirInUse extends Error {}

/**
 * Takes the database directory for this process: DynamoDB Local does not guard its file, and two JVMs
 * on one file lose writes. A lock whose owner is gone is stale: the JVM it names (or any emulator whose
 * command line names this directory, from before locks existed) is an orphan and is stopped first.
 */
export async function lockDataDir(dbPath: string): Promise<DataDirLock> {
  await fs.mkdir(dbPath, { recursive: true });
  const file = path.join(dbPath, LOCK_FILE);
  for (let attempt = 0; ; attempt++) {
    const taken = await create(file);
    if (taken) return taken;
    const raw = readFileSafe(file);
    const record = parseRecord(raw);
    if (record && isAlive(record.ownerPid)) {
      throw new DataDirInUse(
        `The data directory ${path.dirname(dbPath)} is in use by process ${record.ownerPid} (another npm start or tn command). Stop it first, or set TN_DATA_DIR to another directory.`,
      );
    }
    await stopOrphans(dbPath);
    // Only the stale record we read is removed: a process that took the lock meanwhile keeps it.
    if (readFileSafe(file) === raw) rmSync(file, { force: true });
    if (attempt >= 2) throw new DataDirInUse(`Could not take the lock ${file}; another process keeps taking it.`);
  }
}

async function create(file: string): Promise<DataDirLock | undefined> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(file, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return undefined;
    throw error;
  }
  let record: LockRecord = { ownerPid: process.pid, startedAt: new Date().toISOString() };
  await handle.writeFile(JSON.stringify(record));
  await handle.close();
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    process.removeListener('exit', release);
    // Only our own record: never another process's lock.
    if (parseRecord(readFileSafe(file))?.ownerPid === process.pid) rmSync(file, { force: true });
  };
  process.on('exit', release);
  return {
    async record(emulator) {
      record = { ...record, ...emulator };
      if (!released) await fs.writeFile(file, JSON.stringify(record));
    },
    release,
  };
}

/**
 * The port of the emulator a live process runs on this database directory and has recorded as serving
 * it, if any: the one emulator a one-off command (`tn token create`) talks to while the server runs.
 */
export function servingEmulatorOn(dbPath: string): number | undefined {
  const record = parseRecord(readFileSafe(path.join(dbPath, LOCK_FILE)));
  if (!record?.port || !isAlive(record.ownerPid) || (record.jvmPid !== undefined && !isAlive(record.jvmPid))) return undefined;
  return record.port;
}

function readFileSafe(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

function parseRecord(raw: string | undefined): LockRecord | undefined {
  try {
    const record = JSON.parse(raw ?? '') as LockRecord;
    return Number.isInteger(record.ownerPid) ? record : undefined;
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Emulators whose command line names this database (ours, or the jar's own `-dbPath` from before the
 * loopback launcher) while no live process holds the lock: orphans, stopped before a new one starts.
 */
async function stopOrphans(dbPath: string): Promise<void> {
  const names = [dbPathArgument(dbPath), `-dbPath ${dbPath}`];
  const named = (args: string) => names.some((name) => args.endsWith(name) || args.includes(`${name} `));
  const orphans = (await processes()).filter(({ pid, args }) => pid !== process.pid && args.includes('DynamoDBLocal') && named(args));
  await Promise.all(orphans.map(({ pid }) => stop(pid)));
}

async function processes(): Promise<{ pid: number; args: string }[]> {
  try {
    const { stdout } = await execFileAsync('ps', ['-eo', 'pid=,args='], { maxBuffer: 16 * 1024 * 1024 });
    return stdout.split('\n').flatMap((line) => {
      const match = /^\s*(\d+)\s+(.*)$/.exec(line);
      return match ? [{ pid: Number(match[1]), args: match[2]! }] : [];
    });
  } catch {
    return [];
  }
}

async function stop(pid: number): Promise<void> {
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    return;
  }
  const deadline = Date.now() + ORPHAN_STOP_GRACE_MS;
  while (isAlive(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  if (isAlive(pid)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
}
