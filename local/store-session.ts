import { loadConfig } from '../functions/shared/config.js';
import { createStore, type Store } from '../functions/shared/store/dynamo-client.js';
import { databaseDirOf, startDynamoDbLocal } from './dynamodb-local.js';
import { ensureTable } from './ensure-table.js';

/**
 * A store for a one-off command: TN_DYNAMODB_ENDPOINT when set, the AWS table with TN_RUNTIME=aws,
 * otherwise DynamoDB Local started on TN_DATA_DIR for the duration (the server must be stopped:
 * DynamoDB Local does not share its files between processes).
 */
export async function withStore<T>(env: Record<string, string | undefined>, run: (store: Store) => Promise<T>): Promise<T> {
  const config = loadConfig(env);
  const local = config.runtime === 'local' && !config.dynamoDbEndpoint ? await startDynamoDbLocal({ dataDir: databaseDirOf(config.dataDir) }) : undefined;
  const store = createStore({ ...config, dynamoDbEndpoint: local?.endpoint ?? config.dynamoDbEndpoint });
  try {
    if (config.runtime === 'local') await ensureTable(store.client, config.tableName);
    return await run(store);
  } finally {
    store.doc.destroy();
    await local?.stop();
  }
}
