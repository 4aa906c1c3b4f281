import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { AppConfig } from '../config.js';
import { storeRecorder } from './command-recorder.js';

export interface Store {
  client: DynamoDBClient;
  doc: DynamoDBDocumentClient;
  tableName: string;
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
  storeRecorder()?.attach(client);
  return {
    client,
    doc: DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } }),
    tableName: config.tableName,
  };
}
