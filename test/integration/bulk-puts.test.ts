import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { putAll } from '../../functions/platform/store/batch-writes.js';
import type { Store } from '../../functions/platform/store/dynamo-client.js';
import { queryAll } from '../../functions/platform/store/query-all.js';
import { unrecorded } from '../support/store/command-recorder.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const partition = (store: Store, pk: string) => unrecorded(() => queryAll(store, { KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': pk } }));

describe('putAll in transactions (the staged first load)', () => {
  it('writes every item: 100 to a transaction, big items in smaller ones', async () => {
    const store: Store = { ...server.services.store, bulkPuts: 'transactions' };
    const sent: string[] = [];
    store.client.middlewareStack.add((next, context) => (args) => (sent.push(context.commandName ?? ''), next(args)), { step: 'initialize', name: 'countBulkPuts' });
    const small = Array.from({ length: 230 }, (_, i) => ({ PK: 'BULK#small', SK: String(i).padStart(4, '0'), value: i }));
    // ~60 KB each as bytes: 3 MB a transaction allows fewer than 100 of them.
    const large = Array.from({ length: 120 }, (_, i) => ({ PK: 'BULK#large', SK: String(i).padStart(4, '0'), blob: new Uint8Array(60_000).fill(i) }));
    // Made-up keys no store module declares: kept out of the access-pattern check.
    await unrecorded(() => putAll(store, [...small, ...large]));
    store.client.middlewareStack.remove('countBulkPuts');
    // 350 items would fit in 4 transactions of 100; 7.2 MB of large ones need at least 3 of ≤ 3 MB.
    expect(sent.every((name) => name === 'TransactWriteItemsCommand')).toBe(true);
    expect(sent).toHaveLength(5);

    expect((await partition(store, 'BULK#small')).map((item) => item.value)).toEqual(small.map((item) => item.value));
    const storedLarge = await partition(store, 'BULK#large');
    expect(storedLarge).toHaveLength(120);
    expect(storedLarge.every((item, i) => (item.blob as Uint8Array).byteLength === 60_000 && (item.blob as Uint8Array)[0] === i)).toBe(true);
  });
});
