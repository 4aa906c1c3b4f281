import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import type { Store } from './dynamo-client.js';
import { untilProcessed } from './unprocessed-retry.js';

const BATCH_SIZE = 100;

/**
 * BatchGetItem of any number of keys: chunks of 100 read in parallel, unprocessed keys retried with
 * backoff. `onRequest` is told of every request sent (round-trip accounting).
 */
export async function getAll(
  store: Store,
  keys: Record<string, unknown>[],
  onRequest: () => void = () => undefined,
  options: { consistent?: boolean; projection?: { expression: string; names: Record<string, string> } } = {},
): Promise<Record<string, unknown>[]> {
  const found: Record<string, unknown>[] = [];
  const chunks: Record<string, unknown>[][] = [];
  for (let i = 0; i < keys.length; i += BATCH_SIZE) chunks.push(keys.slice(i, i + BATCH_SIZE));
  await Promise.all(
    chunks.map(async (chunk) => {
      await untilProcessed(
        chunk,
        async (pending) => {
          onRequest();
          const result = await store.doc.send(new BatchGetCommand({
              RequestItems: {
                [store.tableName]: {
                  Keys: pending,
                  ...(options.consistent ? { ConsistentRead: true } : {}),
                  ...(options.projection ? { ProjectionExpression: options.projection.expression, ExpressionAttributeNames: options.projection.names } : {}),
                },
              },
            }));
          found.push(...(result.Responses?.[store.tableName] ?? []));
          return (result.UnprocessedKeys?.[store.tableName]?.Keys ?? []) as Record<string, unknown>[];
        },
        { rounds: 6, firstDelayMs: 50 },
      );
    }),
  );
  return found;
}
