import { ulid } from 'ulid';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { runCli } from '../../local/cli.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

let server: TestServer;
let env: Record<string, string | undefined>;
beforeAll(async () => {
  server = await startTestServer();
  env = { TN_DYNAMODB_ENDPOINT: inject('dynamoDbEndpoint'), TN_TABLE_NAME: server.config.tableName, TN_DATA_DIR: server.dataDir };
});
afterAll(async () => {
  await server?.close();
});

async function cli(args: string[]): Promise<{ code: number; out: string }> {
  const lines: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((line: string) => void lines.push(line));
  const error = vi.spyOn(console, 'error').mockImplementation((line: string) => void lines.push(line));
  try {
    return { code: await runCli(args, env), out: lines.join('\n') };
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
}

describe('operator CLI', () => {
  it('creates a scoped personal access token that the server accepts', async () => {
    const user = `cli-${ulid()}`;
    const { code, out } = await cli(['token', 'create', '--user', user, '--scopes', 'quota:read']);
    expect(code).toBe(0);
    const token = /(tnp_[A-Za-z0-9_-]+)/.exec(out)![1]!;
    expect((await server.rest('tn_user_quota', {}, token)).status).toBe(200);
    expect((await server.rest('tn_user_byok_list', {}, token)).status).toBe(403);
  });

  it('sets a user\'s plan, which tn_user_subscription then reports', async () => {
    const { code } = await cli(['plan', 'set', '--user', 'bob', '--plan', 'institution', '--renews', '2027-01-01']);
    expect(code).toBe(0);
    const subscription = await server.rest('tn_user_subscription', {}, 'test-token-bob-0123456789');
    expect(subscription.body).toMatchObject({ plan: 'institution', renewsAt: '2027-01-01T00:00:00.000Z' });
  });

  it('refuses unknown plans and commands with usage', async () => {
    expect((await cli(['plan', 'set', '--user', 'bob', '--plan', 'platinum'])).code).toBe(2);
    const usage = await cli(['frobnicate']);
    expect(usage.code).toBe(2);
    expect(usage.out).toContain('Usage');
  });
});
