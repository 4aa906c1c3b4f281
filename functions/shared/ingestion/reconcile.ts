import { createHash } from 'node:crypto';
import type { Store } from '../store/dynamo-client.js';
import { catalogKeys, ENTITY } from '../store/keys.js';
import { queryAll } from '../store/query-all.js';
import { putAll } from '../store/batch-writes.js';
import { declareAccessPatterns, param } from '../store/access-patterns.js';

/**
 * What becomes of an active item the run's scopes own but the source no longer lists: retired (the
 * default), kept as it is, or rewritten (e.g. a transfer rule a later snapshot supersedes gets its end).
 */
export type UnlistedPolicy = (existing: Record<string, unknown>) => 'retire' | 'keep' | Record<string, unknown>;

/** One item a source owns: its key, the part of the source it belongs to, and what it says. */
export interface OwnedItem {
  PK: string;
  SK: string;
  scope: string;
  /** Hash of the content (never of the ingestion time): equal hash, nothing to write. */
  hash: string;
  /** Attributes to store besides keys, ownership and status (entity, record, index keys…). */
  attributes: Record<string, unknown>;
}

const SCOPE_READS_AT_ONCE = 8;

/**
 * Writes what changed, skips what did not, and retires (never deletes) what the source owned in the
 * scopes it sent and no longer has. Scopes not sent are left alone, so one file never retires
 * another's records and a file that failed to parse retires nothing; what the source no longer
 * lists is settled by the run's policy (`settleUnlisted`).
 */
export async function reconcile(store: Store, source: string, items: OwnedItem[], ingestedAt: string, settleUnlisted: UnlistedPolicy = () => 'retire') {
  const existing = new Map<string, Record<string, unknown>>();
  // A combined file can carry thousands of scopes (UBC grades 2021–2025: one per campus, session and
  // subject), so scopes are read several at a time rather than one after another.
  const scopes = [...new Set(items.map((i) => i.scope))];
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(SCOPE_READS_AT_ONCE, scopes.length) }, async () => {
      while (next < scopes.length) {
        const scope = scopes[next++]!;
        const owned = await queryAll(store, {
          IndexName: 'GSI2',
          KeyConditionExpression: 'GSI2PK = :pk',
          ExpressionAttributeValues: { ':pk': catalogKeys.sourceScope(source, scope) },
        });
        for (const item of owned) existing.set(`${item.PK}|${item.SK}`, item);
      }
    }),
  );

  const toWrite: Record<string, unknown>[] = [];
  let unchanged = 0;
  for (const item of items) {
    const key = `${item.PK}|${item.SK}`;
    const previous = existing.get(key);
    existing.delete(key);
    if (previous && previous.contentHash === item.hash && previous.status === 'active') {
      unchanged++;
      continue;
    }
    toWrite.push({
      ...item.attributes,
      PK: item.PK,
      SK: item.SK,
      ...catalogKeys.bySource(source, item.scope, item.PK, item.SK),
      status: 'active',
      contentHash: item.hash,
      firstSeenAt: previous?.firstSeenAt ?? ingestedAt,
    });
  }
  const toRetire: Record<string, unknown>[] = [];
  for (const item of existing.values()) {
    if (item.status !== 'active') continue;
    const settled = settleUnlisted(item);
    if (settled === 'retire') toRetire.push({ ...item, status: 'retired', retiredAt: ingestedAt });
    else if (settled !== 'keep') toWrite.push(settled);
  }
  await putAll(store, [...toWrite, ...toRetire]);
  return { written: toWrite.length, unchanged, retired: toRetire.length };
}

/** Hash of a value with keys sorted, so the same content always hashes the same. */
export function stableHash(value: unknown): string {
  return createHash('sha256').update(stableJson(value)).digest('hex');
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${stableJson((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

export const ACCESS_PATTERNS = /* @__PURE__ */ declareAccessPatterns(() => [
  {
    name: 'What a source owns within a scope',
    entity: [ENTITY.catalogRecord, ENTITY.transferRule, ENTITY.transferListing],
    operation: 'Query',
    index: 'GSI2',
    key: { GSI2PK: catalogKeys.sourceScope(param('source'), param('scope...')) },
    usedBy: ['ingestion'],
    notes: 'Content hashes decide skip / update; records not seen again are retired, never deleted.',
  },
  {
    name: 'Write what a source changed or retired',
    entity: [ENTITY.catalogRecord, ENTITY.transferRule, ENTITY.transferListing],
    operation: 'BatchWriteItem',
    index: 'table',
    keys: [catalogKeys.record(param('institution'), param('code'), param('recordId...')), catalogKeys.transferRule(param('ruleId'))],
    usedBy: ['ingestion'],
    notes: 'Course records and transfer listings in their course\'s partition, transfer rules under their id; GSI2 keys name the owning source and scope. 25 a batch, 4 batches at a time, unprocessed items retried with backoff.',
  },
]);
