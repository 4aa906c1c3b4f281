import { gunzipSync, gzipSync } from 'node:zlib';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { declareAccessPatterns, param } from '../../platform/store/access-patterns.js';
import { getAll } from '../../platform/store/batch-reads.js';
import { putAll } from '../../platform/store/batch-writes.js';
import type { Store } from '../../platform/store/dynamo-client.js';
import { catalogKeys, ENTITY } from '../../platform/store/keys.js';

/** Under DynamoDB's 400 KB item limit with room for the keys. */
const PART_BYTES = 380_000;
/** Artifacts of versions no longer current expire; a rebuild of the current one writes it again. */
const KEEP_DAYS = 30;

/**
 * The search index artifact of one catalog version in the table, gzip'd in parts: written by the
 * ingestion that made the version, read by a cold function in one GetItem and one BatchGetItem per
 * 100 parts. In the table rather than S3 so local and AWS share one code path and no function needs
 * another grant than the table's.
 */
export async function saveSearchIndex(store: Store, version: number, artifact: Uint8Array, now: Date): Promise<void> {
  const packed = gzipSync(artifact, { level: 1 });
  const ttl = Math.floor(now.getTime() / 1000) + KEEP_DAYS * 86_400;
  const parts: Record<string, unknown>[] = [];
  for (let offset = 0, part = 0; offset < packed.length; offset += PART_BYTES, part++) {
    parts.push({ ...catalogKeys.searchIndexPart(version, part), entity: ENTITY.searchIndexPart, bytes: packed.subarray(offset, offset + PART_BYTES), ttl });
  }
  await putAll(store, parts);
  // The manifest last: a reader that finds it finds every part.
  await store.doc.send(
    new PutCommand({ TableName: store.tableName, Item: { ...catalogKeys.searchIndexManifest(version), entity: ENTITY.searchIndexPart, parts: parts.length, bytes: packed.length, builtAt: now.toISOString(), ttl } }),
  );
}

/** The artifact stored for this version, or undefined when none is (yet). */
export async function loadSearchIndex(store: Store, version: number): Promise<Buffer | undefined> {
  const manifest = (await store.doc.send(new GetCommand({ TableName: store.tableName, Key: catalogKeys.searchIndexManifest(version) }))).Item;
  if (!manifest) return undefined;
  const count = Number(manifest.parts);
  const items = await getAll(store, Array.from({ length: count }, (_, part) => catalogKeys.searchIndexPart(version, part)));
  if (items.length !== count) return undefined;
  items.sort((a, b) => String(a.SK).localeCompare(String(b.SK)));
  return gunzipSync(Buffer.concat(items.map((item) => item.bytes as Uint8Array)));
}

export const ACCESS_PATTERNS = /* @__PURE__ */ declareAccessPatterns(() => {
  const VERSION = param('version');
  return [
    {
      name: 'Store the search index of a catalog version',
      entity: ENTITY.searchIndexPart,
      operation: 'BatchWriteItem',
      index: 'table',
      key: catalogKeys.searchIndexPart(VERSION, param('part')),
      usedBy: ['ingestion (after a run that changed the catalog)', 'npm start (sample load)', 'a course function that had to build the index'],
      notes: 'gzip parts of < 380 KB; TTL 30 days (the current version is written again by any rebuild).',
    },
    {
      name: 'Search index manifest (write)',
      entity: ENTITY.searchIndexPart,
      operation: 'PutItem',
      index: 'table',
      key: catalogKeys.searchIndexManifest(VERSION),
      usedBy: ['ingestion', 'npm start (sample load)'],
      notes: 'Written after every part, so a reader that sees it can read them all.',
    },
    {
      name: 'Search index manifest (read)',
      entity: ENTITY.searchIndexPart,
      operation: 'GetItem',
      index: 'table',
      key: catalogKeys.searchIndexManifest(VERSION),
      usedBy: ['tn_course_search', 'tn_course_similar', 'tn_course_get (close matches), on a cold function'],
    },
    {
      name: 'Search index parts',
      entity: ENTITY.searchIndexPart,
      operation: 'BatchGetItem',
      index: 'table',
      key: catalogKeys.searchIndexPart(VERSION, param('part')),
      usedBy: ['tn_course_search', 'tn_course_similar', 'tn_course_get (close matches), on a cold function'],
    },
  ];
});
