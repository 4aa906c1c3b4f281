import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unrecorded } from '../support/store/command-recorder.js';
import { sessionKeys } from '../../functions/platform/store/keys.js';
import { CLIENT_KINDS, connectAnyClient, errorResponseOf, type AnyClient } from '../support/mcp-clients.js';
import { expectOk } from '../support/rest-expectations.js';
import { SECOND_TOKEN, startTestServer, TEST_TOKEN, type TestServer } from '../support/test-server.js';

/** No operator model here: whether the tutor can answer depends on the user's own keys. */
let server: TestServer;
/** The same, with an operator model (never called: nothing is asked). */
let operated: TestServer;

const ALICE_SESSIONS = 23;
const aliceSessions: string[] = [];
const bobSessions: string[] = [];

interface Summary {
  sessionId: string;
  status: string;
  owner: string;
  context: { course: string | null; topic: string | null };
  preview: string | null;
  lastActivityAt: string;
  latestSeq: number;
}
interface ListPage {
  items: Summary[];
  nextCursor?: string;
  hasMore: boolean;
  tutor: { answeredBy: string | null; needs: string | null };
}

const ok = (tool: string, input: unknown, token: string | null = TEST_TOKEN, on = server) => expectOk(on, tool, input, token);

async function listed(client: AnyClient, args: Record<string, unknown>): Promise<ListPage> {
  const result = await client.callTool({ name: 'tn_session_list', arguments: args });
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  return result.structuredContent as ListPage;
}

/** Every page, following nextCursor. */
async function everyPage(client: AnyClient, limit: number): Promise<ListPage[]> {
  const pages: ListPage[] = [];
  let cursor: string | undefined;
  do {
    const page = await listed(client, { limit, ...(cursor ? { cursor } : {}) });
    pages.push(page);
    cursor = page.nextCursor;
    expect(page.hasMore).toBe(Boolean(cursor));
  } while (cursor && pages.length < 50);
  return pages;
}

const byActivity = (items: Summary[]) => items.every((item, i) => i === 0 || items[i - 1]!.lastActivityAt >= item.lastActivityAt);

beforeAll(async () => {
  [server, operated] = await Promise.all([
    startTestServer(),
    startTestServer({ TN_DEFAULT_LLM_PROVIDER: 'openai-compatible', TN_DEFAULT_LLM_MODEL: 'tiny', TN_DEFAULT_LLM_API_KEY: 'operator-key-list-0001', TN_DEFAULT_LLM_BASE_URL: 'http://127.0.0.1:9/v1' }),
  ]);
  // One after the other, so each has its own last activity.
  for (let i = 0; i < ALICE_SESSIONS; i++) aliceSessions.push((await ok('tn_session_start', { topic: `topic ${i}` })).sessionId);
  for (let i = 0; i < 3; i++) bobSessions.push((await ok('tn_session_start', { topic: `bob ${i}` }, SECOND_TOKEN)).sessionId);
  // Activity moves a session to the top: a draft on the oldest one (from "another device").
  await ok('tn_session_ask', { sessionId: aliceSessions[0], message: 'How do   I\nreverse a linked list?', draft: true, clientEventId: 'phone-1', deviceId: 'phone' });
});

afterAll(async () => {
  await Promise.all([server?.close(), operated?.close()]);
});

describe.each(CLIENT_KINDS)('tn_session_list through the %s client', (kind) => {
  let alice: AnyClient;
  let bob: AnyClient;
  beforeAll(async () => {
    [alice, bob] = await Promise.all([connectAnyClient(kind, server.url), connectAnyClient(kind, server.url, { token: SECOND_TOKEN })]);
  });
  afterAll(async () => {
    await Promise.all([alice?.close(), bob?.close()]);
  });

  it('is listed with its description and schemas', async () => {
    const tool = (await alice.listTools()).tools.find((t) => t.name === 'tn_session_list');
    expect(tool?.outputSchema).toBeDefined();
  });

  it("pages through every one of the user's sessions once, most recently active first, started on any device", async () => {
    const pages = await everyPage(alice, 10);
    expect(pages.map((p) => p.items.length)).toEqual([10, 10, 3]);
    const items = pages.flatMap((p) => p.items);
    expect(items.map((s) => s.sessionId).sort()).toEqual([...aliceSessions].sort());
    expect(byActivity(items)).toBe(true);
    // The session with the latest activity (the draft written on the phone) leads, with the draft as its preview.
    expect(items[0]).toMatchObject({ sessionId: aliceSessions[0], status: 'active', owner: 'user', preview: 'How do I reverse a linked list?', latestSeq: 1 });
    // The rest in the reverse order they were started.
    expect(items.slice(1).map((s) => s.sessionId)).toEqual(aliceSessions.slice(1).reverse());
    expect(items[1]).toMatchObject({ context: { topic: `topic ${ALICE_SESSIONS - 1}`, course: null }, preview: null, latestSeq: 0 });
  });

  it("never shows another user's sessions, and refuses another user's or a tampered cursor", async () => {
    const bobs = (await everyPage(bob, 100)).flatMap((p) => p.items);
    expect(bobs.map((s) => s.sessionId).sort()).toEqual([...bobSessions].sort());
    const alicesFirst = await listed(alice, { limit: 5 });
    expect(alicesFirst.items.some((s) => bobSessions.includes(s.sessionId))).toBe(false);

    const foreign = await bob.callTool({ name: 'tn_session_list', arguments: { limit: 5, cursor: alicesFirst.nextCursor } });
    const error = errorResponseOf(foreign);
    expect(error.code).toBe('BAD_REQUEST');
    expect(JSON.stringify(error.details)).toContain('cursor');
    const [body, mac] = alicesFirst.nextCursor!.split('.');
    const tampered = Buffer.from(Buffer.from(body!, 'base64url').toString('utf8').replace(/"sessionId":"[^"]+"/, `"sessionId":"${bobSessions[0]}"`)).toString('base64url');
    expect(errorResponseOf(await alice.callTool({ name: 'tn_session_list', arguments: { cursor: `${tampered}.${mac}` } })).code).toBe('BAD_REQUEST');
  });

  it('lists nothing without sign-in and says sign-in is what the tutor needs here', async () => {
    const anonymous = await connectAnyClient(kind, server.url, { token: null });
    try {
      expect(await listed(anonymous, {})).toEqual({ items: [], hasMore: false, tutor: { answeredBy: null, needs: 'sign-in' } });
    } finally {
      await anonymous.close();
    }
  });
});

describe('tn_session_list over REST', () => {
  it('leaves out expired sessions and still fills the page', async () => {
    const { items: before } = await ok('tn_session_list', { limit: 100 }, SECOND_TOKEN);
    expect(before).toHaveLength(3);
    // Bob's two most recent sessions expire; TTL has not removed them yet.
    const past = new Date(Date.now() - 60_000).toISOString();
    for (const sessionId of bobSessions.slice(1)) {
      await unrecorded(() =>
        server.services.store.doc.send(
          new UpdateCommand({
            TableName: server.config.tableName,
            Key: sessionKeys.meta(sessionId),
            UpdateExpression: 'SET expiresAt = :past',
            ExpressionAttributeValues: { ':past': past },
          }),
        ),
      );
    }
    const page = await ok('tn_session_list', { limit: 1 }, SECOND_TOKEN);
    expect(page.items.map((s: Summary) => s.sessionId)).toEqual([bobSessions[0]]);
    expect(page.hasMore).toBe(false);
    expect(page.nextCursor).toBeUndefined();
  });

  it('lists an ended session as ended', async () => {
    const sessionId = aliceSessions[5]!;
    await ok('tn_session_end', { sessionId });
    const { items } = await ok('tn_session_list', { limit: 1 });
    expect(items[0]).toMatchObject({ sessionId, status: 'ended' });
  });

  it("says whose model answers: none until the user adds a key, theirs once they do, and which key when they have several", async () => {
    expect((await ok('tn_session_list', { limit: 1 })).tutor).toEqual({ answeredBy: null, needs: 'provider-key' });
    const first = await ok('tn_user_byok_add', { provider: 'openai', apiKey: 'sk-proj-LISTsecretLISTsecretLIST1111' });
    expect((await ok('tn_session_list', { limit: 1 })).tutor).toEqual({ answeredBy: 'byok', needs: null });
    await ok('tn_user_byok_add', { provider: 'anthropic', apiKey: 'sk-ant-api03-LISTsecretLISTsecret2222' });
    expect((await ok('tn_session_list', { limit: 1 })).tutor).toEqual({ answeredBy: null, needs: 'default-key' });
    await ok('tn_user_preferences_set', { defaultCredentialId: first.credentialId });
    expect((await ok('tn_session_list', { limit: 1 })).tutor).toEqual({ answeredBy: 'byok', needs: null });
  });

  it("names the operator's model where there is one, signed in or not", async () => {
    expect((await ok('tn_session_list', {}, null, operated)).tutor).toEqual({ answeredBy: 'operator', needs: null });
    expect((await ok('tn_session_list', {}, TEST_TOKEN, operated)).tutor).toEqual({ answeredBy: 'operator', needs: null });
  });

  it('refuses bad paging input, naming the field', async () => {
    for (const input of [{ limit: 0 }, { limit: 101 }, { cursor: '' }, { extra: true }]) {
      const response = await server.rest('tn_session_list', input);
      expect(response.status, JSON.stringify(input)).toBe(400);
      expect(response.body.code).toBe('BAD_REQUEST');
    }
  });
});
