import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PageFailed, PoliteClient, retryAfterMs } from '../../functions/ingest/crawl/polite-client.js';
import { json, ReplayOrigin } from '../support/replay-server.js';

/** Two origins answering `/page/<n>` (and a few special paths), measured at the server. */
const routes = (name: string) =>
  new ReplayOrigin(name, ({ path, headers }) => {
    if (path === '/cookie') return { status: 200, body: '{}', headers: { 'set-cookie': 'session=abc123; Path=/; HttpOnly' } };
    if (path === '/echo-cookie') return json({ cookie: headers.cookie ?? null });
    if (path === '/moved-away') return { status: 302, body: '', headers: { location: 'https://elsewhere.example/page' } };
    if (path === '/moved-here') return { status: 301, body: '', headers: { location: '/page/1' } };
    if (path.startsWith('/page/')) return json({ page: path }, { etag: `"${path}"`, 'last-modified': 'Mon, 01 Jun 2026 08:00:00 GMT' });
    return undefined;
  });

const a = routes('a');
const b = routes('b');
beforeAll(async () => {
  await Promise.all([a.start(), b.start()]);
});
afterEach(() => {
  for (const origin of [a, b]) {
    origin.resetCounters();
    origin.latencyMs = 0;
  }
});
afterAll(async () => {
  await Promise.all([a.close(), b.close()]);
});

const client = (options: Partial<ConstructorParameters<typeof PoliteClient>[0]> = {}) =>
  new PoliteClient({ allowedOrigins: [a.origin, b.origin], backoffMs: 10, maxBackoffMs: 50, timeoutMs: 1000, ...options });

describe('the polite client', () => {
  it('keeps at most two requests in flight per host, however many are asked for at once, and each host has its own two', async () => {
    a.latencyMs = 40;
    b.latencyMs = 40;
    const polite = client();
    const pages = Array.from({ length: 10 }, (_, i) => i);
    const answers = await Promise.all([...pages.map((i) => polite.request({ url: `${a.origin}/page/${i}` })), ...pages.map((i) => polite.request({ url: `${b.origin}/page/${i}` }))]);
    expect(answers.every((r) => r.status === 200)).toBe(true);
    expect(a.maxInFlight).toBe(2);
    expect(b.maxInFlight).toBe(2);
    // Served in the order asked.
    expect(a.log.map((r) => r.url)).toEqual(pages.map((i) => `/page/${i}`));
  });

  it("waits out a 429's Retry-After before asking that host anything else", async () => {
    a.inject((r) => r.url === '/page/1', { status: 429, retryAfter: '1' });
    const polite = client();
    const started = Date.now();
    const first = polite.request({ url: `${a.origin}/page/1` });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const second = polite.request({ url: `${a.origin}/page/2` });
    await Promise.all([first, second]);
    const [refused] = a.log;
    expect(refused!.status).toBe(429);
    const after = a.log.slice(1);
    expect(after.map((r) => r.url).sort()).toEqual(['/page/1', '/page/2']);
    for (const request of after) expect(request.at - started).toBeGreaterThanOrEqual(1000);
  });

  it('reads Retry-After as seconds or as an HTTP date, and gives up at once on one longer than it waits', async () => {
    expect(retryAfterMs('120')).toBe(120_000);
    expect(retryAfterMs(new Date(Date.UTC(2026, 0, 1, 0, 0, 30)).toUTCString(), Date.UTC(2026, 0, 1))).toBe(30_000);
    expect(retryAfterMs('soon')).toBeUndefined();
    expect(retryAfterMs(null)).toBeUndefined();
    a.inject((r) => r.url === '/page/3', { status: 503, retryAfter: '3600' });
    const started = Date.now();
    const failed = await client({ maxRetryAfterMs: 60_000 })
      .request({ url: `${a.origin}/page/3` })
      .catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(PageFailed);
    expect((failed as PageFailed).reason).toBe('gave-up');
    expect((failed as PageFailed).message).toMatch(/asked to wait 3600 s/);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('retries a 5xx and a page that stalls past its time limit, and gives up after the last attempt', async () => {
    a.inject((r) => r.url === '/page/4', { status: 502 }, { delayMs: 1500 });
    const answer = await client({ timeoutMs: 300 }).request({ url: `${a.origin}/page/4` });
    expect(answer).toMatchObject({ status: 200, attempts: 3 });
    a.inject((r) => r.url === '/page/5', { status: 500 }, { status: 500 }, { status: 500 });
    const failed = (await client({ retries: 2 })
      .request({ url: `${a.origin}/page/5` })
      .catch((error: unknown) => error)) as PageFailed;
    expect(failed).toMatchObject({ reason: 'gave-up', status: 500 });
    expect(failed.message).toMatch(/answered 500 after 3 attempts/);
  });

  it('retries a dropped connection', async () => {
    a.inject((r) => r.url === '/page/6', { drop: true });
    expect(await client().request({ url: `${a.origin}/page/6` })).toMatchObject({ status: 200, attempts: 2 });
  });

  it('stops rather than wait past the run deadline', async () => {
    a.inject((r) => r.url === '/page/7', { status: 503, retryAfter: '5' });
    const failed = (await client({ deadline: Date.now() + 2000 })
      .request({ url: `${a.origin}/page/7` })
      .catch((error: unknown) => error)) as PageFailed;
    expect(failed).toMatchObject({ reason: 'deadline' });
  });

  it('sends the validators it was given and reports a 304 as not modified', async () => {
    const polite = client();
    const first = await polite.request({ url: `${a.origin}/page/8` });
    expect(first).toMatchObject({ etag: '"/page/8"', lastModified: 'Mon, 01 Jun 2026 08:00:00 GMT', notModified: false });
    const again = await polite.request({ url: `${a.origin}/page/8`, validators: { etag: first.etag, lastModified: first.lastModified } });
    expect(again).toMatchObject({ status: 304, notModified: true, text: '' });
    expect(a.log[1]!.headers).toMatchObject({ 'if-none-match': '"/page/8"', 'if-modified-since': 'Mon, 01 Jun 2026 08:00:00 GMT' });
  });

  it('keeps a cookie the site sets and sends it back to that site only', async () => {
    const polite = client();
    await polite.request({ url: `${a.origin}/cookie` });
    expect(JSON.parse((await polite.request({ url: `${a.origin}/echo-cookie` })).text)).toEqual({ cookie: 'session=abc123' });
    expect(JSON.parse((await polite.request({ url: `${b.origin}/echo-cookie` })).text)).toEqual({ cookie: null });
  });

  it('goes nowhere but the source origins: not asked, not by redirect', async () => {
    const polite = client();
    await expect(polite.request({ url: 'https://elsewhere.example/x' })).rejects.toThrow(/is not a source origin/);
    await expect(polite.request({ url: `${a.origin}/moved-away` })).rejects.toThrow(/elsewhere.example is not a source origin/);
    expect(await polite.request({ url: `${a.origin}/moved-here` })).toMatchObject({ status: 200, url: `${a.origin}/page/1` });
    expect(polite.requests).toBe(3);
  });
});
