import { gunzipSync, gzipSync } from 'node:zlib';
import { beginsWith, declareAccessPatterns, param } from '../platform/store/access-patterns.js';
import { putAll } from '../platform/store/batch-writes.js';
import type { Store } from '../platform/store/dynamo-client.js';
import { catalogKeys, ENTITY } from '../platform/store/keys.js';
import { queryAll } from '../platform/store/query-all.js';
import type { RequiredBy, Requirer } from './required-by.js';

/** Under DynamoDB's 400 KB item limit with room for the keys. */
const PART_BYTES = 380_000;
/** Like the search index: versions no longer current expire, and a rebuild writes the current one again. */
const KEEP_DAYS = 30;

/**
 * "Leads to" of one catalog version, an item (or a few, gzip'd in parts) per institution: written with
 * the search index by the ingestion that made the version, read by tn_course_prereqs in one Query.
 * Every part says how many there are, so a write cut short reads as missing, never as partial.
 */
export async function saveRequiredBy(store: Store, version: number, graph: RequiredBy, now: Date): Promise<void> {
  const ttl = Math.floor(now.getTime() / 1000) + KEEP_DAYS * 86_400;
  const items: Record<string, unknown>[] = [];
  for (const [institution, byCode] of graph) {
    const packed = gzipSync(JSON.stringify(byCode), { level: 6 });
    const parts = Math.max(1, Math.ceil(packed.length / PART_BYTES));
    for (let part = 0; part < parts; part++) {
      items.push({ ...catalogKeys.requiredByPart(version, institution, part), entity: ENTITY.requiredByPart, parts, bytes: packed.subarray(part * PART_BYTES, (part + 1) * PART_BYTES), ttl });
    }
  }
  await putAll(store, items);
}

/** One institution's courses and who requires each, or undefined when this version has none stored. */
export async function loadRequiredBy(store: Store, version: number, institution: string): Promise<Record<string, Requirer[]> | undefined> {
  const items = await queryAll(store, {
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :institution)',
    ExpressionAttributeValues: { ':pk': catalogKeys.requiredByPartition(version), ':institution': `${institution}#` },
  });
  if (!items.length || items.length !== Number(items[0]!.parts)) return undefined;
  items.sort((a, b) => String(a.SK).localeCompare(String(b.SK)));
  return JSON.parse(gunzipSync(Buffer.concat(items.map((item) => item.bytes as Uint8Array))).toString('utf8')) as Record<string, Requirer[]>;
}

export const ACCESS_PATTERNS = /* @__PURE__ */ declareAccessPatterns(() => {
  const VERSION = param('version');
  const INSTITUTION = param('institution');
  return [
    {
      name: 'Store which courses require each course (leads to), per institution and catalog version',
      entity: ENTITY.requiredByPart,
      operation: 'BatchWriteItem',
      index: 'table',
      key: catalogKeys.requiredByPart(VERSION, INSTITUTION, param('part')),
      usedBy: ['ingestion (with the search index, after a run that changed the catalog)', 'npm start (sample load)', 'tn_course_prereqs that found none stored for its institution'],
      notes: 'gzip JSON of code → [requiring code, title][] per institution, in parts of < 380 KB each naming the count; TTL 30 days.',
    },
    {
      name: "An institution's leads-to lists",
      entity: ENTITY.requiredByPart,
      operation: 'Query',
      index: 'table',
      key: { PK: catalogKeys.requiredByPartition(VERSION), SK: beginsWith(`${INSTITUTION}#`) },
      usedBy: ['tn_course_prereqs (leadsTo), once per institution and catalog version in a warm function'],
    },
  ];
});
