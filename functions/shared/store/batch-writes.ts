import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { Store } from './dynamo-client.js';
import { untilProcessed } from './unprocessed-retry.js';

const BATCH_SIZE = 25;

type WriteRequest = { PutRequest: { Item: Record<string, unknown> } } | { DeleteRequest: { Key: Record<string, unknown> } };

/** BatchWriteItem in chunks of 25, retrying unprocessed items with backoff until all are written. */
export async function putAll(store: Store, items: Record<string, unknown>[], concurrency = 4): Promise<void> {
  await writeAll(store, items.map((Item) => ({ PutRequest: { Item } })), concurrency);
}

/** Deletes in chunks of 25, in order (one batch at a time), retrying unprocessed keys. */
export async function deleteAll(store: Store, keys: Record<string, unknown>[]): Promise<void> {
  await writeAll(store, keys.map((Key) => ({ DeleteRequest: { Key } })), 1);
}

async function writeAll(store: Store, requests: WriteRequest[], concurrency: number): Promise<void> {
  const batches: WriteRequest[][] = [];
  for (let i = 0; i < requests.length; i += BATCH_SIZE) batches.push(requests.slice(i, i + BATCH_SIZE));
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, batches.length) }, async () => {
      while (next < batches.length) {
        const batch = batches[next++]!;
        await writeBatch(store, batch);
      }
    }),
  );
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
