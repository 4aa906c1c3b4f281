import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeProvider, type FakeProvider } from '../support/fake-llm-provider.js';
import { ulid } from 'ulid';
import { startTestServer, type TestServer } from '../support/test-server.js';

const OPENAI_KEY = 'sk-proj-LIMITSsecretSECRETsecret0005';

let server: TestServer;
let provider: FakeProvider;

beforeAll(async () => {
  provider = await startFakeProvider({ acceptKeys: [OPENAI_KEY] });
  // A user of this file only: other files on the shared catalog table add keys to the default user.
  server = await startTestServer(
    { TN_OPENAI_BASE_URL: provider.openaiBaseUrl, TN_TUTOR_MAX_TOOL_CALLS: '2', TN_LOCAL_USER_ID: `limits-${ulid()}` },
    { catalog: 'shared' },
  );
  expect((await server.rest('tn_user_byok_add', { provider: 'openai', apiKey: OPENAI_KEY })).status).toBe(200);
});
afterAll(async () => {
  await server?.close();
  await provider?.close();
});

describe('sessions past DynamoDB\'s 1 MB pages', () => {
  it('pages history and exports every event when events are long', async () => {
    const sessionId = (await server.rest('tn_session_start', {})).body.sessionId;
    const long = 'x'.repeat(9_990);
    for (let i = 0; i < 110; i++) {
      expect((await server.rest('tn_session_ask', { sessionId, message: `${i} ${long}`, clientEventId: `big-${i}`, draft: true })).status).toBe(200);
    }
    const first = await server.rest('tn_session_history', { sessionId, limit: 100 });
    expect(first.body.items).toHaveLength(100);
    expect(first.body.hasMore).toBe(true);
    const rest = await server.rest('tn_session_history', { sessionId, limit: 100, cursor: first.body.nextCursor });
    expect(rest.body.items.map((e: { seq: number }) => e.seq)).toEqual(Array.from({ length: 10 }, (_, i) => 101 + i));
    const exported = await server.rest('tn_session_export', { sessionId });
    expect(exported.body.events).toHaveLength(110);
    expect(exported.body.session.latestSeq).toBe(110);
    const resumed = await server.rest('tn_session_resume', { sessionId, recent: 100 });
    expect(resumed.body.recentEvents).toHaveLength(100);
    expect(resumed.body.recentEvents.at(-1).seq).toBe(110);
    expect(resumed.body.pendingDrafts).toHaveLength(110);
  });
});

describe('edges of the ask', () => {
  it('answers an afterSeq past the end with an empty page, not an error', async () => {
    const sessionId = (await server.rest('tn_session_start', {})).body.sessionId;
    const page = await server.rest('tn_session_history', { sessionId, afterSeq: 9_999_999_990 });
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ items: [], hasMore: false });
  });

  it('refuses to turn a sent message into a draft, and never calls the provider for it', async () => {
    const sessionId = (await server.rest('tn_session_start', {})).body.sessionId;
    provider.reset();
    provider.respond(() => ({ status: 500 }));
    expect((await server.rest('tn_session_ask', { sessionId, message: 'Sent once', clientEventId: 'sent-1' })).status).toBe(503);
    provider.respond(undefined);
    const asDraft = await server.rest('tn_session_ask', { sessionId, message: 'Sent once', clientEventId: 'sent-1', draft: true });
    expect(asDraft.status).toBe(409);
    expect(provider.requests).toHaveLength(1);
  });

  it('keeps parallel lookups in one step within the per-turn limit', async () => {
    const sessionId = (await server.rest('tn_session_start', {})).body.sessionId;
    provider.reset();
    const lookup = { name: 'tn_course_get', input: { course: 'sfu:CMPT 225' } };
    provider.enqueue({ toolCalls: [lookup, lookup, lookup, lookup, lookup] });
    const asked = await server.rest('tn_session_ask', { sessionId, message: 'Look it up five times' });
    expect(asked.status).toBe(200);
    expect(asked.body.lookups).toHaveLength(2);
    const toolResults = JSON.stringify(provider.requests[1]!.body);
    expect(toolResults.match(/Lookup limit of 2 reached/g)).toHaveLength(3);
  });
});
