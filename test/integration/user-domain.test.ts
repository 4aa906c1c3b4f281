import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPersonalAccessToken } from '../../functions/platform/auth/personal-access-tokens.js';
import { keys } from '../../functions/platform/store/keys.js';
import { setPlan } from '../../functions/user/plans.js';
import { connectClient, SECOND_TOKEN, startTestServer, TEST_TOKEN, type TestServer } from '../support/test-server.js';
import { unrecorded } from '../support/store/command-recorder.js';

const ANTHROPIC_KEY = 'sk-ant-api03-SECRETsecretSECRETsecret-tail7788';
const OPENAI_KEY = 'sk-proj-SECRETsecretSECRETsecretOPEN4455';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ TN_PROMPTS_PER_DAY: '42' });
});
afterAll(async () => {
  await server?.close();
});

describe('BYOK credentials', () => {
  it('stores a key encrypted, returns only its last four, and never echoes it anywhere', async () => {
    const client = await connectClient(server.url);
    try {
      const result = await client.callTool({ name: 'tn_user_byok_add', arguments: { provider: 'anthropic', apiKey: ANTHROPIC_KEY, label: 'personal' } });
      expect(result.isError).toBeFalsy();
      const created = result.structuredContent as any;
      expect(created).toMatchObject({ provider: 'anthropic', label: 'personal', last4: '7788' });
      expect(JSON.stringify(result)).not.toContain('SECRETsecret');

      const stored = await unrecorded(() => server.services.store.doc.send(
        new GetCommand({ TableName: server.config.tableName, Key: keys.byokCredential('local-user', created.credentialId) }),
      ));
      expect(stored.Item?.envelope).toMatchObject({ v: 1, provider: 'local' });
      expect(JSON.stringify(stored.Item)).not.toContain('SECRETsecret');

      const listed = await client.callTool({ name: 'tn_user_byok_list', arguments: {} });
      expect(JSON.stringify(listed)).not.toContain('SECRETsecret');
      expect((listed.structuredContent as any).items.map((i: any) => i.credentialId)).toContain(created.credentialId);
    } finally {
      await client.close();
    }
  });

  it('checks key formats per provider without echoing the key', async () => {
    const wrong = await server.rest('tn_user_byok_add', { provider: 'openai', apiKey: ANTHROPIC_KEY });
    expect(wrong.status).toBe(400);
    expect(wrong.body.details.fields[0].field).toBe('apiKey');
    expect(JSON.stringify(wrong.body)).not.toContain('SECRETsecret');
    const short = await server.rest('tn_user_byok_add', { provider: 'anthropic', apiKey: 'sk-ant-short' });
    expect(short.status).toBe(400);
    const missing = await server.rest('tn_user_byok_add', { provider: 'openai-compatible', apiKey: 'local-model-key' });
    expect(missing.status).toBe(400);
    expect(missing.body.details.fields.map((f: any) => f.field).sort()).toEqual(['baseUrl', 'model']);
  });

  it('accepts a loopback base URL locally for openai-compatible providers', async () => {
    const added = await server.rest('tn_user_byok_add', {
      provider: 'openai-compatible',
      apiKey: 'local-model-key-1234',
      baseUrl: 'http://127.0.0.1:11434/v1/',
      model: 'llama3',
    });
    expect(added.status).toBe(200);
    expect(added.body.baseUrl).toBe('http://127.0.0.1:11434/v1');
    await server.rest('tn_user_byok_delete', { credentialId: added.body.credentialId, confirm: 'DELETE_BYOK_CREDENTIAL' });
  });

  it('deletes only with the confirmation literal, clears the default, and a second delete is NOT_FOUND', async () => {
    const added = await server.rest('tn_user_byok_add', { provider: 'openai', apiKey: OPENAI_KEY });
    const id = added.body.credentialId;
    const setDefault = await server.rest('tn_user_preferences_set', { defaultCredentialId: id });
    expect(setDefault.body.defaultCredentialId).toBe(id);

    const unconfirmed = await server.rest('tn_user_byok_delete', { credentialId: id, confirm: 'yes' });
    expect(unconfirmed.status).toBe(400);
    expect(unconfirmed.body.details.fields[0].field).toBe('confirm');

    const deleted = await server.rest('tn_user_byok_delete', { credentialId: id, confirm: 'DELETE_BYOK_CREDENTIAL' });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ credentialId: id, deleted: true });
    expect((await server.rest('tn_user_preferences_get', {})).body.defaultCredentialId).toBeNull();

    const again = await server.rest('tn_user_byok_delete', { credentialId: id, confirm: 'DELETE_BYOK_CREDENTIAL' });
    expect(again.status).toBe(404);
    expect(again.body.code).toBe('NOT_FOUND');
  });

  it('keeps users apart: another user can neither list nor delete my credential', async () => {
    const mine = await server.rest('tn_user_byok_add', { provider: 'openai', apiKey: OPENAI_KEY, label: 'alice' });
    const theirs = await server.rest('tn_user_byok_list', {}, SECOND_TOKEN);
    expect(theirs.body.items.map((i: any) => i.credentialId)).not.toContain(mine.body.credentialId);
    const stolen = await server.rest('tn_user_byok_delete', { credentialId: mine.body.credentialId, confirm: 'DELETE_BYOK_CREDENTIAL' }, SECOND_TOKEN);
    expect(stolen.status).toBe(404);
    const stillMine = await server.rest('tn_user_byok_list', { limit: 100 });
    expect(stillMine.body.items.map((i: any) => i.credentialId)).toContain(mine.body.credentialId);
    const borrowed = await server.rest('tn_user_preferences_set', { defaultCredentialId: mine.body.credentialId }, SECOND_TOKEN);
    expect(borrowed.status).toBe(422);
  });

  it('pages with tamper-evident cursors scoped to the user', async () => {
    for (let i = 0; i < 3; i++) await server.rest('tn_user_byok_add', { provider: 'openai', apiKey: OPENAI_KEY, label: `page-${i}` });
    const pageSize = 2;
    const first = await server.rest('tn_user_byok_list', { limit: pageSize });
    expect(first.body.items).toHaveLength(pageSize);
    expect(first.body.hasMore).toBe(true);
    const seen = new Set(first.body.items.map((i: any) => i.credentialId));
    let cursor = first.body.nextCursor;
    while (cursor) {
      const page = await server.rest('tn_user_byok_list', { limit: pageSize, cursor });
      expect(page.status).toBe(200);
      for (const item of page.body.items) {
        expect(seen.has(item.credentialId)).toBe(false);
        seen.add(item.credentialId);
      }
      cursor = page.body.nextCursor;
      expect(page.body.hasMore).toBe(Boolean(cursor));
    }
    expect(seen.size).toBe(first.body.totalCount);

    const tampered = first.body.nextCursor.replace(/.$/, (c: string) => (c === 'A' ? 'B' : 'A'));
    expect((await server.rest('tn_user_byok_list', { cursor: tampered })).status).toBe(400);
    const foreign = await server.rest('tn_user_byok_list', { cursor: first.body.nextCursor }, SECOND_TOKEN);
    expect(foreign.status).toBe(400);
    expect(foreign.body.details.fields[0].field).toBe('cursor');
  });

  it('rate-limits byok_add per user with retryAfter and the limit', async () => {
    const results = [];
    for (let i = 0; i < 12; i++) results.push(await server.rest('tn_user_byok_add', { provider: 'openai', apiKey: OPENAI_KEY }, SECOND_TOKEN));
    const limited = results.filter((r) => r.status === 429);
    expect(limited.length).toBe(2);
    expect(limited[0]!.body.details).toMatchObject({ limit: { current: 10, max: 10, window: 'minute' } });
    expect(limited[0]!.body.details.retryAfter).toBeGreaterThan(0);
    expect(limited[0]!.body.details.retryAfter).toBeLessThanOrEqual(60);
    const quota = await server.rest('tn_user_quota', {}, SECOND_TOKEN);
    expect(quota.body.rateLimits.find((r: any) => r.tool === 'tn_user_byok_add')).toMatchObject({ current: 10, max: 10, remaining: 0 });
  });
});

describe('preferences', () => {
  it('merges partial updates, clears with null, and validates every field', async () => {
    const first = await server.rest('tn_user_preferences_set', { tutoringStyle: 'direct', language: 'fr-CA', defaultInstitution: 'UBCV' });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ tutoringStyle: 'direct', language: 'fr-CA', defaultInstitution: 'ubc', theme: 'system' });
    const second = await server.rest('tn_user_preferences_set', { theme: 'dark', defaultInstitution: null });
    expect(second.body).toMatchObject({ tutoringStyle: 'direct', language: 'fr-CA', theme: 'dark', defaultInstitution: null });
    expect(Date.parse(second.body.updatedAt)).not.toBeNaN();

    const empty = await server.rest('tn_user_preferences_set', {});
    expect(empty.status).toBe(400);
    const unknown = await server.rest('tn_user_preferences_set', { colour: 'red' });
    expect(unknown.body.details.fields[0].field).toBe('colour');
    const read = await server.rest('tn_user_preferences_get', {});
    expect(read.body).toEqual(second.body);
  });
});

describe('quota, subscription and permissions', () => {
  it('reports the free plan with TN_PROMPTS_PER_DAY and a plan set by the operator', async () => {
    const free = await server.rest('tn_user_subscription', {});
    expect(free.body).toMatchObject({ plan: 'free', status: 'active', limits: { promptsPerDay: 42 }, renewsAt: null });
    const quota = await server.rest('tn_user_quota', {});
    expect(quota.body.prompts).toMatchObject({ current: 0, max: 42, remaining: 42, window: 'day' });
    expect(Date.parse(quota.body.prompts.resetsAt)).toBeGreaterThan(Date.now());

    await setPlan(server.services.store, { userId: 'bob', plan: 'pro', now: new Date() });
    const pro = await server.rest('tn_user_subscription', {}, SECOND_TOKEN);
    expect(pro.body.plan).toBe('pro');
    expect(pro.body.limits.promptsPerDay).toBeGreaterThan(42);
    expect(Date.parse(pro.body.renewsAt)).toBeGreaterThan(Date.now());
  });

  it('answers FORBIDDEN when a personal access token lacks the tool permission, and works with it', async () => {
    const limited = await createPersonalAccessToken(server.services.store, { userId: 'carol', permissions: ['preferences:read'] });
    const denied = await server.rest('tn_user_byok_list', {}, limited.token);
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe('FORBIDDEN');
    const allowed = await server.rest('tn_user_preferences_get', {}, limited.token);
    expect(allowed.status).toBe(200);
    const revoked = await server.rest('tn_user_preferences_get', {}, `${limited.token}x`);
    expect(revoked.status).toBe(401);
  });

  it('never stores a personal access token in the clear', async () => {
    const created = await createPersonalAccessToken(server.services.store, { userId: 'dave' });
    const items = await unrecorded(() => server.services.store.doc.send(
      new QueryCommand({
        TableName: server.config.tableName,
        IndexName: 'GSI1',
        KeyConditionExpression: 'GSI1PK = :pk',
        ExpressionAttributeValues: { ':pk': 'USER#dave' },
      }),
    ));
    expect(items.Items).toHaveLength(1);
    expect(JSON.stringify(items.Items)).not.toContain(created.token);
  });
});

describe('REST twin', () => {
  it('returns the same JSON as the MCP structuredContent', async () => {
    const client = await connectClient(server.url, { token: TEST_TOKEN });
    try {
      const viaMcp = await client.callTool({ name: 'tn_user_subscription', arguments: {} });
      const viaRest = await server.rest('tn_user_subscription', {});
      expect(viaRest.body).toEqual(viaMcp.structuredContent);
      expect(viaRest.headers.get('x-request-id')).toMatch(/^[0-9A-Z]{26}$/);
    } finally {
      await client.close();
    }
  });

  it('publishes an OpenAPI document with a path per tool', async () => {
    const doc = await (await fetch(`${server.url}/openapi.json`)).json();
    expect(doc.openapi).toBe('3.1.0');
    for (const name of ['tn_user_byok_add', 'tn_user_quota', 'tn_tools_list']) {
      expect(doc.paths[`/v1/tools/${name}`].post.requestBody).toBeTruthy();
    }
    expect(doc.components.schemas.ErrorResponse).toBeTruthy();
  });
});
