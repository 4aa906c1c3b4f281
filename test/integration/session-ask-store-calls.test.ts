import { ulid } from 'ulid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeProvider, type FakeProvider } from '../support/fake-llm-provider.js';
import { commandsDuring } from '../support/store-commands.js';
import { SECOND_TOKEN, startTestServer, type TestServer } from '../support/test-server.js';

const OPENAI_KEY = 'sk-proj-CALLSsecretSECRETsecret0003';

let server: TestServer;
let provider: FakeProvider;

beforeAll(async () => {
  provider = await startFakeProvider({ acceptKeys: [OPENAI_KEY] });
  server = await startTestServer(
    {
      TN_OPENAI_BASE_URL: provider.openaiBaseUrl,
      TN_PROMPTS_PER_DAY: '4',
      TN_LOCAL_USER_ID: `calls-alice-${ulid()}`,
      TN_LOCAL_TOKENS: `${SECOND_TOKEN}=calls-bob-${ulid()}`,
    },
    { catalog: 'shared' },
  );
  expect((await server.rest('tn_user_byok_add', { provider: 'openai', apiKey: OPENAI_KEY })).status).toBe(200);
});
afterAll(async () => {
  await server?.close();
  await provider?.close();
});

const counted = <T>(fn: () => Promise<T>) => commandsDuring(server.services.store, fn);

describe('store calls of a tutoring ask (issue 14: at most 4)', () => {
  it('reads the session with its history and the caller in one read each, and writes the question (with its prompt) and the answer once each', async () => {
    const sessionId = (await server.rest('tn_session_start', { topic: 'recursion' })).body.sessionId as string;
    const first = await counted(() => server.rest('tn_session_ask', { sessionId, message: 'What is a base case?', clientEventId: 'calls-1' }));
    expect(first.result.status, JSON.stringify(first.result.body)).toBe(200);
    expect(first.sent.sort()).toEqual(['QueryCommand', 'QueryCommand', 'TransactWriteItemsCommand', 'TransactWriteItemsCommand']);

    // The next turn's prompt carries the first turn, taken from the same session read.
    const second = await counted(() => server.rest('tn_session_ask', { sessionId, message: 'And a recursive case?', clientEventId: 'calls-2' }));
    expect(second.result.status).toBe(200);
    expect(second.sent).toHaveLength(4);
    const messages = (provider.requests.at(-1)!.body as { messages: { role: string; content: string }[] }).messages;
    expect(messages.map((m) => m.content)).toEqual(expect.arrayContaining(['What is a base case?', first.result.body.response, 'And a recursive case?']));
  });

  it('refuses a prompt past the daily limit in the same write: nothing stored, nothing charged, the count reported', async () => {
    const sessionId = (await server.rest('tn_session_start', { topic: 'limits' })).body.sessionId as string;
    let refused: Awaited<ReturnType<TestServer['rest']>> | undefined;
    for (let i = 0; i < 6 && !refused; i++) {
      const asked = await server.rest('tn_session_ask', { sessionId, message: `Question ${i}` });
      if (asked.status !== 200) refused = asked;
    }
    expect(refused?.status).toBe(429);
    expect(refused?.body).toMatchObject({ code: 'RATE_LIMITED', details: { limit: { current: 4, max: 4 } } });
    expect(refused?.body.details.retryAfter).toBeGreaterThan(0);
    const history = await server.rest('tn_session_history', { sessionId });
    // Every stored question has its answer: the refused one left no trace.
    expect(history.body.items.filter((e: { role: string }) => e.role === 'user').length).toBe(history.body.items.filter((e: { role: string }) => e.role === 'assistant').length);
    expect((await server.rest('tn_user_quota', {})).body.prompts.current).toBe(4);
  });
});
