import { copyFile, mkdtemp, rename, rm } from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
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
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { bootDynamoDbLocal, checkpointDatabase, ensureDynamoDbLocalInstalled, SHARED_DB_FILE, startDynamoDbLocal } from '../../local/dynamodb-local.js';
import { alive, waitUntil } from '../support/server-process.js';

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

function acceptsConnections(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const sock = net.connect({ port, host });
    sock.setTimeout(2_000);
    sock.once('connect', () => (sock.destroy(), resolve(true)));
    sock.once('timeout', () => (sock.destroy(), resolve(false)));
    sock.once('error', () => resolve(false));
  });
}

/** Addresses the kernel says sockets listen on at this port (Linux: /proc/net/tcp and tcp6). */
function listeningAddresses(port: number): string[] {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  const found: string[] = [];
  for (const [file, v6] of [['/proc/net/tcp', false], ['/proc/net/tcp6', true]] as const) {
    if (!existsSync(file)) continue;
    for (const line of readFileSync(file, 'utf8').trim().split('\n').slice(1)) {
      const [, local, , state] = line.trim().split(/\s+/);
      const [address, at] = local!.split(':');
      if (state !== '0A' || at !== hexPort) continue; // 0A: LISTEN
      // Each 32-bit word is stored little-endian.
      const words = address!.match(/.{8}/g)!.map((word) => word.match(/../g)!.reverse().join(''));
      const bytes = words.join('').match(/../g)!.map((byte) => parseInt(byte, 16));
      if (!v6) found.push(bytes.join('.'));
      else if (bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 255 && bytes[11] === 255) found.push(`::ffff:${bytes.slice(12).join('.')}`);
      else found.push(words.join('').match(/.{4}/g)!.join(':').toLowerCase());
    }
  }
  return found;
}

/** This machine's addresses other than loopback (and link-local ones, which need a zone to reach). */
function otherAddresses(): string[] {
  return Object.values(os.networkInterfaces())
    .flat()
    .filter((entry) => entry && !entry.internal && !entry.address.startsWith('fe80'))
    .map((entry) => entry!.address);
}

function listTables(port: number, host: string, origin?: string): Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/',
        headers: {
          host,
          'content-type': 'application/x-amz-json-1.0',
          'x-amz-target': 'DynamoDB_20120810.ListTables',
          authorization: 'AWS4-HMAC-SHA256 Credential=local/20260101/local/dynamodb/aws4_request, SignedHeaders=host, Signature=0',
          ...(origin ? { origin } : {}),
        },
      },
      (res) => {
        let body = '';
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, body, headers: res.headers }));
      },
    );
    req.on('error', reject);
    req.end('{}');
  });
}

describe('DynamoDB Local', () => {
  it('listens on 127.0.0.1 only, serves only requests addressed to a loopback name, and lets no web page read it', { timeout: TIMEOUT }, async () => {
    const ddb = await startDynamoDbLocal({ inMemory: true });
    const api = client(ddb.endpoint);
    try {
      await createTable(api, 'private');
      if (existsSync('/proc/net/tcp')) {
        const listeners = listeningAddresses(ddb.port);
        expect(listeners.length).toBeGreaterThan(0);
        for (const address of listeners) expect(['127.0.0.1', '::ffff:127.0.0.1']).toContain(address);
      }
      // From any other address of this machine, nothing is there.
      for (const address of otherAddresses()) expect(await acceptsConnections(ddb.port, address), address).toBe(false);
      expect(await acceptsConnections(ddb.port)).toBe(true);

      const own = await listTables(ddb.port, `127.0.0.1:${ddb.port}`);
      expect(JSON.parse(own.body).TableNames).toContain('private');
      // A page that reached the port under its own name (DNS rebinding) gets nothing.
      const rebound = await listTables(ddb.port, `attacker.example:${ddb.port}`);
      expect(rebound.status).toBe(404);
      expect(rebound.body).not.toContain('private');
      // A page on another origin is not allowed to read an answer (the jar's default would be CORS "*").
      const crossOrigin = await listTables(ddb.port, `127.0.0.1:${ddb.port}`, 'https://attacker.example');
      expect(crossOrigin.headers['access-control-allow-origin']).toBeUndefined();
    } finally {
      api.destroy();
      await ddb.stop();
    }
  });

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

  it('runs one emulator per database directory: a second is refused, and one left running by a dead owner is stopped first', { timeout: TIMEOUT }, async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'tn-ddb-lock-'));
    let orphan: ReturnType<typeof spawn> | undefined;
    try {
      const first = await startDynamoDbLocal({ dataDir });
      try {
        await expect(startDynamoDbLocal({ dataDir })).rejects.toThrow(/in use by process/);
      } finally {
        await first.stop();
      }

      // What an older server killed with -9 left behind: the jar's own main on this directory, nobody
      // reading its output, and a lock whose owner is gone.
      const emulator = await ensureDynamoDbLocalInstalled();
      orphan = spawn('java', [`-Djava.library.path=${path.join(emulator, 'DynamoDBLocal_lib')}`, '-jar', path.join(emulator, 'DynamoDBLocal.jar'), '-port', '0', '-sharedDb', '-dbPath', path.resolve(dataDir)], {
        cwd: emulator,
        stdio: 'ignore',
        detached: true,
      });
      const deadOwner = spawn(process.execPath, ['-e', '']);
      await new Promise((resolve) => deadOwner.on('exit', resolve));
      await writeFile(path.join(dataDir, 'tutor-nexus.lock'), JSON.stringify({ ownerPid: deadOwner.pid, jvmPid: orphan.pid, startedAt: new Date().toISOString() }));
      expect(await waitUntil(() => alive(orphan!.pid!), 5_000)).toBe(true);

      const next = await startDynamoDbLocal({ dataDir });
      try {
        expect(alive(orphan.pid!)).toBe(false);
        const api = client(next.endpoint);
        await createTable(api, 'after-orphan');
        api.destroy();
      } finally {
        await next.stop();
      }
    } finally {
      if (orphan?.pid && alive(orphan.pid)) process.kill(orphan.pid, 'SIGKILL');
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
