import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { Store } from './dynamo-client.js';

const BATCH_SIZE = 25;

/** BatchWriteItem in chunks of 25, retrying unprocessed items with backoff until all are written. */
export async function putAll(store: Store, items: Record<string, unknown>[], concurrency = 4): Promise<void> {
  const batches: Record<string, unknown>[][] = [];
  for (let i = 0; i < items.length; i += BATCH_SIZE) batches.push(items.slice(i, i + BATCH_SIZE));
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

async function writeBatch(store: Store, batch: Record<string, unknown>[]): Promise<void> {
  let pending = batch.map((Item) => ({ PutRequest: { Item } }));
  for (let attempt = 0; pending.length > 0; attempt++) {
    if (attempt > 8) throw new Error(`${pending.length} items stayed unprocessed after retries`);
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 50 * 2 ** attempt));
    const result = await store.doc.send(new BatchWriteCommand({ RequestItems: { [store.tableName]: pending } }));
    pending = (result.UnprocessedItems?.[store.tableName] ?? []) as typeof pending;
  }
}
