// A local data directory whose catalog is stored in an older format is rebuilt, not read (ADR 0042): no reader of
// an older shape is kept for data only developers' machines ever held.
import { ResourceNotFoundException } from '@aws-sdk/client-dynamodb';
import fs from 'node:fs/promises';
import path from 'node:path';
import { readCatalogVersion } from '../functions/catalog/catalog-store.js';
import type { AppConfig } from '../functions/platform/config.js';
import { createStore } from '../functions/platform/store/dynamo-client.js';
import { STORAGE_FORMAT } from '../functions/platform/store/storage-format.js';

/** The storage format of the catalog a running emulator holds, when it is older than this version's; undefined otherwise (current, or no catalog). */
export async function olderStorageFormat(endpoint: string, config: Pick<AppConfig, 'region' | 'tableName'>): Promise<number | undefined> {
  const store = createStore({ region: config.region, tableName: config.tableName, dynamoDbEndpoint: endpoint });
  try {
    const { storageFormat } = await readCatalogVersion(store);
    return storageFormat !== undefined && storageFormat < STORAGE_FORMAT ? storageFormat : undefined;
  } catch (error) {
    if (error instanceof ResourceNotFoundException) return undefined;
    throw error;
  } finally {
    store.doc.destroy();
  }
}

/** Moves a data directory's database aside (kept, never deleted), returning where it went. */
export async function setAside(dbDir: string, format: number): Promise<string> {
  const kept = `${dbDir}-format-${format}-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  await fs.rename(dbDir, kept);
  return path.resolve(kept);
}
