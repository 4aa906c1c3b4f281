import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeProvider, type FakeProvider } from '../support/fake-llm-provider.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const OPENAI_KEY = 'sk-proj-CONCURRENTsecretSECRET0003';

let server: TestServer;
let provider: FakeProvider;

beforeAll(async () => {
  provider = await startFakeProvider({ acceptKeys: [OPENAI_KEY] });
  server = await startTestServer({ TN_OPENAI_BASE_URL: provider.openaiBaseUrl, TN_PROMPTS_PER_DAY: '5' });
  expect((await server.rest('tn_user_byok_add', { provider: 'openai', apiKey: OPENAI_KEY })).status).toBe(200);
});
afterAll(async () => {
  await server?.close();
  await provider?.close();
});

interface HistoryEvent {
  eventId: string;
  seq: number;
  type: string;
  deviceId: string | null;
  clientEventId: string | null;
  refersTo: string | null;
}

async function allEvents(sessionId: string): Promise<HistoryEvent[]> {
  const events: HistoryEvent[] = [];
  let cursor: string | undefined;
  do {
    const page = await server.rest('tn_session_history', { sessionId, limit: 100, ...(cursor ? { cursor } : {}) });
    events.push(...page.body.items);
    cursor = page.body.nextCursor;
  } while (cursor);
  return events;
}

describe('concurrent asks', () => {
  it('admits exactly the daily limit when 20 asks race against a limit of 5, charging and calling the provider 5 times', async () => {
    const sessionId = (await server.rest('tn_session_start', {})).body.sessionId;
    // Hold the provider so all 20 asks are in flight together before any answer lands.
    const release = provider.hold();
    const asks = Array.from({ length: 20 }, (_, i) => server.rest('tn_session_ask', { sessionId, message: `Question ${i}`, clientEventId: `race-${i}` }));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    release();
    const results = await Promise.all(asks);

    const admitted = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status === 429);
    expect(admitted).toHaveLength(5);
    expect(refused).toHaveLength(15);
    for (const r of refused) {
      expect(r.body.code).toBe('RATE_LIMITED');
      expect(r.body.details.limit).toEqual({ current: 5, max: 5, window: 'day' });
      expect(r.body.details.retryAfter).toBeGreaterThan(0);
      expect(r.body.details.retryAfter).toBeLessThanOrEqual(86_400);
    }
    expect(provider.requests).toHaveLength(5);
    expect((await server.rest('tn_user_quota', {})).body.prompts).toMatchObject({ current: 5, max: 5, remaining: 0 });

    // Refused asks wrote nothing; admitted ones wrote a question and an answer each, seqs 1..10.
    const events = await allEvents(sessionId);
    expect(events.map((e) => e.seq)).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
    expect(events.filter((e) => e.type === 'user_message')).toHaveLength(5);
    expect(events.filter((e) => e.type === 'assistant_message')).toHaveLength(5);
  });
});

describe('two devices asking at once', () => {
  it('gives every event a distinct seq with no gaps, and every answer follows its own question', async () => {
    const fresh = await startTestServer({ TN_OPENAI_BASE_URL: provider.openaiBaseUrl, TN_PROMPTS_PER_DAY: '100' });
    try {
      expect((await fresh.rest('tn_user_byok_add', { provider: 'openai', apiKey: OPENAI_KEY })).status).toBe(200);
      const sessionId = (await fresh.rest('tn_session_start', {})).body.sessionId;
      provider.reset();
      const ask = (device: string, i: number) =>
        fresh.rest('tn_session_ask', { sessionId, message: `${device} question ${i}`, clientEventId: `${device}-${i}`, deviceId: device });
      const results = await Promise.all([0, 1, 2, 3, 4, 5].flatMap((i) => [ask('cli', i), ask('web', i)]));
      expect(results.map((r) => r.status)).toEqual(Array(12).fill(200));

      const page = await fresh.rest('tn_session_history', { sessionId, limit: 100 });
      const events: HistoryEvent[] = page.body.items;
      expect(events.map((e) => e.seq)).toEqual(Array.from({ length: 24 }, (_, i) => i + 1));
      expect(new Set(events.map((e) => e.eventId)).size).toBe(24);
      const byId = new Map(events.map((e) => [e.eventId, e]));
      for (const answer of events.filter((e) => e.type === 'assistant_message')) {
        const question = byId.get(answer.refersTo!)!;
        expect(question.type).toBe('user_message');
        expect(question.clientEventId).toBe(answer.clientEventId);
        expect(question.seq).toBeLessThan(answer.seq);
      }
      for (const device of ['cli', 'web']) {
        expect(events.filter((e) => e.type === 'user_message' && e.deviceId === device)).toHaveLength(6);
      }
      // Each answer's returned seqs match the log.
      for (const result of results) {
        expect(byId.get(result.body.eventsEmitted.at(-1))?.seq).toBe(result.body.answerSeq);
      }
    } finally {
      await fresh.close();
    }
  });

  it('lets only one of two devices retrying the same clientEventId call the provider', async () => {
    // The first server's user has spent the daily limit; a fresh server keeps this test independent.
    const fresh = await startTestServer({ TN_OPENAI_BASE_URL: provider.openaiBaseUrl });
    try {
      expect((await fresh.rest('tn_user_byok_add', { provider: 'openai', apiKey: OPENAI_KEY })).status).toBe(200);
      const id = (await fresh.rest('tn_session_start', {})).body.sessionId;
      provider.reset();
      const release = provider.hold();
      const both = [0, 1].map(() => fresh.rest('tn_session_ask', { sessionId: id, message: 'Same question', clientEventId: 'shared-id' }));
      await new Promise((resolve) => setTimeout(resolve, 800));
      release();
      const [a, b] = await Promise.all(both);
      const statuses = [a!.status, b!.status].sort();
      expect(statuses).toEqual([200, 409]);
      expect(provider.requests).toHaveLength(1);
      const after = await fresh.rest('tn_session_ask', { sessionId: id, message: 'Same question', clientEventId: 'shared-id' });
      expect(after.body.status).toBe('replayed');
      expect((await fresh.rest('tn_user_quota', {})).body.prompts.current).toBe(1);
    } finally {
      await fresh.close();
    }
  });
});
