import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { ulid } from 'ulid';
import { inject } from 'vitest';
import { startLocalServer, type LocalServer } from '../../local/server.js';

export const TEST_TOKEN = 'test-token-alice-0123456789';
export const SECOND_TOKEN = 'test-token-bob-0123456789';

export interface TestServer extends LocalServer {
  dataDir: string;
  /** POST a REST twin; returns status and parsed JSON body. */
  rest(tool: string, input: unknown, token?: string | null): Promise<{ status: number; body: any; headers: Headers }>;
  close(): Promise<void>;
}

/**
 * A local server on a free port and its own data dir, against the run's DynamoDB Local: with its own
 * empty table, or (`catalog: 'shared'`) on the table the global setup loaded the sample catalog into.
 */
export async function startTestServer(env: Record<string, string> = {}, options: { catalog?: 'shared' | 'none'; dataDir?: string; notice?: (message: string) => void } = {}): Promise<TestServer> {
  const dataDir = options.dataDir ?? (await mkdtemp(path.join(os.tmpdir(), 'tn-test-')));
  const server = await startLocalServer({
    ...(options.notice ? { notice: options.notice } : {}),
    env: {
      PATH: process.env.PATH,
      PORT: '0',
      HOST: '127.0.0.1',
      TN_DATA_DIR: dataDir,
      TN_DYNAMODB_ENDPOINT: inject('dynamoDbEndpoint'),
      TN_TABLE_NAME: options.catalog === 'shared' ? inject('sharedCatalogTable') : `tn-test-${ulid()}`,
      TN_SAMPLE_CATALOG: 'off',
      TN_LOCAL_TOKEN: TEST_TOKEN,
      TN_LOCAL_TOKENS: `${SECOND_TOKEN}=bob`,
      TN_LOG_LEVEL: 'ERROR',
      ...env,
    },
  });
  return {
    ...server,
    dataDir,
    async rest(tool, input, token = TEST_TOKEN) {
      const response = await fetch(`${server.url}/v1/tools/${tool}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: typeof input === 'string' ? input : JSON.stringify(input),
      });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : undefined, headers: response.headers };
    },
    async close() {
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export type Era = 'legacy' | 'modern';

/** A real MCP client over Streamable HTTP: `legacy` speaks 2025-11-25, `modern` negotiates 2026-07-28. */
export async function connectClient(url: string, options: { token?: string | null; era?: Era; path?: string } = {}): Promise<Client> {
  const token = options.token === undefined ? TEST_TOKEN : options.token;
  const client = new Client(
    { name: 'tutor-nexus-tests', version: '1.0.0' },
    { versionNegotiation: { mode: options.era === 'modern' ? 'auto' : 'legacy' } },
  );
  const transport = new StreamableHTTPClientTransport(new URL(`${url}${options.path ?? '/mcp'}`), {
    requestInit: token ? { headers: { authorization: `Bearer ${token}` } } : undefined,
  });
  await client.connect(transport);
  return client;
}
