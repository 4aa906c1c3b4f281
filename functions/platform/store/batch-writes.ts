import { BatchWriteCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { forEachAtOnce } from '../at-once.js';
import type { Store } from './dynamo-client.js';
import { untilProcessed } from './unprocessed-retry.js';

const BATCH_SIZE = 25;

type WriteRequest = { PutRequest: { Item: Record<string, unknown> } } | { DeleteRequest: { Key: Record<string, unknown> } };

/** BatchWriteItem in chunks of 25, retrying unprocessed items with backoff until all are written. */
export async function putAll(store: Store, items: Record<string, unknown>[], concurrency = 4): Promise<void> {
  if (store.bulkPuts === 'transactions') return putInTransactions(store, items, concurrency);
  await writeAll(store, items.map((Item) => ({ PutRequest: { Item } })), concurrency);
}

const TRANSACTION_ITEMS = 100;
/** Under TransactWriteItems' 4 MB request limit, counting each item's JSON (binary values by length). */
const TRANSACTION_BYTES = 3_000_000;

/** Up to 100 items a transaction, under its size limit; a refused transaction fails the write (the staged load then loads in place). */
async function putInTransactions(store: Store, items: Record<string, unknown>[], concurrency: number): Promise<void> {
  const groups: Record<string, unknown>[][] = [];
  let bytes = 0;
  for (const item of items) {
    const size = approximateSize(item);
    const group = groups.at(-1);
    if (!group || group.length >= TRANSACTION_ITEMS || bytes + size > TRANSACTION_BYTES) {
      groups.push([item]);
      bytes = size;
    } else {
      group.push(item);
      bytes += size;
    }
  }
  await forEachAtOnce(groups, concurrency, async (group) => {
    await store.doc.send(new TransactWriteCommand({ TransactItems: group.map((Item) => ({ Put: { TableName: store.tableName, Item } })) }));
  });
}

/** Names plus values, binary values (a pack's rows per partition included) by their length rather than as JSON. */
function approximateSize(value: unknown): number {
  if (value instanceof Uint8Array) return value.byteLength;
  if (value && typeof value === 'object' && !Array.isArray(value)) return Object.entries(value).reduce((size, [name, inner]) => size + name.length + approximateSize(inner), 0);
  return JSON.stringify(value)?.length ?? 0;
}

/** Deletes in chunks of 25, in order (one batch at a time), retrying unprocessed keys. */
export async function deleteAll(store: Store, keys: Record<string, unknown>[]): Promise<void> {
  await writeAll(store, keys.map((Key) => ({ DeleteRequest: { Key } })), 1);
}

async function writeAll(store: Store, requests: WriteRequest[], concurrency: number): Promise<void> {
  const batches: WriteRequest[][] = [];
  for (let i = 0; i < requests.length; i += BATCH_SIZE) batches.push(requests.slice(i, i + BATCH_SIZE));
  await forEachAtOnce(batches, concurrency, (batch) => writeBatch(store, batch));
}

async function writeBatch(store: Store, batch: WriteRequest[]): Promise<void> {
  await untilProcessed(
    batch,
    async (pending) => {
      const result = await store.doc.send(new BatchWriteCommand({ RequestItems: { [store.tableName]: pending } }));
      return (result.UnprocessedItems?.[store.tableName] ?? []) as typeof pending;
    },
    { rounds: 9, firstDelayMs: 100 },
  );
}
