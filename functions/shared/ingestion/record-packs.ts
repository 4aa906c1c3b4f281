import { catalogKeys, ENTITY } from '../store/keys.js';
import { decodeValue, encodeValue, unpackBodies } from '../store/packed-value.js';

/**
 * A pack is one item holding many owned rows of one partition (`rows`), each row what would otherwise
 * be an item of its own: its SK, fine scope, content hash, status and attributes. A pack is owned
 * (GSI2) under its pack scope, which may span several fine scopes: a run settles only the rows of the
 * scopes it sent and carries the others over untouched. A pack too large for one item is split into
 * parts (`<key>`, `<key>#2`, …); a part left over after a shrink stays, retired and empty.
 *
 * The rows are stored as one gzipped JSON value (`packedRows`, packed-value.ts): a pack is always read
 * whole, never filtered on a row attribute in the store. Packs written before hold `rows` as a list,
 * and read the same.
 */
export type StoredRow = Record<string, unknown> & { SK: string; scope?: string; status?: string; contentHash?: string; firstSeenAt?: string };

/** Under DynamoDB's 400 KB item limit with room for keys and attribute names. */
const PART_BUDGET_BYTES = 300_000;

export interface PackGroup {
  PK: string;
  key: string;
  scope: string;
  rows: Map<string, StoredRow>;
  /** SKs of the parts stored now (all rewritten, or retired when no longer needed). */
  storedParts: Set<string>;
}

export const isPackItem = (item: Record<string, unknown>): boolean => item.entity === ENTITY.catalogPack;

export const groupId = (pk: string, key: string) => `${pk}|${key}`;

/** The rows a stored pack part holds, each with its own owner (source and fine scope), as an item of its own would have. */
export function rowsOf(part: Record<string, unknown>): StoredRow[] {
  const rows = (part.packedRows ? decodeValue(part.packedRows as Uint8Array) : (part.rows ?? [])) as StoredRow[];
  const owner = (row: StoredRow) => (part.packSource && row.scope !== undefined ? catalogKeys.sourceScope(String(part.packSource), row.scope) : part.GSI2PK);
  return rows.map((row) => ({ ...row, PK: part.PK, GSI2PK: owner(row) }));
}

/** What a stored item holds, as its readers know it: an active pack's rows (a retired part's none), or the item itself. */
export function storedRows(item: Record<string, unknown>): Record<string, unknown>[] {
  if (!isPackItem(item)) return [unpackBodies(item)];
  return item.status === 'active' ? rowsOf(item) : [];
}

/** The items that store a group's rows, sorted by SK and cut into parts that fit an item. */
export function packItems(source: string, group: PackGroup): Record<string, unknown>[] {
  const rows = [...group.rows.values()].sort((a, b) => (a.SK < b.SK ? -1 : a.SK > b.SK ? 1 : 0)).map(({ PK: _pk, GSI2PK: _owner, ...row }) => row);
  const parts: StoredRow[][] = [[]];
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
  return {
    PK: group.PK,
    SK: sk,
    entity: ENTITY.catalogPack,
    packKey: group.key,
    packScope: group.scope,
    packSource: source,
    ...catalogKeys.bySource(source, group.scope, group.PK, sk),
    ...content,
    packedRows: encodeValue(rows),
  };
}

