import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/client';
import { ulid } from 'ulid';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeProvider, type FakeProvider } from '../support/fake-llm-provider.js';
import { connectClient, SECOND_TOKEN, startTestServer, TEST_TOKEN, type TestServer } from '../support/test-server.js';

const OPENAI_KEY = 'sk-proj-ALICEsecretSECRETsecret0001';
const ANTHROPIC_KEY = 'sk-ant-api03-BOBsecretSECRETsecret0002';

let server: TestServer;
let provider: FakeProvider;

beforeAll(async () => {
  provider = await startFakeProvider({ acceptKeys: [OPENAI_KEY, ANTHROPIC_KEY] });
  server = await startTestServer(
    {
      TN_OPENAI_BASE_URL: provider.openaiBaseUrl,
      TN_ANTHROPIC_BASE_URL: provider.anthropicBaseUrl,
      TN_TUTOR_MAX_TOOL_CALLS: '2',
      // Users of this file only: other files on the shared catalog table add keys to the default users.
      TN_LOCAL_USER_ID: `ask-alice-${ulid()}`,
      TN_LOCAL_TOKENS: `${SECOND_TOKEN}=ask-bob-${ulid()}`,
    },
    { catalog: 'shared' },
  );
  expect((await server.rest('tn_user_byok_add', { provider: 'openai', apiKey: OPENAI_KEY })).status).toBe(200);
  expect((await server.rest('tn_user_byok_add', { provider: 'anthropic', apiKey: ANTHROPIC_KEY }, SECOND_TOKEN)).status).toBe(200);
});
afterAll(async () => {
  await server?.close();
  await provider?.close();
});
beforeEach(() => provider.reset());

async function startSession(token = TEST_TOKEN, input: Record<string, unknown> = { course: 'sfu:CMPT 120' }): Promise<string> {
  const started = await server.rest('tn_session_start', input, token);
  expect(started.status).toBe(200);
  return started.body.sessionId;
}

/** An MCP client on the modern protocol whose HTTP responses' content types are recorded. */
async function recordingClient(token: string) {
  const contentTypes: string[] = [];
  const client = new Client({ name: 'session-tests', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
  const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
    fetch: async (input, init) => {
      const response = await fetch(input, init);
      contentTypes.push(response.headers.get('content-type') ?? '');
      return response;
    },
  });
  await client.connect(transport);
  return { client, contentTypes };
}

async function promptsUsed(token = TEST_TOKEN): Promise<number> {
  return (await server.rest('tn_user_quota', {}, token)).body.prompts.current;
}

describe.each([
  { protocol: 'openai', token: TEST_TOKEN, key: OPENAI_KEY },
  { protocol: 'anthropic', token: SECOND_TOKEN, key: ANTHROPIC_KEY },
] as const)('the tutor over the $protocol protocol', ({ protocol, token, key }) => {
  it('streams the answer as progress notifications over SSE when the call carries a progress token', async () => {
    const sessionId = await startSession(token);
    provider.enqueue({ text: 'Think about what repeats. What changes each time round the loop?', chunks: 5 });
    const { client, contentTypes } = await recordingClient(token);
    try {
      const progress: { progress: number; message?: string }[] = [];
      const result = await client.callTool(
        { name: 'tn_session_ask', arguments: { sessionId, message: 'How do loops work?', clientEventId: `${protocol}-stream` } },
        { onprogress: (update) => progress.push(update) },
      );
      const answer = result.structuredContent as { response: string; status: string };
      expect(answer.status).toBe('answered');
      expect(answer.response).toBe('Think about what repeats. What changes each time round the loop?');
      expect(progress.length).toBeGreaterThanOrEqual(3);
      expect(progress.map((p) => p.message).join('')).toBe(answer.response);
      for (let i = 1; i < progress.length; i++) expect(progress[i]!.progress).toBeGreaterThan(progress[i - 1]!.progress);
      expect(contentTypes.at(-1)).toContain('text/event-stream');

      const request = provider.requests.at(-1)!;
      expect(request.protocol).toBe(protocol);
      expect(request.stream).toBe(true);
      expect(request.apiKey).toBe(key);
      expect(JSON.stringify(request.body)).toContain('Introduction to Computing Science and Programming I');
    } finally {
      await client.close();
    }
  });

  it('answers with one plain JSON response, and a non-streaming provider call, without a progress token', async () => {
    const sessionId = await startSession(token);
    const { client, contentTypes } = await recordingClient(token);
    try {
      const result = await client.callTool({ name: 'tn_session_ask', arguments: { sessionId, message: 'What is a variable?' } });
      expect((result.structuredContent as { response: string }).response).toBe('Tutor says: What is a variable?');
      expect(contentTypes.at(-1)).toContain('application/json');
      expect(provider.requests.at(-1)!.stream).toBe(false);
    } finally {
      await client.close();
    }
  });
});

describe('streaming to 2025-era clients', () => {
  it('sends the same progress notifications over the legacy protocol', async () => {
    const sessionId = await startSession();
    provider.enqueue({ text: 'Start from the base case.', chunks: 3 });
    const client = await connectClient(server.url, { era: 'legacy' });
    try {
      const progress: string[] = [];
      const result = await client.callTool(
        { name: 'tn_session_ask', arguments: { sessionId, message: 'Recursion?' } },
        { onprogress: (update) => void progress.push(update.message ?? '') },
      );
      expect((result.structuredContent as { response: string }).response).toBe('Start from the base case.');
      expect(progress.join('')).toBe('Start from the base case.');
      expect(progress.length).toBeGreaterThanOrEqual(2);
    } finally {
      await client.close();
    }
  });
});

describe('idempotent asks', () => {
  it('returns the first answer for a repeated clientEventId without calling the provider or charging again', async () => {
    const sessionId = await startSession();
    const before = await promptsUsed();
    const first = await server.rest('tn_session_ask', { sessionId, message: 'Explain recursion', clientEventId: 'same-1' });
    expect(first.body.status).toBe('answered');
    const again = await server.rest('tn_session_ask', { sessionId, message: 'Explain recursion', clientEventId: 'same-1' });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ status: 'replayed', response: first.body.response, eventsEmitted: first.body.eventsEmitted });
    expect(provider.requests).toHaveLength(1);
    expect(await promptsUsed()).toBe(before + 1);

    const conflict = await server.rest('tn_session_ask', { sessionId, message: 'Something else', clientEventId: 'same-1' });
    expect(conflict.status).toBe(409);
    expect(conflict.body.code).toBe('CONFLICT');
    const history = await server.rest('tn_session_history', { sessionId });
    expect(history.body.items).toHaveLength(2);
  });
});

describe('provider failures', () => {
  it('keeps the question, writes no answer and charges nothing; a retry with the same clientEventId answers it once', async () => {
    const sessionId = await startSession();
    const before = await promptsUsed();
    provider.respond(() => ({ status: 500 }));
    const failed = await server.rest('tn_session_ask', { sessionId, message: 'What is a list?', clientEventId: 'retry-me' });
    expect(failed.status).toBe(503);
    expect(failed.body.code).toBe('SERVICE_UNAVAILABLE');
    expect(failed.body.details.retryAfter).toBeGreaterThan(0);
    expect(await promptsUsed()).toBe(before);
    let history = await server.rest('tn_session_history', { sessionId });
    expect(history.body.items.map((e: { type: string }) => e.type)).toEqual(['user_message']);

    provider.respond(undefined);
    const retried = await server.rest('tn_session_ask', { sessionId, message: 'What is a list?', clientEventId: 'retry-me' });
    expect(retried.body).toMatchObject({ status: 'answered', questionSeq: 1, answerSeq: 2 });
    expect(await promptsUsed()).toBe(before + 1);
    history = await server.rest('tn_session_history', { sessionId });
    expect(history.body.items.map((e: { type: string }) => e.type)).toEqual(['user_message', 'assistant_message']);
  });

  it('maps a rejected key to UNPROCESSABLE_ENTITY without the key appearing anywhere', async () => {
    const sessionId = await startSession();
    provider.respond(() => ({ status: 401 }));
    const written: string[] = [];
    const originalWrite = process.stdout.write.bind(process.stdout);
    const originalError = process.stderr.write.bind(process.stderr);
    process.stdout.write = ((chunk: string | Uint8Array, ...rest: never[]) => (written.push(String(chunk)), originalWrite(chunk, ...rest))) as typeof process.stdout.write;
    process.stderr.write = ((chunk: string | Uint8Array, ...rest: never[]) => (written.push(String(chunk)), originalError(chunk, ...rest))) as typeof process.stderr.write;
    let failed;
    try {
      failed = await server.rest('tn_session_ask', { sessionId, message: 'Hello?' });
    } finally {
      process.stdout.write = originalWrite;
      process.stderr.write = originalError;
    }
    expect(failed.status).toBe(422);
    expect(failed.body.code).toBe('UNPROCESSABLE_ENTITY');
    expect(failed.body.message).toContain('rejected your API key');
    const secret = OPENAI_KEY.slice(8);
    expect(JSON.stringify(failed.body)).not.toContain(secret);
    expect(written.join('')).not.toContain(secret);
    const exported = await server.rest('tn_session_export', { sessionId });
    expect(JSON.stringify(exported.body)).not.toContain(secret);
  });

  it('passes on the provider\'s retry-after for 429 and times out a provider that never answers', async () => {
    const sessionId = await startSession();
    provider.respond(() => ({ status: 429, retryAfterSeconds: 17 }));
    const limited = await server.rest('tn_session_ask', { sessionId, message: 'One?' });
    expect(limited.status).toBe(503);
    expect(limited.body.details.retryAfter).toBe(17);

    const slow = await startTestServer({ TN_OPENAI_BASE_URL: provider.openaiBaseUrl, TN_LLM_TIMEOUT_MS: '300' });
    try {
      expect((await slow.rest('tn_user_byok_add', { provider: 'openai', apiKey: OPENAI_KEY })).status).toBe(200);
      const slowSession = (await slow.rest('tn_session_start', {})).body.sessionId;
      provider.respond(() => ({ hang: true }));
      const timedOut = await slow.rest('tn_session_ask', { sessionId: slowSession, message: 'Two?' });
      expect(timedOut.status).toBe(503);
      expect(timedOut.body.details.reason).toBe('provider timeout');
      expect((await slow.rest('tn_user_quota', {})).body.prompts.current).toBe(0);
    } finally {
      await slow.close();
    }
  });
});

describe('catalog lookups during a turn', () => {
  it('lets the tutor call read-only course tools and grounds the answer in their results', async () => {
    const sessionId = await startSession();
    provider.enqueue({ toolCalls: [{ name: 'tn_course_get', input: { course: 'sfu:CMPT 225' } }] });
    const asked = await server.rest('tn_session_ask', { sessionId, message: 'What comes after this course?' });
    expect(asked.status).toBe(200);
    expect(asked.body.lookups).toEqual(['tn_course_get']);
    expect(asked.body.response).toContain('Tutor says (after tools)');
    expect(JSON.stringify(provider.requests[1]!.body)).toContain('Data Structures');
  });

  it('bounds the lookups per turn and still ends with an answer', async () => {
    const sessionId = await startSession();
    provider.respond((request) =>
      request.body.tool_choice === 'none' ? { text: 'Here is what I found.' } : { toolCalls: [{ name: 'tn_course_search', input: { query: 'data structures' } }] },
    );
    const asked = await server.rest('tn_session_ask', { sessionId, message: 'Find me courses' });
    expect(asked.status).toBe(200);
    expect(asked.body.lookups).toHaveLength(2);
    expect(asked.body.response).toBe('Here is what I found.');
    expect(provider.requests).toHaveLength(3);
  });
});

describe('the current session (seed 004: the session comes from context when a call omits it)', () => {
  it('uses the most recently active session that has not ended, and needs an id from anonymous callers', async () => {
    const own = await startTestServer({ TN_OPENAI_BASE_URL: provider.openaiBaseUrl });
    try {
      expect((await own.rest('tn_user_byok_add', { provider: 'openai', apiKey: OPENAI_KEY })).status).toBe(200);
      expect((await own.rest('tn_session_ask', { message: 'Anyone there?' })).body.code).toBe('NOT_FOUND');
      const first = (await own.rest('tn_session_start', { topic: 'first' })).body.sessionId;
      const second = (await own.rest('tn_session_start', { topic: 'second' })).body.sessionId;
      const asked = await own.rest('tn_session_ask', { message: 'Which session is this?' });
      expect(asked.body.sessionId).toBe(second);
      await own.rest('tn_session_ask', { sessionId: first, message: 'Back to the first one' });
      expect((await own.rest('tn_session_history', {})).body.sessionId).toBe(first);
      await own.rest('tn_session_end', { sessionId: first });
      expect((await own.rest('tn_session_resume', {})).body.state.sessionId).toBe(second);
      const anonymous = await own.rest('tn_session_history', {}, null);
      expect(anonymous.status).toBe(400);
      expect(anonymous.body.details.fields[0].field).toBe('sessionId');
    } finally {
      await own.close();
    }
  });
});

describe('a long session', () => {
  it('keeps the prompt within the token budget: recent turns verbatim, older ones in a running summary', async () => {
    const sessionId = await startSession();
    for (let i = 0; i < 6; i++) {
      const long = `Question ${i}: ${'why does this loop never end? '.repeat(130)}`;
      expect((await server.rest('tn_session_ask', { sessionId, message: long, clientEventId: `long-${i}` })).status).toBe(200);
    }
    await server.rest('tn_session_ask', { sessionId, message: 'Last question', clientEventId: 'long-last' });
    const body = provider.requests.at(-1)!.body as { messages: { role: string; content: string }[] };
    const system = body.messages[0]!;
    expect(system.role).toBe('system');
    expect(system.content).toContain('Earlier in this session');
    expect(system.content).toContain('- The student asked: Question 0:');
    const conversation = body.messages.slice(1);
    expect(conversation.at(-1)!.content).toBe('Last question');
    // 12 earlier messages of ~4000 characters each would be ~12,000 tokens; the window keeps ≤ 6000.
    expect(conversation.length).toBeLessThan(12);
    expect(conversation.reduce((sum, m) => sum + m.content.length, 0) / 4).toBeLessThanOrEqual(6000 + 10);
  });
});

describe('choosing the key', () => {
  it('asks the user to pick a default when they have several keys, and then uses the default', async () => {
    const sessionId = await startSession(SECOND_TOKEN);
    const second = await server.rest('tn_user_byok_add', { provider: 'openai', apiKey: OPENAI_KEY, label: 'second' }, SECOND_TOKEN);
    expect(second.status).toBe(200);
    const unsure = await server.rest('tn_session_ask', { sessionId, message: 'Which key?' }, SECOND_TOKEN);
    expect(unsure.status).toBe(422);
    expect(unsure.body.message).toContain('tn_user_preferences_set');
    expect(provider.requests).toHaveLength(0);
    expect((await server.rest('tn_user_quota', {}, SECOND_TOKEN)).body.prompts.current).toBe(2);

    await server.rest('tn_user_preferences_set', { defaultCredentialId: second.body.credentialId }, SECOND_TOKEN);
    const answered = await server.rest('tn_session_ask', { sessionId, message: 'Which key now?' }, SECOND_TOKEN);
    expect(answered.body.model).toMatchObject({ source: 'byok', provider: 'openai' });
    expect(provider.requests.at(-1)!.apiKey).toBe(OPENAI_KEY);
  });
});

describe('starting a session', () => {
  it('accepts seed 000\'s nested context as well as top-level fields, top-level winning', async () => {
    const nested = await server.rest('tn_session_start', { context: { course: 'langara:CPSC 1150', topic: 'arrays', tutoringStyle: 'direct' } });
    expect(nested.body.state.context).toMatchObject({ course: 'langara:CPSC 1150', topic: 'arrays', tutoringStyle: 'direct' });
    const both = await server.rest('tn_session_start', { topic: 'loops', context: { course: 'sfu:CMPT 120', topic: 'ignored' } });
    expect(both.body.state.context).toMatchObject({ course: 'sfu:CMPT 120', topic: 'loops' });
    const unknown = await server.rest('tn_session_start', { context: { userId: 'someone-else' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.details.fields[0].field).toBe('context.userId');
  });
});
