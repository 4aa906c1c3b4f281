// The built sample database, cached per machine: a fresh data directory gets a copy of the database a first
// start built, instead of loading the sample again (ADR 0042). Outside the schema: the cache holds DynamoDB
// Local's own file, exactly as a load leaves it.
import { createHash } from 'node:crypto';
import { constants, existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sampleFiles, type SampleSet } from '../functions/ingest/sources.js';
import { STORAGE_FORMAT } from '../functions/platform/store/storage-format.js';
import { SHARED_DB_FILE } from './dynamodb-local.js';

/** Where the project keeps what it downloads or builds once per machine (the emulator, built databases). */
export function cacheRoot(env: Record<string, string | undefined> = process.env): string {
  return env.TN_CACHE_DIR || path.join(os.homedir(), '.cache', 'tutor-nexus');
}

/** Cached databases kept besides the newest: an older checkout or another table name may still want one. */
const KEPT = 3;

/**
 * The code that decides what a sample load stores: adapters and parsers, the catalog floor (ingestion, the
 * search index built at the end), keys and the store, transfer ingestion. A change to any of it is a new database (a parser fix must show).
 */
const CODE = ['functions/ingest', 'functions/catalog', 'functions/platform/store', 'functions/transfer', 'local/sample-catalog.ts', 'local/ensure-table.ts'];

export interface SampleDatabase {
  /** Names the cache entry: the sample set, the storage format and a hash of everything else. */
  key: string;
  /** The cached file, when one was built before. */
  cached?: string;
}

/**
 * The cache entry of a sample load: keyed by the storage format, the table's name, the sample set, the
 * bytes of its files and the code that loads them. Reading ~30 MB of sample and ~1 MB of code to hash
 * takes tens of milliseconds, and only a data directory without a database asks.
 */
export async function sampleDatabase(options: { set: SampleSet; tableName: string; sampleDir: string; root?: string; env?: Record<string, string | undefined> }): Promise<SampleDatabase> {
  const root = options.root ?? process.cwd();
  const hash = createHash('sha256').update(`storage format ${STORAGE_FORMAT}\ntable ${options.tableName}\nset ${options.set}\n`);
  for (const { source, file } of sampleFiles(options.set)) {
    hash.update(`sample ${source} ${file}\n`);
    hash.update(await fs.readFile(path.join(options.sampleDir, file)).catch(() => Buffer.alloc(0)));
  }
  for (const file of await codeFiles(root)) hash.update(`code ${file}\n`).update(await fs.readFile(path.join(root, file)));
  const key = `${options.set}-format${STORAGE_FORMAT}-${hash.digest('hex').slice(0, 16)}`;
  const file = path.join(databasesDir(options.env), key, SHARED_DB_FILE);
  return { key, ...(existsSync(file) ? { cached: file } : {}) };
}

const databasesDir = (env?: Record<string, string | undefined>) => path.join(cacheRoot(env), 'databases');

async function codeFiles(root: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (relative: string): Promise<void> => {
    const stats = await fs.stat(path.join(root, relative)).catch(() => undefined);
    if (stats?.isFile()) found.push(relative);
    if (!stats?.isDirectory()) return;
    for (const entry of await fs.readdir(path.join(root, relative))) if (entry.endsWith('.ts') || !entry.includes('.')) await walk(path.join(relative, entry));
  };
  for (const entry of CODE) await walk(entry);
  return found.sort();
}

/** Keeps a finished, checkpointed database file for later fresh data directories; an entry appears whole or not at all. */
export async function cacheDatabase(key: string, file: string, env?: Record<string, string | undefined>): Promise<void> {
  const dir = databasesDir(env);
  await fs.mkdir(dir, { recursive: true });
  const staging = await fs.mkdtemp(path.join(dir, `.${key}-`));
  try {
    await fs.copyFile(file, path.join(staging, SHARED_DB_FILE), constants.COPYFILE_FICLONE);
    await fs.rename(staging, path.join(dir, key)).catch(async (error: unknown) => {
      // Another start cached the same database first: theirs is as good.
      if (!existsSync(path.join(dir, key, SHARED_DB_FILE))) throw error;
    });
  } finally {
    await fs.rm(staging, { recursive: true, force: true });
  }
  await removeOlder(dir);
}

/** A copy of a cached database in a data directory that has none: renamed into place only once complete. */
export async function copyCachedDatabase(cached: string, dbDir: string): Promise<void> {
  await fs.mkdir(dbDir, { recursive: true });
  const partial = path.join(dbDir, `${SHARED_DB_FILE}.partial`);
  await fs.copyFile(cached, partial, constants.COPYFILE_FICLONE);
  await fs.rename(partial, path.join(dbDir, SHARED_DB_FILE));
  // Touched, so the cache keeps what is in use.
  const now = new Date();
  await fs.utimes(path.dirname(cached), now, now).catch(() => undefined);
}

async function removeOlder(dir: string): Promise<void> {
  const entries = await Promise.all(
    (await fs.readdir(dir)).filter((name) => !name.startsWith('.')).map(async (name) => ({ name, mtime: (await fs.stat(path.join(dir, name))).mtimeMs })),
  );
  for (const { name } of entries.sort((a, b) => b.mtime - a.mtime).slice(KEPT)) await fs.rm(path.join(dir, name), { recursive: true, force: true });
}
