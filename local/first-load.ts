import { rmSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { createStore, type Store } from '../functions/platform/store/dynamo-client.js';
import { logger } from '../functions/platform/observability.js';
import { cacheDatabase } from './database-cache.js';
import { checkpointDatabase, holdsDatabase, SHARED_DB_FILE, startDynamoDbLocal } from './dynamodb-local.js';

/** Memory-backed storage Linux mounts for every user; elsewhere a first load writes in place. */
const DEFAULT_STAGING_ROOT = '/dev/shm';
const STAGING_PREFIX = 'tutor-nexus-first-load-';
/** The full sample takes ~300 MB in DynamoDB Local's file; staging is skipped with less room than this. */
const MIN_STAGING_BYTES = 1024 ** 3;

export interface FirstLoadOptions {
  region: string;
  tableName: string;
  /** Fills the staged table (create it, load the sample catalog…). */
  load: (store: Store) => Promise<void>;
  stagingRoot?: string;
  /** Keeps the finished database in the machine's cache under this key (database-cache.ts), for later fresh data directories. */
  cache?: { key: string; env?: Record<string, string | undefined> };
}

export type FirstLoadOutcome = 'staged' | 'not-fresh' | 'no-staging';

/**
 * Fills a data directory that has no database yet in a staging copy on memory-backed storage, then
 * moves the finished file in. DynamoDB Local commits every item in a transaction of its own and
 * syncs the disk on each commit: on disk it writes ~1,000 items a second here, on tmpfs ~3,900 (the
 * same emulator and file format), so the full sample's first start is bound by the syncs, not the
 * work. The staged file is checkpointed (one file, no write-ahead log left to replay) and renamed
 * into place only when complete: an interrupted first load leaves no half database behind, and the
 * next start simply stages again.
 */
export async function stageFirstLoad(dbDir: string, options: FirstLoadOptions): Promise<FirstLoadOutcome> {
  if (holdsDatabase(dbDir)) return 'not-fresh';
  const root = options.stagingRoot ?? DEFAULT_STAGING_ROOT;
  if (!(await hasRoom(root))) return 'no-staging';
  await removeAbandonedStagings(root);
  const staging = await fs.mkdtemp(path.join(root, `${STAGING_PREFIX}${process.pid}-`));
  // A Ctrl-C during the load exits the process: the staged copy must not outlive it in memory.
  const removeStaging = () => rmSync(staging, { recursive: true, force: true });
  process.once('exit', removeStaging);
  try {
    const dynamo = await startDynamoDbLocal({ dataDir: staging });
    // Nothing else writes to the staged table: bulk writes commit 100 items at a time.
    const store: Store = { ...createStore({ region: options.region, tableName: options.tableName, dynamoDbEndpoint: dynamo.endpoint }), bulkPuts: 'transactions' };
    try {
      await options.load(store);
    } finally {
      store.doc.destroy();
      await dynamo.stop();
    }
    await checkpointDatabase(staging);
    // Not having a cache costs the next fresh data directory a load, never this one.
    if (options.cache) await cacheDatabase(options.cache.key, path.join(staging, SHARED_DB_FILE), options.cache.env).catch((error: unknown) => logger.warn('built database not cached', { error: error instanceof Error ? error.message : String(error) }));
    await fs.mkdir(dbDir, { recursive: true });
    const partial = path.join(dbDir, `${SHARED_DB_FILE}.partial`);
    await fs.copyFile(path.join(staging, SHARED_DB_FILE), partial);
    await fs.rename(partial, path.join(dbDir, SHARED_DB_FILE));
    return 'staged';
  } finally {
    removeStaging();
    process.removeListener('exit', removeStaging);
  }
}

async function hasRoom(root: string): Promise<boolean> {
  try {
    const stats = await fs.statfs(root);
    return stats.bavail * stats.bsize >= MIN_STAGING_BYTES;
  } catch {
    return false;
  }
}

/** Staging directories of processes that were killed before they could remove their own. */
async function removeAbandonedStagings(root: string): Promise<void> {
  const entries = await fs.readdir(root).catch(() => [] as string[]);
  for (const entry of entries) {
    if (!entry.startsWith(STAGING_PREFIX)) continue;
    const pid = Number(entry.slice(STAGING_PREFIX.length).split('-')[0]);
    if (Number.isInteger(pid) && pid > 0 && !isAlive(pid)) await fs.rm(path.join(root, entry), { recursive: true, force: true });
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
