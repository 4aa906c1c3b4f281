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

const clientObservers: ((client: DynamoDBClient) => void)[] = [];

/** Test setup sees each client a store is made with, to record what it sends (command-recorder.ts). */
export function observeStoreClients(observer: (client: DynamoDBClient) => void): void {
  clientObservers.push(observer);
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
  for (const observe of clientObservers) observe(client);
  return {
    client,
    doc: DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } }),
    tableName: config.tableName,
  };
}
