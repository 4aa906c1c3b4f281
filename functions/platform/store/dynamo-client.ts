import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { AppConfig } from '../config.js';

export interface Store {
  client: DynamoDBClient;
  doc: DynamoDBDocumentClient;
  tableName: string;
  /**
   * How putAll writes: BatchWriteItem (25 items, each its own write) unless 'transactions', where
   * TransactWriteItems commits up to 100 at once. Only for a table nothing else writes to while it
   * is filled (the staged first load, ADR 0021): DynamoDB Local then commits once per 100 items.
   */
  bulkPuts?: 'batches' | 'transactions';
}

export function createStore(config: Pick<AppConfig, 'region' | 'tableName' | 'dynamoDbEndpoint'>): Store {
  const client = new DynamoDBClient({
    region: config.region,
    ...(config.dynamoDbEndpoint
      ? {
          endpoint: config.dynamoDbEndpoint,
          // DynamoDB Local accepts any credentials; fixed ones keep a developer's real profile out of it.
          credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
        }
      : {}),
    maxAttempts: 3,
  });
  // The SDK's logger middleware copies every input and output through its sensitive-data filter for a logger
  // nobody configured: measurable on a bulk load (a large transaction is walked twice), so it goes.
  client.middlewareStack.remove('loggerMiddleware');
  return {
    client,
    doc: DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } }),
    tableName: config.tableName,
  };
}
