import { ulid } from 'ulid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consumeQuota, quotaWindow, readCounter, releaseQuota } from '../../functions/platform/store/quota-counter.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

describe('quota primitive (conditional counter) on DynamoDB Local', () => {
  it('admits exactly the limit under 50 concurrent increments', async () => {
    const userId = `quota-${ulid()}`;
    const window = quotaWindow(86_400_000, new Date());
    const results = await Promise.all(
      Array.from({ length: 50 }, () => consumeQuota(server.services.store, { userId, kind: 'prompts', max: 10, window })),
    );
    expect(results.filter((r) => r.admitted)).toHaveLength(10);
    expect(results.filter((r) => !r.admitted).every((r) => r.current === 10)).toBe(true);
    expect(await readCounter(server.services.store, userId, 'prompts', window)).toBe(10);
  });

  it('releases units so a failed unit of work is not charged, never going below zero', async () => {
    const userId = `quota-${ulid()}`;
    const window = quotaWindow(60_000, new Date());
    const args = { userId, kind: 'tool:x', max: 2, window };
    expect((await consumeQuota(server.services.store, args)).admitted).toBe(true);
    expect((await consumeQuota(server.services.store, args)).admitted).toBe(true);
    expect((await consumeQuota(server.services.store, args)).admitted).toBe(false);
    await releaseQuota(server.services.store, args);
    expect((await consumeQuota(server.services.store, args)).admitted).toBe(true);
    await releaseQuota(server.services.store, args);
    await releaseQuota(server.services.store, args);
    await releaseQuota(server.services.store, args);
    expect(await readCounter(server.services.store, userId, 'tool:x', window)).toBe(0);
  });

  it('keeps separate windows: a new window starts from zero', async () => {
    const userId = `quota-${ulid()}`;
    const today = quotaWindow(86_400_000, new Date('2026-11-22T23:59:59Z'));
    const tomorrow = quotaWindow(86_400_000, new Date('2026-11-23T00:00:01Z'));
    expect(today.key).toBe('2026-11-22');
    expect(tomorrow.key).toBe('2026-11-23');
    await consumeQuota(server.services.store, { userId, kind: 'prompts', max: 1, window: today });
    expect((await consumeQuota(server.services.store, { userId, kind: 'prompts', max: 1, window: today })).admitted).toBe(false);
    expect((await consumeQuota(server.services.store, { userId, kind: 'prompts', max: 1, window: tomorrow })).admitted).toBe(true);
  });
});
