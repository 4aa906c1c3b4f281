import { createHash } from 'node:crypto';
import type { Entity } from '../../platform/store/access-patterns.js';
import { catalogKeys } from '../../platform/store/keys.js';
import { decodeValue, encodeValue } from '../../platform/store/packed-value.js';

/**
 * An aggregate is one item holding the rows one source owns about one thing within one scope (ADR 0042):
 * a course's fragment and offerings from a catalogue, its sections in a term, its grades in a session, a
 * transfer rule, the rules a course sends or receives. Each row is what an item of its own would be (its
 * identity within the aggregate, fine scope, content hash, status, first seen) and history stays inside:
 * a retired row is kept, so an aggregate is always written whole and never loses a row. The rows are one
 * gzipped JSON value (`rows`): nothing filters on a row in the store, and the bytes are what is charged.
 */
export type StoredRow = Record<string, unknown> & {
  id: string;
  scope: string;
  status: 'active' | 'retired';
  contentHash: string;
  firstSeenAt: string;
  retiredAt?: string;
  /** Active but no longer listed by its source (a transfer rule a later snapshot ends): kept as the source's policy says. */
  unlisted?: true;
};

export interface AggregateKey {
  PK: string;
  SK: string;
}

/** Where rows are stored and how the item is found besides its key. */
export interface AggregateTarget extends AggregateKey {
  entity: Entity;
  /** The scope the item is owned under (GSI2): its rows' scope, or one spanning several (a course's rules towards every receiver). */
  ownerScope: string;
  /** GSI1 keys the item is listed under (an institution's fragments, a pair's rules). */
  listing?: { GSI1PK: string; GSI1SK: string };
}

export interface StoredAggregate extends AggregateTarget {
  rows: StoredRow[];
  /** Incremented by every write: a write is conditional on the revision it read. */
  rev: number;
}

/** Under DynamoDB's 400 KB item limit, counted on what is stored (the gzipped rows), with room for keys and names. */
export const MAX_AGGREGATE_BYTES = 350_000;

export class AggregateTooLarge extends Error {}

export const aggregateId = (key: AggregateKey) => `${key.PK}|${key.SK}`;

/** The item storing an aggregate. */
export function aggregateItem(source: string, aggregate: StoredAggregate): Record<string, unknown> {
  const rows = encodeValue(aggregate.rows);
  const listedHash = listedHashOf(aggregate.rows);
  const item = {
    PK: aggregate.PK,
    SK: aggregate.SK,
    entity: aggregate.entity,
    ...catalogKeys.bySource(source, aggregate.ownerScope),
    // A listed item says whether anything in it is active, for listings that page over active ones (a pair's rules).
    ...(aggregate.listing ? { ...aggregate.listing, status: aggregate.rows.some((row) => row.status === 'active') ? 'active' : 'retired' } : {}),
    rev: aggregate.rev,
    ...(listedHash ? { listedHash } : {}),
    rows,
  };
  const bytes = rows.byteLength + JSON.stringify({ ...item, rows: '' }).length;
  if (bytes > MAX_AGGREGATE_BYTES) {
    throw new AggregateTooLarge(`${aggregate.PK} ${aggregate.SK} would take ${bytes} bytes stored (${aggregate.rows.length} rows), over the ${MAX_AGGREGATE_BYTES}-byte bound of one item`);
  }
  return item;
}

/** The aggregate a stored item holds; `source` and the owner scope come from its ownership keys. */
export function readAggregate(item: Record<string, unknown>): StoredAggregate {
  const owner = String(item.GSI2PK ?? '');
  return {
    PK: String(item.PK),
    SK: String(item.SK),
    entity: item.entity as Entity,
    ownerScope: owner.slice(owner.indexOf('#', owner.indexOf('#') + 1) + 1),
    ...(typeof item.GSI1PK === 'string' && typeof item.GSI1SK === 'string' ? { listing: { GSI1PK: item.GSI1PK, GSI1SK: item.GSI1SK } } : {}),
    rows: rowsOf(item),
    rev: Number(item.rev ?? 0),
  };
}

/** Every row a stored item (or an index entry projecting `rows`) holds, active and retired. */
export function rowsOf(item: Record<string, unknown>): StoredRow[] {
  return item.rows ? (decodeValue(item.rows as Uint8Array) as StoredRow[]) : [];
}

/** The rows readers see: active ones (retired rows are history, kept for the source's own runs). */
export const activeRowsOf = (item: Record<string, unknown>): StoredRow[] => rowsOf(item).filter((row) => row.status === 'active');

/**
 * Per fine scope, a hash of the rows the source listed (active and listed): `scope=hash` lines, sorted.
 * Projected on the ownership index, so a run compares it with what it would write and skips the item
 * without reading it when they agree.
 */
export function listedHashOf(rows: Pick<StoredRow, 'id' | 'scope' | 'contentHash' | 'status' | 'unlisted'>[]): string {
  const byScope = new Map<string, string[]>();
  for (const row of rows) {
    if (row.status !== 'active' || row.unlisted) continue;
    byScope.set(row.scope, [...(byScope.get(row.scope) ?? []), `${row.id}\u0000${row.contentHash}`]);
  }
  return [...byScope]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([scope, entries]) => `${scope}=${createHash('sha256').update(entries.sort().join('\n')).digest('hex').slice(0, 20)}`)
    .join('\n');
}

/** `listedHashOf`'s lines by scope. */
export function parseListedHash(value: unknown): Map<string, string> {
  const lines = typeof value === 'string' && value ? value.split('\n') : [];
  return new Map(lines.map((line) => [line.slice(0, line.lastIndexOf('=')), line.slice(line.lastIndexOf('=') + 1)]));
}
