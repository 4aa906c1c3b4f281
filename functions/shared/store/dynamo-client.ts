import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { AppConfig } from '../config.js';

export interface Store {
  client: DynamoDBClient;
  doc: DynamoDBDocumentClient;
  tableName: string;
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
