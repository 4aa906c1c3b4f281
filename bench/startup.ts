import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { databaseDirOf, startDynamoDbLocal } from '../local/dynamodb-local.js';
import { ensureTable } from '../local/ensure-table.js';
import { createStore } from '../functions/platform/store/dynamo-client.js';
import { putAll } from '../functions/platform/store/batch-writes.js';
import { ScanCommand } from '@aws-sdk/client-dynamodb';
import { bundleOf } from '../local/bundle.js';
import { cacheRoot } from '../local/database-cache.js';
import { round } from './stats.js';

const SERVER_ENTRY = 'local/run-server.ts';

/** `npm start` as a user runs it: seconds from spawn to the ready banner (the server answers then). */
function startToBanner(dataDir: string, extraEnv: Record<string, string> = {}, command = ['bin/local-server.mjs']): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, command, {
      env: { ...process.env, TN_DATA_DIR: dataDir, PORT: '0', TN_LOCAL_TOKEN: 'bench-startup-token', TN_LOG_LEVEL: 'ERROR', ...extraEnv },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let readyAfter: number | undefined;
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (readyAfter !== undefined || !output.includes('Tutor Nexus is running at')) return;
      readyAfter = (performance.now() - started) / 1000;
      child.kill('SIGTERM');
    });
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    // Resolved once it has stopped, so the next start finds the data directory free.
    child.once('exit', (code) => (readyAfter !== undefined ? resolve(readyAfter) : reject(new Error(`npm start exited (${code}) before it was ready: ${output.slice(-500)}`))));
  });
}

/** Batched writes of small items straight to DynamoDB Local on disk: what an in-place load costs per item. */
async function rawDiskWritesPerSecond(count: number): Promise<number> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tn-bench-raw-'));
  const dynamo = await startDynamoDbLocal({ dataDir: dir });
  const store = createStore({ region: 'us-west-2', tableName: 'tn-bench-raw', dynamoDbEndpoint: dynamo.endpoint });
  try {
    await ensureTable(store.client, store.tableName);
    const items = Array.from({ length: count }, (_, i) => ({ PK: `RAW#${i % 2000}`, SK: `ITEM#${i}`, payload: 'x'.repeat(600) }));
    const started = performance.now();
    await putAll(store, items);
    return count / ((performance.now() - started) / 1000);
  } finally {
    store.doc.destroy();
    await dynamo.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

/** DynamoDB Local alone on a data directory's database, to its first answer: the floor under any restart. */
async function dynamoDbLocalAlone(dataDir: string): Promise<number> {
  const started = performance.now();
  const dynamo = await startDynamoDbLocal({ dataDir: databaseDirOf(dataDir) });
  const seconds = (performance.now() - started) / 1000;
  await dynamo.stop();
  return seconds;
}

/** Seconds to bundle the server from nothing (what the first `npm start` after a change pays once). */
async function bundleFromScratch(): Promise<number> {
  const cacheDir = await mkdtemp(path.join(os.tmpdir(), 'tn-bench-bundle-'));
  try {
    const started = performance.now();
    await bundleOf(SERVER_ENTRY, { cacheDir });
    return (performance.now() - started) / 1000;
  } finally {
    await rm(cacheDir, { recursive: true, force: true });
  }
}

/** Items in a data directory's table (one paginated COUNT scan). */
async function itemsIn(dataDir: string): Promise<number> {
  const dynamo = await startDynamoDbLocal({ dataDir: databaseDirOf(dataDir) });
  const store = createStore({ region: 'us-west-2', tableName: 'tutor-nexus', dynamoDbEndpoint: dynamo.endpoint });
  try {
    let count = 0;
    let startKey: Record<string, never> | undefined;
    do {
      const page = await store.client.send(new ScanCommand({ TableName: store.tableName, Select: 'COUNT', ExclusiveStartKey: startKey }));
      count += page.Count ?? 0;
      startKey = page.LastEvaluatedKey as typeof startKey;
    } while (startKey);
    return count;
  } finally {
    store.doc.destroy();
    await dynamo.stop();
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * A machine's cache as a new machine has it once DynamoDB Local is downloaded: the emulator (linked from
 * this machine's cache: the download is network time, not start time) and no built database.
 */
async function newMachineCache(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tn-bench-cache-'));
  const real = cacheRoot();
  for (const entry of await readdir(real).catch(() => [] as string[])) if (entry !== 'databases') await symlink(path.join(real, entry), path.join(dir, entry));
  return dir;
}

/**
 * The full sample's first start on a fresh data directory, on a new machine (nothing cached: the sample
 * is loaded and the database it builds cached) and on a machine that has built it once (a fresh data
 * directory gets a copy of it), and restarts of it, beside, in the same run: DynamoDB Local alone on that
 * database (the floor under a restart), the same restart with the server loaded through tsx module by
 * module (as `npm start` did before the bundle), and a start without the sample.
 */
export async function measureStartup(options: { firstStarts: number; cachedStarts: number; restarts: number }) {
  const dataDirs: string[] = [];
  const freshDataDir = async () => {
    dataDirs.push(await mkdtemp(path.join(os.tmpdir(), 'tn-bench-start-')));
    return dataDirs.at(-1)!;
  };
  const caches: string[] = [];
  const emptyDir = await mkdtemp(path.join(os.tmpdir(), 'tn-bench-empty-'));
  try {
    // Built (when stale) before the clock starts: the first start after a code change pays this once.
    await bundleOf(SERVER_ENTRY);
    const bundleSeconds = await bundleFromScratch();
    // Several new machines: the ready-within-a-minute promise is about the slow start, not the typical one.
    const firstStarts: number[] = [];
    while (firstStarts.length < options.firstStarts) {
      caches.push(await newMachineCache());
      await Promise.all(dataDirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
      firstStarts.push(await startToBanner(await freshDataDir(), { TN_CACHE_DIR: caches.at(-1)! }));
    }
    // The last new machine has its database cached now: later fresh data directories copy it.
    const machineCache = { TN_CACHE_DIR: caches.at(-1)! };
    const cachedStarts: number[] = [];
    while (cachedStarts.length < options.cachedStarts) {
      await Promise.all(dataDirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
      cachedStarts.push(await startToBanner(await freshDataDir(), machineCache));
    }
    const dataDir = dataDirs.at(-1)!;
    const restarts: number[] = [];
    const throughTsx: number[] = [];
    const alone: number[] = [];
    // Interleaved, so that a machine slowing down mid-run weighs on each the same.
    for (let i = 0; i < options.restarts; i++) {
      restarts.push(await startToBanner(dataDir, machineCache));
      throughTsx.push(await startToBanner(dataDir, machineCache, ['--import', 'tsx', SERVER_ENTRY]));
      alone.push(await dynamoDbLocalAlone(dataDir));
    }
    const noSample: number[] = [];
    for (let i = 0; i < options.restarts; i++) noSample.push(await startToBanner(emptyDir, { ...machineCache, TN_SAMPLE_CATALOG: 'off' }));
    const items = await itemsIn(dataDir);
    const rawPerSecond = await rawDiskWritesPerSecond(10_000);
    const firstStartSeconds = median(firstStarts);
    return {
      firstStart: {
        name: 'npm start on a fresh data directory of a new machine (nothing cached), full sample, to the ready banner',
        medianSeconds: round(firstStartSeconds, 1),
        slowestSeconds: round(Math.max(...firstStarts), 1),
        runs: firstStarts.map((s) => round(s, 1)),
        itemsStored: items,
      },
      cachedFirstStart: {
        name: "npm start on a fresh data directory of a machine that built the sample's database once (a copy of it)",
        medianSeconds: round(median(cachedStarts), 2),
        slowestSeconds: round(Math.max(...cachedStarts), 2),
        runs: cachedStarts.map((s) => round(s, 2)),
      },
      inPlaceWriteEstimate: { name: 'the same item count written in place on disk at the raw batched rate (writes alone)', seconds: round(items / rawPerSecond, 1) },
      restart: { name: 'npm start again on that directory', medianSeconds: round(median(restarts), 2), runs: restarts.map((s) => round(s, 2)) },
      restartThroughTsx: { name: 'the same restart, the server loaded through tsx module by module', medianSeconds: round(median(throughTsx), 2), runs: throughTsx.map((s) => round(s, 2)) },
      dynamoDbLocalAlone: { name: "DynamoDB Local alone on that directory's database, to its first answer", medianSeconds: round(median(alone), 2) },
      startWithoutSample: { name: 'npm start with TN_SAMPLE_CATALOG=off on an empty directory (JVM, server, new table)', medianSeconds: round(median(noSample), 2) },
      bundle: { name: 'bundling the server from nothing (once after a code change)', seconds: round(bundleSeconds, 1) },
      rawDiskWrites: { name: 'batched writes of 600-byte items to DynamoDB Local on disk', itemsPerSecond: round(rawPerSecond, 0) },
      ratios: {
        firstStartVsInPlaceWrites: round(firstStartSeconds / (items / rawPerSecond), 2),
        cachedFirstStartVsNewMachine: round(median(cachedStarts) / firstStartSeconds, 2),
        cachedFirstStartVsRestart: round(median(cachedStarts) / median(restarts), 2),
        restartVsStartWithoutSample: round(median(restarts) / median(noSample), 2),
        restartVsRestartThroughTsx: round(median(restarts) / median(throughTsx), 2),
        restartVsDynamoDbLocalAlone: round(median(restarts) / median(alone), 2),
      },
    };
  } finally {
    await Promise.all([...dataDirs, ...caches, emptyDir].map((dir) => rm(dir, { recursive: true, force: true })));
  }
}
