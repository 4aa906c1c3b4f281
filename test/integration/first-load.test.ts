import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SHARED_DB_FILE, startDynamoDbLocal } from '../../local/dynamodb-local.js';
import { ensureTable } from '../../local/ensure-table.js';
import { stageFirstLoad } from '../../local/first-load.js';
import { createStore } from '../../functions/platform/store/dynamo-client.js';
import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { getCatalogVersion, loadedSampleFiles, markSampleFileLoaded, readCatalogVersion } from '../../functions/catalog/catalog-store.js';
import { STORAGE_FORMAT } from '../../functions/platform/store/storage-format.js';
import type { Store } from '../../functions/platform/store/dynamo-client.js';
import { loadSearchIndex } from '../../functions/catalog/search/search-index-store.js';
import { unrecorded } from '../support/store/command-recorder.js';
import { startTestServer } from '../support/test-server.js';

const TIMEOUT = 120_000;
const TABLE = 'first-load-test';
const dirs: string[] = [];

async function tempDir(name: string): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), `tn-${name}-`));
  dirs.push(dir);
  return dir;
}

afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

const FILE = 'sfu-catalog-2026/outlines-all.json';

describe('a fresh data directory is filled in a staged copy', () => {
  it('moves the finished database in, whole, and leaves no staging behind', { timeout: TIMEOUT }, async () => {
    const dbDir = path.join(await tempDir('data'), 'dynamodb');
    const stagingRoot = await tempDir('staging');
    const outcome = await stageFirstLoad(dbDir, {
      region: 'local',
      tableName: TABLE,
      stagingRoot,
      load: async (store) => {
        await ensureTable(store.client, TABLE);
        await markSampleFileLoaded(store, FILE, { runId: '01JRUN', finishedAt: '2026-11-24T00:00:00.000Z' });
      },
    });
    expect(outcome).toBe('staged');
    expect(await readdir(dbDir)).toEqual([SHARED_DB_FILE]);
    expect(await readdir(stagingRoot)).toEqual([]);

    // What the staged emulator wrote is what the data directory's own emulator reads.
    const dynamo = await startDynamoDbLocal({ dataDir: dbDir });
    const store = createStore({ region: 'local', tableName: TABLE, dynamoDbEndpoint: dynamo.endpoint });
    try {
      expect([...(await loadedSampleFiles(store))]).toEqual([FILE]);
    } finally {
      store.doc.destroy();
      await dynamo.stop();
    }

    // A directory that has a database is never staged over.
    let loaded = false;
    const again = await stageFirstLoad(dbDir, { region: 'local', tableName: TABLE, stagingRoot, load: async () => void (loaded = true) });
    expect(again).toBe('not-fresh');
    expect(loaded).toBe(false);
  });

  it('leaves the data directory without a database when the load fails', { timeout: TIMEOUT }, async () => {
    const dbDir = path.join(await tempDir('data'), 'dynamodb');
    const stagingRoot = await tempDir('staging');
    const load = stageFirstLoad(dbDir, {
      region: 'local',
      tableName: TABLE,
      stagingRoot,
      load: async (store) => {
        await ensureTable(store.client, TABLE);
        throw new Error('source unreadable');
      },
    });
    await expect(load).rejects.toThrow('source unreadable');
    expect(existsSync(path.join(dbDir, SHARED_DB_FILE))).toBe(false);
    expect(await readdir(stagingRoot)).toEqual([]);
  });

  it("removes a killed process's abandoned staging, and keeps a live one's", { timeout: TIMEOUT }, async () => {
    const stagingRoot = await tempDir('staging');
    const abandoned = path.join(stagingRoot, 'tutor-nexus-first-load-2147483646-abc');
    const live = path.join(stagingRoot, `tutor-nexus-first-load-${process.pid}-def`);
    await mkdir(abandoned);
    await mkdir(live);
    const dbDir = path.join(await tempDir('data'), 'dynamodb');
    await stageFirstLoad(dbDir, { region: 'local', tableName: TABLE, stagingRoot, load: (store) => ensureTable(store.client, TABLE).then(() => undefined) });
    expect(await readdir(stagingRoot)).toEqual([path.basename(live)]);
  });

  it('says so when there is nowhere to stage', async () => {
    const dbDir = path.join(await tempDir('data'), 'dynamodb');
    const outcome = await stageFirstLoad(dbDir, { region: 'local', tableName: TABLE, stagingRoot: '/nonexistent/staging', load: async () => undefined });
    expect(outcome).toBe('no-staging');
    expect(existsSync(dbDir)).toBe(false);
  });
});

describe('a first start of a data directory', () => {
  const env = () => ({ TN_DYNAMODB_ENDPOINT: '', TN_TABLE_NAME: 'tutor-nexus', TN_SAMPLE_CATALOG: 'core', TN_CACHE_DIR: cacheDir });
  let cacheDir: string;
  beforeAll(async () => {
    cacheDir = await mkdtemp(path.join(os.tmpdir(), 'tn-cache-'));
  });
  afterAll(async () => {
    await rm(cacheDir, { recursive: true, force: true });
  });
  const runRecords = async (store: Store) =>
    (await unrecorded(() => store.doc.send(new QueryCommand({ TableName: store.tableName, KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': 'INGEST#sfu-outlines' } })))).Items!.filter((item) => String(item.SK).startsWith('RUN#')).length;

  it('loads the sample once per machine: the database it builds (search index included) is cached, and the next fresh data directory gets a copy', { timeout: 300_000 }, async () => {
    const first = await startTestServer(env());
    let version: number;
    let runs: number;
    try {
      version = await getCatalogVersion(first.services.store);
      expect(version).toBeGreaterThan(0);
      // The index of this version was stored by the load itself, before the server answered.
      expect(await unrecorded(() => loadSearchIndex(first.services.store, version))).toBeDefined();
      runs = await runRecords(first.services.store);
      expect(runs).toBeGreaterThan(0);
    } finally {
      await first.close();
    }
    const cached = await readdir(path.join(cacheDir, 'databases'));
    expect(cached.filter((name) => !name.startsWith('.'))).toEqual([expect.stringMatching(/^core-format\d+-[0-9a-f]{16}$/)]);

    const second = await startTestServer(env());
    try {
      // Nothing was loaded again: the same catalog version, the same runs, and it answers at once.
      expect(await getCatalogVersion(second.services.store)).toBe(version);
      expect(await runRecords(second.services.store)).toBe(runs);
      expect(await unrecorded(() => loadSearchIndex(second.services.store, version))).toBeDefined();
      const search = await second.rest('tn_course_search', { query: 'CMPT 225' });
      expect(JSON.stringify(search.body)).toContain('CMPT 225');
      expect((await second.rest('tn_course_get', { course: 'sfu:CMPT 225' })).status).toBe(200);
    } finally {
      await second.close();
    }
  });

  it('rebuilds a data directory of an older storage format from the sample, saying so and keeping the old database aside', { timeout: 300_000 }, async () => {
    const dataDir = await tempDir('older');
    const dbDir = path.join(dataDir, 'dynamodb');
    const dynamo = await startDynamoDbLocal({ dataDir: dbDir });
    const old = createStore({ region: 'local', tableName: 'tutor-nexus', dynamoDbEndpoint: dynamo.endpoint });
    // What a format-1 start left: a version that names no format, a subject level's pack, sample markers without a format.
    const pack = { PK: 'SUBJECT#sfu#CMPT#2', SK: 'pack#grades#sfu-outlines#all', entity: 'CatalogPack', status: 'active' };
    try {
      await ensureTable(old.client, 'tutor-nexus');
      await unrecorded(async () => {
        await old.doc.send(new PutCommand({ TableName: 'tutor-nexus', Item: { PK: 'CATALOG', SK: 'VERSION', entity: 'CatalogVersion', version: 41 } }));
        await old.doc.send(new PutCommand({ TableName: 'tutor-nexus', Item: pack }));
        await old.doc.send(new PutCommand({ TableName: 'tutor-nexus', Item: { PK: 'CATALOG', SK: 'SAMPLE#sfu-outlines/outlines.json', entity: 'SampleCatalogMarker' } }));
      });
    } finally {
      old.doc.destroy();
      await dynamo.stop();
    }
    const notices: string[] = [];
    const server = await startTestServer(env(), { dataDir, notice: (message) => notices.push(message) });
    try {
      expect(notices).toEqual([expect.stringContaining('held catalog storage format 1')]);
      const store = server.services.store;
      expect(await readCatalogVersion(store)).toMatchObject({ storageFormat: STORAGE_FORMAT });
      expect((await unrecorded(() => store.doc.send(new GetCommand({ TableName: store.tableName, Key: { PK: pack.PK, SK: pack.SK } })))).Item).toBeUndefined();
      expect((await server.rest('tn_course_get', { course: 'sfu:CMPT 225' })).status).toBe(200);
    } finally {
      await server.stop();
    }
    const kept = (await readdir(dataDir)).filter((name) => name.startsWith('dynamodb-format-1-'));
    expect(kept).toHaveLength(1);
    expect(await readdir(path.join(dataDir, kept[0]!))).toContain(SHARED_DB_FILE);
  });
});
