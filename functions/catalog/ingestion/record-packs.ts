import { catalogKeys, ENTITY } from '../../platform/store/keys.js';
import { decodeValue, encodeValue, unpackBodies } from '../../platform/store/packed-value.js';

/**
 * A pack is one item holding many owned rows, each row what would otherwise be an item of its own: its
 * key, fine scope, content hash, status and attributes. A row keeps the partition it belongs to (its
 * course) even when its pack lives elsewhere: a subject level's packs (CMPT 2xx) hold the rows of all
 * its courses, one item where there would be one per course (ADR 0023). A pack is owned
 * (GSI2) under its pack scope, which may span several fine scopes: a run settles only the rows of the
 * scopes it sent and carries the others over untouched. A pack too large for one item is split into
 * parts (`<key>`, `<key>#2`, …); a part left over after a shrink stays, retired and empty.
 *
 * The rows are stored per partition, each partition's as one gzipped JSON value (`rowsByPartition`,
 * packed-value.ts): a reader of one course projects its own entry and decodes no other course's rows,
 * and nothing filters on a row attribute in the store. Packs written before hold every row as one
 * value (`packedRows`) or as a list (`rows`), all of the pack's own partition, and read the same.
 */
export type StoredRow = Record<string, unknown> & { SK: string; PK?: string; scope?: string; status?: string; contentHash?: string; firstSeenAt?: string };

/** The attribute holding a pack's rows by partition; `rowsByPartition.#p` projects one partition's. */
export const ROWS_BY_PARTITION = 'rowsByPartition';

/** Under DynamoDB's 400 KB item limit with room for keys and attribute names. */
const PART_BUDGET_BYTES = 300_000;

export interface PackGroup {
  PK: string;
  key: string;
  scope: string;
  /** By `rowKey`: rows of several partitions may share an SK. */
  rows: Map<string, StoredRow>;
  /** SKs of the parts stored now (all rewritten, or retired when no longer needed). */
  storedParts: Set<string>;
  /** Keys listing the pack's active parts on GSI1 (a subject level's course fragments under their institution), if any. */
  listing?: PackListing;
}

export interface PackListing {
  GSI1PK: string;
  GSI1SK: string;
}

/** The listing keys a stored part carries, so a group the run only retires from keeps them. */
export const listingOf = (part: Record<string, unknown>): PackListing | undefined =>
  typeof part.GSI1PK === 'string' && typeof part.GSI1SK === 'string' ? { GSI1PK: part.GSI1PK, GSI1SK: part.GSI1SK } : undefined;

export const isPackItem = (item: Record<string, unknown>): boolean => item.entity === ENTITY.catalogPack;

export const groupId = (pk: string, key: string) => `${pk}|${key}`;

/** A row's identity: its own partition and SK, wherever its pack is stored. */
export const rowKey = (pk: string, sk: string) => `${pk}|${sk}`;

/**
 * The rows a stored pack part holds (or, read with a projection, the partitions it projected), each
 * with its own partition and owner (source and fine scope), as an item of its own would have.
 */
export function rowsOf(part: Record<string, unknown>): StoredRow[] {
  const owner = (row: StoredRow) => (part.packSource && row.scope !== undefined ? catalogKeys.sourceScope(String(part.packSource), row.scope) : part.GSI2PK);
  return partitionsOf(part).flatMap(([pk, rows]) => rows.map((row) => ({ ...row, PK: pk, GSI2PK: owner(row) })));
}

function partitionsOf(part: Record<string, unknown>): [string, StoredRow[]][] {
  const byPartition = part[ROWS_BY_PARTITION] as Record<string, Uint8Array> | undefined;
  if (byPartition) return Object.entries(byPartition).map(([pk, bytes]) => [pk, decodeValue(bytes) as StoredRow[]]);
  return [[String(part.PK), (part.packedRows ? decodeValue(part.packedRows as Uint8Array) : (part.rows ?? [])) as StoredRow[]]];
}

/** What a stored item holds, as its readers know it: an active pack's rows (a retired part's none), or the item itself. */
export function storedRows(item: Record<string, unknown>): Record<string, unknown>[] {
  if (!isPackItem(item)) return [unpackBodies(item)];
  return item.status === 'active' ? rowsOf(item) : [];
}

/**
 * The items that store a group's rows, sorted by partition and SK and cut into parts that fit an item.
 * A group left without rows (all moved to another pack) keeps its stored parts, retired and empty.
 */
export function packItems(source: string, group: PackGroup): Record<string, unknown>[] {
  const order = (row: StoredRow) => rowKey(row.PK ?? group.PK, row.SK);
  const rows = [...group.rows.values()].sort((a, b) => (order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0));
  const parts: StoredRow[][] = rows.length ? [[]] : [];
  let bytes = 0;
  for (const row of rows) {
    const size = JSON.stringify(row).length;
    if (bytes + size > PART_BUDGET_BYTES && parts.at(-1)!.length) {
      parts.push([]);
      bytes = 0;
    }
    parts.at(-1)!.push(row);
    bytes += size;
  }
  const partSk = (index: number) => (index === 0 ? group.key : `${group.key}#${index + 1}`);
  const items = parts.map((partRows, index) => packItem(source, group, partSk(index), { status: 'active', rows: partRows }));
  const written = new Set(items.map((item) => item.SK));
  for (const sk of group.storedParts) if (!written.has(sk)) items.push(packItem(source, group, sk, { status: 'retired', rows: [] }));
  return items;
}

function packItem(source: string, group: PackGroup, sk: string, { rows, ...content }: { status: string; rows: StoredRow[] }): Record<string, unknown> {
  const byPartition = new Map<string, StoredRow[]>();
  for (const { PK, GSI2PK: _owner, ...row } of rows) {
    const pk = PK ?? group.PK;
    if (!byPartition.has(pk)) byPartition.set(pk, []);
    byPartition.get(pk)!.push(row);
  }
  return {
    PK: group.PK,
    SK: sk,
    entity: ENTITY.catalogPack,
    packKey: group.key,
    packScope: group.scope,
    packSource: source,
    ...catalogKeys.bySource(source, group.scope, group.PK, sk),
    // A retired part holds nothing to list: it leaves the listing, so listing reads stay lean.
    ...(content.status === 'active' ? group.listing : undefined),
    ...content,
    [ROWS_BY_PARTITION]: Object.fromEntries([...byPartition].map(([pk, partitionRows]) => [pk, encodeValue(partitionRows)])),
  };
}
