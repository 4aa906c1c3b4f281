import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { catalogIndexFor, publishCatalogIndex } from '../../functions/catalog/catalog-index.js';
import { getCatalogVersion } from '../../functions/catalog/catalog-store.js';
import { decodeIndex } from '../../functions/catalog/search/index-codec.js';
import { loadSearchIndex, saveSearchIndex } from '../../functions/catalog/search/search-index-store.js';
import { ingestSource } from '../../functions/ingest/ingest-source.js';
import { sourceNamed } from '../../functions/ingest/sources.js';
import { createStore } from '../../functions/platform/store/dynamo-client.js';
import { commandsDuring } from '../support/store-commands.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

describe('search index artifact on the shared sample catalog', () => {
  const shared = createStore({ region: 'us-west-2', tableName: inject('sharedCatalogTable'), dynamoDbEndpoint: inject('dynamoDbEndpoint') });
  afterAll(() => shared.doc.destroy());

  it('is stored by the sample load for the current catalog version, and a cold start loads it without reading the catalog', async () => {
    const version = await getCatalogVersion(shared);
    const artifact = await loadSearchIndex(shared, version);
    expect(artifact).toBeDefined();
    expect(decodeIndex(artifact!).size).toBeGreaterThan(1000);
    const { result: loaded, sent } = await commandsDuring(shared, () => catalogIndexFor(shared, version));
    expect(loaded.size).toBeGreaterThan(1000);
    expect([...new Set(sent)].sort()).toEqual(['BatchGetItemCommand', 'GetItemCommand']);
  });
});

describe('search index artifact across ingestions', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => server?.close());

  it('is published for the version an ingestion made, and a version without one is built once and stored', async () => {
    const store = server.services.store;
    const outlines = JSON.parse(await readFile('data/sample/sfu-outlines/outlines.json', 'utf8')) as { dept: string }[];
    const file = path.join(server.dataDir, 'cmpt.json');
    await writeFile(file, JSON.stringify(outlines.filter((o) => o.dept === 'CMPT').slice(0, 30)));
    const run = await ingestSource(store, sourceNamed('sfu-outlines')!, file);
    expect(run.catalogVersion).toBeDefined();
    const published = await publishCatalogIndex(store);
    expect(published).toMatchObject({ version: run.catalogVersion });
    expect(published.courses).toBeGreaterThan(10);
    expect((await catalogIndexFor(store, published.version)).query('cmpt', { institution: 'sfu' }).length).toBeGreaterThan(10);

    await writeFile(file, JSON.stringify(outlines.filter((o) => o.dept === 'CMPT').slice(0, 35)));
    const next = await ingestSource(store, sourceNamed('sfu-outlines')!, file);
    expect(await loadSearchIndex(store, next.catalogVersion!)).toBeUndefined();
    const built = await catalogIndexFor(store, next.catalogVersion!);
    expect(built.size).toBeGreaterThan(published.courses);
    expect(decodeIndex((await loadSearchIndex(store, next.catalogVersion!))!).size).toBe(built.size);
  });

  it('rebuilds an artifact an earlier release stored in its format, and stores the current one in its place', async () => {
    const store = server.services.store;
    const { version } = await publishCatalogIndex(store);
    const current = (await loadSearchIndex(store, version))!;
    // The same artifact as a release before ADR 0033 would have labelled it (format 3: no course standing, no subject names).
    const earlier = Buffer.from(current.toString('latin1').replace(/"format":\d+/, '"format":3'), 'latin1');
    await saveSearchIndex(store, version, earlier, new Date());
    expect(() => decodeIndex(earlier)).toThrow(/format 3/);
    const index = await catalogIndexFor(store, version);
    expect(index.query('cmpt 2', { institution: 'sfu' })[0]?.course.code).toMatch(/^CMPT 2/);
    const stored = decodeIndex((await loadSearchIndex(store, version))!);
    expect(stored.size).toBe(index.size);
    expect(stored.query('intro programming').map((h) => h.course.ref)).toEqual(index.query('intro programming').map((h) => h.course.ref));
  });
});
