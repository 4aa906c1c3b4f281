import { createHash } from 'node:crypto';
import { forEachAtOnce } from '../../platform/at-once.js';
import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Store } from '../../platform/store/dynamo-client.js';
import { catalogKeys, ENTITY } from '../../platform/store/keys.js';
import { queryAll } from '../../platform/store/query-all.js';
import { putAll } from '../../platform/store/batch-writes.js';
import { beginsWith, declareAccessPatterns, param } from '../../platform/store/access-patterns.js';
import { packBodies, unpackBodies } from '../../platform/store/packed-value.js';
import { groupId, isPackItem, listingOf, packItems, rowKey, rowsOf, type PackGroup, type PackListing, type StoredRow } from './record-packs.js';

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
  /**
   * Stored as a row of a pack (record-packs.ts) rather than as an item of its own; the pack lives in
   * partition `PK` when given (a subject level's pack), else in the item's own.
   */
  pack?: { key: string; scope: string; PK?: string; listing?: PackListing };
  /** Hash of the content (never of the ingestion time): equal hash, nothing to write. */
  hash: string;
  /** Attributes to store besides keys, ownership and status (entity, record, index keys…). */
  attributes: Record<string, unknown>;
}

const SCOPE_READS_AT_ONCE = 8;

interface Existing {
  row: StoredRow;
  /** The pack group holding it; undefined for an item of its own. */
  group?: string;
}

/**
 * Writes what changed, skips what did not, and retires (never deletes) what the source owned in the
 * scopes it sent and no longer has. Scopes not sent are left alone, so one file never retires
 * another's records and a file that failed to parse retires nothing; what the source no longer
 * lists is settled by the run's policy (`settleUnlisted`). Rows stored in packs follow the same
 * rules row by row; a row found stored the other way (an item before packs, say) moves, and its old
 * item is retired.
 */
export async function reconcile(store: Store, source: string, items: OwnedItem[], ingestedAt: string, settleUnlisted: UnlistedPolicy = () => 'retire') {
  const runScopes = new Set(items.map((i) => i.scope));
  // A packed row's fine scope can hold items of its own only if the source ever stored any.
  const ownItemsBefore = await recordOwnItems(store, source, items.some((i) => !i.pack));
  const readScopes = new Set(items.flatMap((i) => (!i.pack ? [i.scope] : ownItemsBefore ? [i.scope, i.pack.scope] : [i.pack.scope])));
  const stored = await readOwned(store, source, readScopes);

  const existing = new Map<string, Existing>();
  const groups = new Map<string, PackGroup>();
  const groupOf = (pk: string, key: string, scope: string, listing?: PackListing) => {
    const id = groupId(pk, key);
    if (!groups.has(id)) groups.set(id, { PK: pk, key, scope, rows: new Map(), storedParts: new Set() });
    const group = groups.get(id)!;
    group.listing = listing ?? group.listing;
    return group;
  };
  const changedGroups = new Set<string>();
  // Packs rows only left (moved to another pack) are written after the rest, so a run cut short
  // between the two leaves a row in both places (read once) rather than in neither.
  const vacated = new Set<string>();
  const vacate = (id: string) => {
    vacated.add(id);
    changedGroups.add(id);
  };
  // A row moved into a pack leaves its old item behind, retired, under the same key: the live one
  // counts, and an old item still active beside its pack row (a move cut short) is retired now. A row
  // moved between packs (a course's pack into its subject level's) leaves the old pack; if a move was cut
  // short and both hold it, the one kept counts and the other pack lets it go.
  const shadowed: Record<string, unknown>[] = [];
  // The old item leaves the fragment listing too: its pack lists it now.
  const movedAway = ({ GSI1PK: _listed, GSI1SK: _listedAs, ...row }: StoredRow, packKey: string | undefined) => ({ ...row, status: 'retired', retiredAt: ingestedAt, movedTo: packKey });
  const remember = (key: string, entry: Existing) => {
    const current = existing.get(key);
    // Active first, then a pack over an item, then a pack outside the row's own partition (where rows
    // move to, and the copy the course read prefers).
    const rank = (e: Existing) => (e.row.status === 'active' ? 4 : 0) + (e.group ? 2 : 0) + (e.group && groups.get(e.group)!.PK !== e.row.PK ? 1 : 0);
    const [kept, dropped] = !current || rank(entry) > rank(current) ? [entry, current] : [current, entry];
    existing.set(key, kept);
    if (!dropped || !kept.group) return;
    if (!dropped.group) {
      if (dropped.row.status === 'active') shadowed.push(movedAway(dropped.row, groups.get(kept.group)!.key));
    } else if (dropped.group !== kept.group) {
      groups.get(dropped.group)!.rows.delete(key);
      vacate(dropped.group);
    }
  };
  for (const item of stored.values()) {
    if (!isPackItem(item)) {
      remember(rowKey(String(item.PK), String(item.SK)), { row: item as StoredRow });
      continue;
    }
    const group = groupOf(String(item.PK), String(item.packKey), String(item.packScope), listingOf(item));
    group.storedParts.add(String(item.SK));
    for (const row of rowsOf(item)) {
      const key = rowKey(row.PK!, row.SK);
      group.rows.set(key, row);
      remember(key, { row, group: groupId(group.PK, group.key) });
    }
  }

  const toWrite: Record<string, unknown>[] = [];
  const retire = (key: string, entry: Existing) => settle(key, entry, { ...entry.row, status: 'retired', retiredAt: ingestedAt });
  const settle = (key: string, entry: Existing, row: StoredRow) => {
    if (!entry.group) return void toWrite.push(row);
    groups.get(entry.group)!.rows.set(key, row);
    changedGroups.add(entry.group);
  };
  let unchanged = 0;
  for (const item of items) {
    const key = rowKey(item.PK, item.SK);
    const previous = existing.get(key);
    existing.delete(key);
    const target = item.pack ? groupOf(item.pack.PK ?? item.PK, item.pack.key, item.pack.scope, item.pack.listing) : undefined;
    const targetId = target && groupId(target.PK, target.key);
    if (previous && previous.row.contentHash === item.hash && previous.row.status === 'active' && previous.group === targetId) {
      unchanged++;
      continue;
    }
    const row: StoredRow = { ...item.attributes, SK: item.SK, status: 'active', contentHash: item.hash, firstSeenAt: previous?.row.firstSeenAt ?? ingestedAt };
    if (target) {
      target.rows.set(key, { ...row, PK: item.PK, scope: item.scope });
      changedGroups.add(targetId!);
    } else {
      toWrite.push({ ...row, PK: item.PK, ...catalogKeys.bySource(source, item.scope, item.PK, item.SK) });
    }
    // Stored the other way before: the old place no longer speaks for it.
    if (previous && previous.group !== targetId) {
      if (previous.group) {
        groups.get(previous.group)!.rows.delete(key);
        vacate(previous.group);
      } else if (previous.row.status === 'active') {
        shadowed.push(movedAway(previous.row, target?.key));
      }
    }
  }
  let retired = 0;
  let rewritten = 0;
  for (const [key, entry] of existing) {
    // A pack may hold rows of scopes this run did not send: those are not this run's to settle.
    if (entry.row.status !== 'active' || (entry.group && !runScopes.has(String(entry.row.scope)))) continue;
    const settled = settleUnlisted(entry.row);
    if (settled === 'retire') {
      retire(key, entry);
      retired++;
    } else if (settled !== 'keep') {
      settle(key, entry, settled as StoredRow);
      rewritten++;
    }
  }
  const vacatedItems: Record<string, unknown>[] = [];
  for (const id of changedGroups) (vacated.has(id) ? vacatedItems : toWrite).push(...packItems(source, groups.get(id)!));
  await putAll(store, toWrite.map(packBodies));
  await putAll(store, [...vacatedItems, ...shadowed].map(packBodies));
  return { written: items.length - unchanged + rewritten, unchanged, retired };
}

/**
 * Whether the source stored any row as an item of its own (not in a pack) before this run, noting
 * first that this run does. Rows of the kinds kept in packs are owned by their pack scope; their fine
 * scopes hold items of their own only from runs before packs or from a source that also stores other
 * kinds, so a source that never did skips those reads (UBC grades: ~2,000 fine scopes a run, each an
 * empty Query). A source first seen by this check with runs recorded is taken to have stored some.
 */
async function recordOwnItems(store: Store, source: string, thisRunDoes: boolean): Promise<boolean> {
  const layout = (await store.doc.send(new GetCommand({ TableName: store.tableName, Key: catalogKeys.sourceLayout(source), ConsistentRead: true }))).Item;
  const before = layout ? layout.ownItems === true : await hasRuns(store, source);
  // Noted before the writes: a run cut short after them must not leave a layout that hides its items.
  if (!layout || (thisRunDoes && !before)) {
    await store.doc.send(new PutCommand({ TableName: store.tableName, Item: { ...catalogKeys.sourceLayout(source), entity: ENTITY.sourceLayout, ownItems: before || thisRunDoes } }));
  }
  return before;
}

async function hasRuns(store: Store, source: string): Promise<boolean> {
  const result = await store.doc.send(
    new QueryCommand({
      TableName: store.tableName,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': catalogKeys.ingestPartition(source), ':prefix': catalogKeys.ingestionRunPrefix },
      Limit: 1,
      ConsistentRead: true,
    }),
  );
  return (result.Items ?? []).length > 0;
}

/** Everything the source owns in the given scopes (GSI2), several scopes at a time. */
async function readOwned(store: Store, source: string, scopes: Set<string>): Promise<Map<string, Record<string, unknown>>> {
  // A combined file can carry thousands of scopes (UBC grades 2021–2025: one per campus, session and
  // subject), so scopes are read several at a time rather than one after another.
  const owned = new Map<string, Record<string, unknown>>();
  await forEachAtOnce([...scopes], SCOPE_READS_AT_ONCE, async (scope) => {
    const items = await queryAll(store, {
      IndexName: 'GSI2',
      KeyConditionExpression: 'GSI2PK = :pk',
      ExpressionAttributeValues: { ':pk': catalogKeys.sourceScope(source, scope) },
    });
    for (const item of items) owned.set(`${item.PK}|${item.SK}`, unpackBodies(item));
  });
  return owned;
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
    name: 'Whether a source ever stored rows outside packs (its layout)',
    entity: ENTITY.sourceLayout,
    operation: 'GetItem',
    index: 'table',
    key: catalogKeys.sourceLayout(param('source')),
    usedBy: ['ingestion (every run)'],
    notes: 'Consistent read; written when missing, and before the writes of a run that is the first to store an item of its own. Without it, fine scopes of packed rows are read too.',
  },
  {
    name: "Note a source's layout",
    entity: ENTITY.sourceLayout,
    operation: 'PutItem',
    index: 'table',
    key: catalogKeys.sourceLayout(param('source')),
    usedBy: ['ingestion (a source without a layout item yet; the first run to store an item of its own)'],
  },
  {
    name: 'Whether a source has any earlier run',
    entity: ENTITY.ingestionRun,
    operation: 'Query',
    index: 'table',
    key: { PK: catalogKeys.ingestPartition(param('source')), SK: beginsWith(catalogKeys.ingestionRunPrefix) },
    usedBy: ['ingestion (a source without a layout item yet)'],
    notes: 'Limit 1, consistent read: a source with runs from before the layout item is taken to have stored items of their own.',
  },
  {
    name: 'What a source owns within a scope',
    entity: [ENTITY.catalogRecord, ENTITY.catalogPack, ENTITY.transferRule, ENTITY.transferListing],
    operation: 'Query',
    index: 'GSI2',
    key: { GSI2PK: catalogKeys.sourceScope(param('source'), param('scope...')) },
    usedBy: ['ingestion'],
    notes: 'Content hashes decide skip / update; records not seen again are retired, never deleted.',
  },
  {
    name: 'Write what a source changed or retired',
    entity: [ENTITY.catalogRecord, ENTITY.catalogPack, ENTITY.transferRule, ENTITY.transferListing],
    operation: 'BatchWriteItem',
    index: 'table',
    keys: [
      catalogKeys.record(param('institution'), param('code'), param('recordId...')),
      { PK: catalogKeys.subjectLevelPartition(param('institution'), param('subject'), param('level')), SK: param('packKey...') },
      catalogKeys.transferRule(param('ruleId')),
    ],
    usedBy: ['ingestion'],
    notes: 'Course records and transfer listings in their course\'s partition (fragments, offerings, sections and grades in packs of their subject level\'s), transfer rules under their id; GSI2 keys name the owning source and scope. 25 a batch, 4 batches at a time, unprocessed items retried with backoff; the staged first load (ADR 0021) uses TransactWriteItems, 100 a transaction.',
  },
]);
