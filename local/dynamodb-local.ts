// Obtains and runs AWS's DynamoDB Local (a Java jar) for the local server and tests.
// The jar comes from the amplify-dynamodb-simulator npm package so that fetching it reuses
// npm's registry, proxy and cache settings instead of adding a second download channel.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { promisify } from 'node:util';
import { lockDataDir } from './data-dir-lock.js';
import { launcherArgs } from './emulator-launcher.js';

const execFileAsync = promisify(execFile);

const SIMULATOR_VERSION = '2.9.30'; // bundles DynamoDB Local 1.25.1
const MARKER = '.complete';
const MIN_JAVA = 17;
const READY_TIMEOUT_MS = 60_000;
// A refused connection costs nothing to retry; every poll skipped is time a restart waits for no reason.
const READY_POLL_MS = 50;
const STOP_GRACE_MS = 5_000;
const TAIL_LINES = 50;
/** The one file `-sharedDb` keeps every table in. */
export const SHARED_DB_FILE = 'shared-local-instance.db';

/** Where the local server keeps DynamoDB Local's database inside its data directory. */
export function databaseDirOf(dataDir: string): string {
  return path.join(dataDir, 'dynamodb');
}

/** Whether DynamoDB Local has ever written its database in this directory. */
export function holdsDatabase(dbDir: string): boolean {
  return existsSync(path.join(dbDir, SHARED_DB_FILE));
}

/** DynamoDB Local on the database a data directory already holds; undefined when it holds none yet. */
export function startOnExistingDatabase(dataDir: string): Promise<DynamoDbLocal> | undefined {
  const dbDir = databaseDirOf(dataDir);
  return holdsDatabase(dbDir) ? startDynamoDbLocal({ dataDir: dbDir }) : undefined;
}

export interface DynamoDbLocalOptions {
  /** Persist tables in this directory (created if missing). Ignored by `inMemory`. */
  dataDir?: string;
  /** Keep everything in memory; the default when no `dataDir` is given. */
  inMemory?: boolean;
  /** Fixed port; a free one is picked when omitted. */
  port?: number;
}

export interface DynamoDbLocal {
  endpoint: string;
  port: number;
  /** Settles when the JVM exits, with why; `stop()` makes it exit too. */
  exited: Promise<string>;
  stop(): Promise<void>;
}

/**
 * C2 compiles a method after 4× the calls it would by default. At the default thresholds it compiles
 * much of the emulator's start-up code, which runs only a few thousand times: 1.5 s of CPU in a 2.4 s
 * start on two cores, while the server's own modules wait for a core. Measured here: a start's CPU
 * 3.55 → 2.8 s; a query load's throughput reaches the default's after ~25,000 queries (ADR 0022).
 */
const JIT_FLAGS = ['-XX:Tier4InvocationThreshold=20000', '-XX:Tier4MinInvocationThreshold=2400', '-XX:Tier4CompileThreshold=30000', '-XX:Tier4BackEdgeThreshold=160000'];

const NO_JAVA_HINT =
  'Install it (Debian: apt-get install openjdk-17-jre-headless) or set TN_DYNAMODB_ENDPOINT to use an existing DynamoDB.';

let javaMajor: number | undefined;

async function checkJava(): Promise<number> {
  if (javaMajor !== undefined) return javaMajor;
  let banner: string;
  try {
    // `java -version` prints to stderr, by long-standing convention.
    const { stdout, stderr } = await execFileAsync('java', ['-version']);
    banner = `${stderr}\n${stdout}`;
  } catch {
    throw new Error(`DynamoDB Local needs Java ${MIN_JAVA} or newer; none found on PATH. ${NO_JAVA_HINT}`);
  }
  // Old JDKs report "1.8.0_x" (major 8); modern ones "17.0.15" or just "21".
  const m = /version "(\d+)(?:\.(\d+))?/.exec(banner);
  const first = Number(m?.[1]);
  const major = first === 1 ? Number(m?.[2]) : first;
  if (!Number.isFinite(major) || major < MIN_JAVA) {
    const found = m ? `found Java ${major}` : `could not parse: ${banner.trim().split('\n')[0]}`;
    throw new Error(`DynamoDB Local needs Java ${MIN_JAVA} or newer (${found}). ${NO_JAVA_HINT}`);
  }
  return (javaMajor = major);
}

export async function ensureDynamoDbLocalInstalled(): Promise<string> {
  const root = process.env.TN_CACHE_DIR || path.join(os.homedir(), '.cache', 'tutor-nexus');
  const finalDir = path.join(root, `dynamodb-local-${SIMULATOR_VERSION}`);
  const marker = path.join(finalDir, MARKER);
  if (existsSync(marker)) return finalDir;
  await fs.mkdir(root, { recursive: true });
  // Work inside the cache root so the final rename never crosses file systems.
  const work = await fs.mkdtemp(path.join(root, `.dynamodb-local-${SIMULATOR_VERSION}-`));
  try {
    const spec = `amplify-dynamodb-simulator@${SIMULATOR_VERSION}`;
    // cwd=work keeps the project's .npmrc/workspaces out of it; pack never installs deps.
    await execFileAsync('npm', ['pack', spec, '--pack-destination', work, '--silent'], { cwd: work }).catch((err: { stderr?: string; message: string }) => {
      throw new Error(`Could not download ${spec} with npm pack: ${err.stderr?.trim() || err.message}`);
    });
    const tarball = (await fs.readdir(work)).find((f) => f.endsWith('.tgz'));
    if (!tarball) throw new Error(`npm pack ${spec} produced no tarball`);
    const staging = path.join(work, 'emulator');
    await fs.mkdir(staging);
    await execFileAsync('tar', ['-xzf', path.join(work, tarball), '-C', staging, '--strip-components=2', 'package/emulator/']);
    await fs.rm(path.join(work, tarball));
    if (!existsSync(path.join(staging, 'DynamoDBLocal.jar'))) throw new Error(`${spec} did not contain emulator/DynamoDBLocal.jar`);
    await fs.writeFile(path.join(staging, MARKER), `${new Date().toISOString()}\n`);
    try {
      await fs.rename(staging, finalDir);
    } catch {
      // Usually another process won the race, and its copy is as good as ours. Installs
      // appear atomically with the marker inside, so a dir without one is stray debris.
      if (!existsSync(marker)) {
        await fs.rm(finalDir, { recursive: true, force: true });
        await fs.rename(staging, finalDir);
      }
    }
  } finally {
    await fs.rm(work, { recursive: true, force: true });
  }
  return finalDir;
}

// Children still running when this process exits; killed synchronously on 'exit'
// because nothing async can run there and an orphaned JVM would hold its port forever.
const liveChildren = new Set<ChildProcess>();
let exitHookInstalled = false;
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // SIGKILL: we cannot wait for a graceful stop here, and SQLite commits per request anyway.
  process.on('exit', () => liveChildren.forEach((c) => c.kill('SIGKILL')));
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

function tcpOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const sock = net.connect({ port, host: '127.0.0.1' });
    sock.setTimeout(1_000);
    sock.once('connect', () => (sock.destroy(), resolve(true)));
    sock.once('timeout', () => (sock.destroy(), resolve(false)));
    sock.once('error', () => resolve(false));
  });
}

// An open port alone doesn't prove the server is handling requests, so require an HTTP answer. The
// probe is a whole ListTables (DynamoDB Local accepts any credentials): an unsigned one is turned away
// before DynamoDB Local's request handling initialises, and then the caller's first request pays for
// that (about half a second), when it could have happened while the caller was still loading.
const PROBE_AUTHORIZATION = 'AWS4-HMAC-SHA256 Credential=local/20260101/local/dynamodb/aws4_request, SignedHeaders=host, Signature=0';

function httpReady(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const req = http.request(
      { host: '127.0.0.1', port, path: '/', method: 'POST', agent: false, timeout: 2_000,
        headers: { 'X-Amz-Target': 'DynamoDB_20120810.ListTables', 'Content-Type': 'application/x-amz-json-1.0', Authorization: PROBE_AUTHORIZATION } },
      (res) => (res.resume(), resolve((res.statusCode ?? 500) < 500)),
    );
    req.once('timeout', () => req.destroy());
    req.once('error', () => resolve(false));
    req.end('{}');
  });
}

export async function startDynamoDbLocal(options: DynamoDbLocalOptions = {}): Promise<DynamoDbLocal> {
  return (await bootDynamoDbLocal(options)).open();
}

/**
 * DynamoDB Local with its JVM up and listening, the database not yet opened: the emulator opens (or
 * creates) its file on the first request it serves, which `open()` sends. A staged first load boots
 * the serving emulator this way while the load runs, and renames the finished file in before `open()`.
 */
export interface BootedDynamoDbLocal {
  open(): Promise<DynamoDbLocal>;
  stop(): Promise<void>;
}

/**
 * What listens: DynamoDB Local on 127.0.0.1 only (see emulator-launcher.ts), on a free port unless one
 * is given. A database directory is locked for the emulator's life (data-dir-lock.ts): a second emulator
 * on it is refused while its owner lives, and one left behind by a dead owner is stopped first.
 */

export async function bootDynamoDbLocal(options: DynamoDbLocalOptions & { databaseArrivesLater?: boolean } = {}): Promise<BootedDynamoDbLocal> {
  await checkJava();
  const emulator = await ensureDynamoDbLocalInstalled();
  const dbPath = options.inMemory || !options.dataDir ? undefined : path.resolve(options.dataDir);
  const lock = dbPath ? await lockDataDir(dbPath) : undefined;
  let child: ChildProcess;
  let port: number;
  try {
    port = options.port ?? (await freePort());
    // Otherwise a server already on the port would answer our probes and mask the JVM's bind failure.
    if (options.port !== undefined && (await tcpOpen(port))) throw new Error(`Port ${port} is already in use; cannot start DynamoDB Local there.`);
    // A file arriving later brings its own journal mode (the mode is stored in the file).
    if (dbPath && !options.databaseArrivesLater) await useWriteAheadLog(path.join(dbPath, SHARED_DB_FILE));
    installExitHook();
    // Not detached: staying in our process group lets a terminal Ctrl-C reach the JVM too. Its stdin is
    // a pipe from us that it watches: when this process dies, however, the JVM exits (emulator-launcher.ts).
    child = spawn('java', [...JIT_FLAGS, ...launcherArgs(emulator, { port, dbPath })], {
      cwd: emulator, // keeps files the jar writes to its cwd out of the caller's dir
      env: { ...process.env, DDB_LOCAL_TELEMETRY: '0' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
  } catch (error) {
    lock?.release();
    throw error;
  }
  liveChildren.add(child);
  if (child.pid) await lock?.record({ jvmPid: child.pid }).catch(() => undefined);
  child.stdin!.on('error', () => undefined); // a JVM that already exited closes its end first
  const tail: string[] = [];
  for (const stream of [child.stdout!, child.stderr!]) {
    readline.createInterface({ input: stream }).on('line', (line) => {
      tail.push(line);
      if (tail.length > TAIL_LINES) tail.shift();
    });
  }
  let exitReason: string | undefined;
  const exited = new Promise<string>((resolve) => {
    const done = (reason: string) => {
      exitReason ??= reason;
      liveChildren.delete(child);
      lock?.release();
      resolve(exitReason);
    };
    child.once('exit', (code, signal) => done(signal ? `killed by ${signal}` : `exit code ${code}`));
    child.once('error', (err) => done(`spawn failed: ${err.message}`));
  });

  const stop = async (): Promise<void> => {
    if (!liveChildren.has(child)) {
      await exited;
      return;
    }
    // Closing its input is the JVM's own way out (System.exit after the watch); signals back it up.
    child.stdin!.end();
    const term = setTimeout(() => child.kill('SIGTERM'), STOP_GRACE_MS / 2);
    const kill = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
    await exited;
    clearTimeout(term);
    clearTimeout(kill);
  };

  const output = () => (tail.length ? `\n--- last output ---\n${tail.join('\n')}` : ' (no output)');
  const until = async (ready: () => Promise<boolean>, what: string): Promise<void> => {
    const deadline = Date.now() + READY_TIMEOUT_MS;
    for (;;) {
      if (exitReason) throw new Error(`DynamoDB Local exited before ${what} (${exitReason}).${output()}`);
      if (await ready()) return;
      if (exitReason) continue; // report the exit rather than a confusing timeout
      if (Date.now() > deadline) {
        await stop();
        throw new Error(`DynamoDB Local did not finish ${what} on port ${port} within ${READY_TIMEOUT_MS / 1000}s.${output()}`);
      }
      await new Promise((r) => setTimeout(r, READY_POLL_MS));
    }
  };
  await until(() => tcpOpen(port), 'starting');
  return {
    open: async () => {
      await until(() => httpReady(port), 'opening its database');
      // Serving the directory's database now: a one-off command on it may use this emulator (store-session.ts).
      await lock?.record({ port }).catch(() => undefined);
      return { endpoint: `http://127.0.0.1:${port}`, port, exited, stop };
    },
    stop,
  };
}

/**
 * Puts DynamoDB Local's SQLite file (created here when missing) in write-ahead-log mode before the
 * JVM opens it. The jar leaves SQLite's default rollback journal, which syncs the disk several times
 * per write; with the log a write costs one append, which made the bulk load of the sample catalog
 * about 4x faster on disk (117 → 517 items/s measured here). The mode is stored in the file, so it
 * holds across restarts; an older Node without `node:sqlite` just keeps the default.
 */
async function useWriteAheadLog(file: string): Promise<void> {
  try {
    await withDatabase(file, (db) => db.exec('PRAGMA journal_mode=WAL'));
  } catch {
    // Not fatal: DynamoDB Local works on the default journal, only slower.
  }
}

/** Folds a stopped emulator's write-ahead log into its database file, so the file alone is the whole database. */
export async function checkpointDatabase(dataDir: string): Promise<void> {
  await withDatabase(path.join(dataDir, SHARED_DB_FILE), (db) => db.exec('PRAGMA wal_checkpoint(TRUNCATE)'));
}

async function withDatabase(file: string, work: (db: import('node:sqlite').DatabaseSync) => void): Promise<void> {
  const emitWarning = process.emitWarning;
  // node:sqlite announces itself as experimental on first import; that line is noise in `npm start`.
  process.emitWarning = (() => undefined) as typeof process.emitWarning;
  try {
    const { DatabaseSync } = await import('node:sqlite');
    const db = new DatabaseSync(file);
    try {
      work(db);
    } finally {
      db.close();
    }
  } finally {
    process.emitWarning = emitWarning;
  }
}
