import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SHARED_DB_FILE, startDynamoDbLocal } from '../../local/dynamodb-local.js';
import { ensureTable } from '../../local/ensure-table.js';
import { stageFirstLoad } from '../../local/first-load.js';
import { createStore } from '../../functions/platform/store/dynamo-client.js';
import { getCatalogVersion, loadedSampleFiles, markSampleFileLoaded } from '../../functions/catalog/catalog-store.js';
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

describe('a staged first start', () => {
  it('answers first and builds the search index behind its banner, where a search finds it', { timeout: 240_000 }, async () => {
    const server = await startTestServer({ TN_DYNAMODB_ENDPOINT: '', TN_TABLE_NAME: 'tutor-nexus', TN_SAMPLE_CATALOG: 'core' });
    try {
      const store = server.services.store;
      const version = await getCatalogVersion(store);
      expect(version).toBeGreaterThan(0);
      // The staged load stored no index; the server builds and stores this version's behind its banner.
      let artifact: Buffer | undefined;
      for (let waited = 0; !artifact && waited < 60_000; waited += 250) {
        artifact = await unrecorded(() => loadSearchIndex(store, version));
        if (!artifact) await new Promise((resolve) => setTimeout(resolve, 250));
      }
      expect(artifact).toBeDefined();
      const search = await server.rest('tn_course_search', { query: 'CMPT 225' });
      expect(search.status).toBe(200);
      expect(JSON.stringify(search.body)).toContain('CMPT 225');
    } finally {
      await server.close();
    }
  });
});
