import { loadConfig } from '../functions/platform/config.js';
import { createStore, type Store } from '../functions/platform/store/dynamo-client.js';
import { servingEmulatorOn } from './data-dir-lock.js';
import { databaseDirOf, startDynamoDbLocal } from './dynamodb-local.js';
import { ensureTable } from './ensure-table.js';

/**
 * A store for a one-off command: TN_DYNAMODB_ENDPOINT when set, the AWS table with TN_RUNTIME=aws,
 * otherwise the emulator of TN_DATA_DIR: the running server's when it has one (one emulator per data
 * directory: two would write one file), else DynamoDB Local started on it for the duration.
 */
export async function withStore<T>(env: Record<string, string | undefined>, run: (store: Store) => Promise<T>): Promise<T> {
  const config = loadConfig(env);
  const onDataDir = config.runtime === 'local' && !config.dynamoDbEndpoint;
  const serving = onDataDir ? servingEmulatorOn(databaseDirOf(config.dataDir)) : undefined;
  const local = onDataDir && serving === undefined ? await startDynamoDbLocal({ dataDir: databaseDirOf(config.dataDir) }) : undefined;
  const endpoint = serving !== undefined ? `http://127.0.0.1:${serving}` : (local?.endpoint ?? config.dynamoDbEndpoint);
  const store = createStore({ ...config, dynamoDbEndpoint: endpoint });
  try {
    if (config.runtime === 'local') await ensureTable(store.client, config.tableName);
    return await run(store);
  } finally {
    store.doc.destroy();
    await local?.stop();
  }
}
