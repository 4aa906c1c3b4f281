import { ulid } from 'ulid';
import { expect } from 'vitest';
import { startFakeProvider, type FakeProvider } from './fake-llm-provider.js';
import { SECOND_TOKEN, startTestServer, type TestServer } from './test-server.js';

export interface TutoringFixture {
  server: TestServer;
  provider: FakeProvider;
  /** Env pointing a server at the fake provider with this fixture's users; for extra servers. */
  env: Record<string, string>;
  close(): Promise<void>;
}

/**
 * A local server on the shared catalog table wired to a fake provider, with users of its own (other
 * files add keys and preferences to the default users) and an OpenAI BYOK key for the first user.
 */
export async function startTutoringServer(options: { prefix: string; openaiKey: string; acceptKeys?: string[]; env?: (provider: FakeProvider) => Record<string, string> }): Promise<TutoringFixture> {
  const provider = await startFakeProvider({ acceptKeys: [options.openaiKey, ...(options.acceptKeys ?? [])] });
  const env = {
    TN_OPENAI_BASE_URL: provider.openaiBaseUrl,
    TN_ANTHROPIC_BASE_URL: provider.anthropicBaseUrl,
    TN_LOCAL_USER_ID: `${options.prefix}-owner-${ulid()}`,
    TN_LOCAL_TOKENS: `${SECOND_TOKEN}=${options.prefix}-bob-${ulid()}`,
  };
  const server = await startTestServer({ ...env, ...options.env?.(provider) }, { catalog: 'shared' });
  const added = await server.rest('tn_user_byok_add', { provider: 'openai', apiKey: options.openaiKey });
  expect(added.status, JSON.stringify(added.body)).toBe(200);
  return {
    server,
    provider,
    env,
    async close() {
      await server.close();
      await provider.close();
    },
  };
}
