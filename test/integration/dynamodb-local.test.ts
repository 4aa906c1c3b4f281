import { copyFile, mkdtemp, rename, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import {
  CreateTableCommand,
  DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
} from '@aws-sdk/client-dynamodb';
import { describe, it, expect } from 'vitest';
import { bootDynamoDbLocal, checkpointDatabase, SHARED_DB_FILE, startDynamoDbLocal } from '../../local/dynamodb-local.js';

const TIMEOUT = 120_000;

function client(endpoint: string): DynamoDBClient {
  return new DynamoDBClient({
    region: 'local',
    endpoint,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
}

async function createTable(ddb: DynamoDBClient, TableName: string): Promise<void> {
  await ddb.send(
    new CreateTableCommand({
      TableName,
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
      BillingMode: 'PAY_PER_REQUEST',
    }),
  );
}

function acceptsConnections(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const sock = net.connect({ port, host: '127.0.0.1' });
    sock.setTimeout(2_000);
    sock.once('connect', () => (sock.destroy(), resolve(true)));
    sock.once('timeout', () => (sock.destroy(), resolve(false)));
    sock.once('error', () => resolve(false));
  });
}

describe('DynamoDB Local', () => {
  it('runs in memory, serves requests and releases its port on stop', { timeout: TIMEOUT }, async () => {
    const ddb = await startDynamoDbLocal({ inMemory: true });
    const api = client(ddb.endpoint);
    try {
      expect(ddb.endpoint).toBe(`http://127.0.0.1:${ddb.port}`);
      await createTable(api, 'things');
      await api.send(new PutItemCommand({ TableName: 'things', Item: { pk: { S: 'a' }, n: { N: '42' } } }));
      const got = await api.send(new GetItemCommand({ TableName: 'things', Key: { pk: { S: 'a' } } }));
      expect(got.Item).toEqual({ pk: { S: 'a' }, n: { N: '42' } });
    } finally {
      api.destroy();
      await ddb.stop();
    }
    expect(await acceptsConnections(ddb.port)).toBe(false);
    await ddb.stop(); // idempotent
  });

  it('keeps data in dataDir across restarts', { timeout: TIMEOUT }, async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'tn-ddb-local-'));
    try {
      const first = await startDynamoDbLocal({ dataDir });
      const api1 = client(first.endpoint);
      try {
        await createTable(api1, 'durable');
        await api1.send(new PutItemCommand({ TableName: 'durable', Item: { pk: { S: 'k' }, v: { S: 'kept' } } }));
      } finally {
        api1.destroy();
        await first.stop();
      }

      const second = await startDynamoDbLocal({ dataDir });
      const api2 = client(second.endpoint);
      try {
        const got = await api2.send(new GetItemCommand({ TableName: 'durable', Key: { pk: { S: 'k' } } }));
        expect(got.Item).toEqual({ pk: { S: 'k' }, v: { S: 'kept' } });
      } finally {
        api2.destroy();
        await second.stop();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('boots without touching a directory whose database arrives later, then serves the file moved in', { timeout: TIMEOUT }, async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'tn-ddb-boot-'));
    const made = path.join(root, 'made');
    const served = path.join(root, 'served');
    try {
      const booted = await bootDynamoDbLocal({ dataDir: served, databaseArrivesLater: true });
      try {
        // The JVM is up and listening while the database is still being made elsewhere.
        const maker = await startDynamoDbLocal({ dataDir: made });
        const api1 = client(maker.endpoint);
        try {
          await createTable(api1, 'moved');
          await api1.send(new PutItemCommand({ TableName: 'moved', Item: { pk: { S: 'k' }, v: { S: 'made elsewhere' } } }));
        } finally {
          api1.destroy();
          await maker.stop();
        }
        expect(existsSync(path.join(served, SHARED_DB_FILE))).toBe(false);
        await checkpointDatabase(made);
        await copyFile(path.join(made, SHARED_DB_FILE), path.join(served, `${SHARED_DB_FILE}.partial`));
        await rename(path.join(served, `${SHARED_DB_FILE}.partial`), path.join(served, SHARED_DB_FILE));

        const opened = await booted.open();
        const api2 = client(opened.endpoint);
        try {
          const got = await api2.send(new GetItemCommand({ TableName: 'moved', Key: { pk: { S: 'k' } } }));
          expect(got.Item).toEqual({ pk: { S: 'k' }, v: { S: 'made elsewhere' } });
        } finally {
          api2.destroy();
        }
      } finally {
        await booted.stop();
      }
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
