import { readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/chromium.js';
import { startFakeProvider, type FakeProvider } from '../support/fake-llm-provider.js';
import { ulid } from 'ulid';
import { SECOND_TOKEN, startTestServer, TEST_TOKEN, type TestServer } from '../support/test-server.js';
import { expectAccessible, openWebPage, screenshot, type WebPage } from '../support/web-page.js';

const OPERATOR_KEY = 'operator-key-web-0001';
let provider: FakeProvider;
let server: TestServer;
let browser: Browser;
let web: WebPage;

beforeAll(async () => {
  provider = await startFakeProvider({ acceptKeys: [OPERATOR_KEY] });
  [server, browser] = await Promise.all([
    startTestServer({
      TN_DEFAULT_LLM_PROVIDER: 'openai-compatible',
      TN_DEFAULT_LLM_MODEL: 'tiny',
      TN_DEFAULT_LLM_API_KEY: OPERATOR_KEY,
      TN_DEFAULT_LLM_BASE_URL: provider.openaiBaseUrl,
      TN_TUTOR_MAX_TOOL_CALLS: '0',
      // On the shared catalog table (course pages need it), as users of this file's own.
      TN_LOCAL_USER_ID: `web-owner-${ulid()}`,
      TN_LOCAL_TOKENS: `${SECOND_TOKEN}=web-bob-${ulid()}`,
    }, { catalog: 'shared' }),
    launchChromium(),
  ]);
  // A one-second poll: the "other device" message must show up within one poll.
  web = await openWebPage(browser, { storage: { 'tn-poll-seconds': '1', 'tn-device-id': 'web-test' } });
});
afterAll(async () => {
  await web?.close();
  await browser?.close();
  await server?.close();
  await provider?.close();
});

describe('the web app: settings and tutor (signed in with a pasted token)', () => {
  it('signs in with a token, shows plan and quota, adds and deletes a masked key after confirmation', async () => {
    const { page } = web;
    await page.goto(`${server.url}/settings`);
    expect(await page.title()).toContain('Tutor Nexus');
    await page.getByLabel('Access token').fill(TEST_TOKEN);
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    await page.getByRole('meter').waitFor();
    expect(await page.getByText(/Plan: free/).count()).toBe(1);

    await page.getByLabel('Provider').selectOption('anthropic');
    await page.getByLabel('API key', { exact: true }).fill('sk-ant-api03-WEBTESTwebtestWEBTEST9876');
    await page.getByLabel('Label').fill('personal');
    await page.getByRole('button', { name: 'Add key' }).click();
    await page.getByText('••••9876').waitFor();
    expect(await page.content()).not.toContain('WEBTESTwebtest');
    await expectAccessible(page);
    await screenshot(page, 'web-settings');

    await page.getByRole('button', { name: 'Delete personal' }).click();
    await page.getByRole('button', { name: 'Yes, delete personal' }).click();
    await page.getByText('No keys saved').waitFor();
    expect((await server.rest('tn_user_byok_list', {})).body.items).toEqual([]);
    expect(web.errors).toEqual([]);
  });

  it('signs in with OAuth and PKCE through the server\'s sign-in page', async () => {
    const { page } = web;
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/oauth/'));
    await page.getByLabel('Access token').fill(TEST_TOKEN);
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL((url) => url.pathname === '/settings' && !url.search);
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    // The token it holds now is an OAuth access token (a JWT), in a cookie no script of the page can read.
    const cookie = (await web.context.cookies(server.url)).find((c) => c.name === 'tn_web');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
    expect(decodeURIComponent(cookie!.value).split('.')).toHaveLength(3);
    expect(await page.evaluate(() => [document.cookie, JSON.stringify({ ...localStorage }), JSON.stringify({ ...sessionStorage })].join(' '))).not.toContain(decodeURIComponent(cookie!.value));
    await page.getByRole('meter').waitFor();
    expect(web.errors).toEqual([]);
  });

  it('keeps the courses I have done in my preferences when signed in', async () => {
    const { page } = web;
    await page.goto(`${server.url}/courses/sfu/CMPT%20225`);
    await page.getByLabel(/Add a course you have done/).fill('CMPT 125 B+');
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await server.rest('tn_user_preferences_get', {})).body.completedCourses).toEqual([{ course: 'CMPT 125', grade: 'B+' }]);
    // Another browser signed in as the same user sees them (no local copy involved).
    const other = await openWebPage(browser, { storage: { 'tn-token': TEST_TOKEN } });
    await other.page.goto(`${server.url}/courses/sfu/CMPT%20225`);
    await other.page.getByRole('list', { name: 'Prerequisite tree' }).getByText('✓ CMPT 125').waitFor();
    expect(other.errors).toEqual([]);
    await other.close();
    await page.goto(`${server.url}/settings`);
    expect(web.errors).toEqual([]);
  });

  it('honours the theme preference (dark) and keeps it across pages', async () => {
    const { page } = web;
    await page.getByLabel('Theme').selectOption('dark');
    await page.getByRole('button', { name: 'Save preferences' }).click();
    await page.getByText('Preferences saved.').waitFor();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    expect((await server.rest('tn_user_preferences_get', {})).body.theme).toBe('dark');
    await page.goto(`${server.url}/`);
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(15, 18, 22)');
    await expectAccessible(page);
    await screenshot(page, 'web-dark');
    expect(web.errors).toEqual([]);
  });

  it('streams a tutor turn as it is generated', async () => {
    const { page } = web;
    await page.goto(`${server.url}/tutor`);
    await page.getByLabel('Topic (optional)').fill('loops');
    await page.getByRole('button', { name: 'Start session' }).click();
    await page.getByLabel(/Message the tutor/).waitFor();
    const release = provider.hold();
    provider.enqueue({ text: 'A for loop repeats a block once for each item in a list.', chunks: 6, chunkDelayMs: 150 });
    await page.getByLabel(/Message the tutor/).fill('How does a for loop work?');
    await page.keyboard.press('Enter');
    const live = page.locator('.msg.assistant[aria-busy="true"]');
    await live.waitFor();
    release();
    // Part of the answer is on screen before the whole of it: it streamed.
    await page.waitForFunction(() => {
      const text = document.querySelector('.msg.assistant[aria-busy="true"]')?.textContent ?? '';
      return text.includes('A for') && !text.includes('in a list.');
    });
    await page.locator('.msg.assistant:not([aria-busy])', { hasText: 'once for each item in a list.' }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'web-tutor');
    expect(web.errors).toEqual([]);
  });

  it('shows a message sent from another device within one poll, and on refresh', async () => {
    const { page } = web;
    const sessionId = new URL(page.url()).searchParams.get('session')!;
    provider.enqueue({ text: 'Answer for the CLI.' });
    const cli = await server.rest('tn_session_ask', { sessionId, message: 'Asked from the CLI', deviceId: 'cli-laptop', clientEventId: 'cli-1' });
    expect(cli.status).toBe(200);
    // The poll runs every second here (tn-poll-seconds): it must arrive without any click.
    await page.getByText('Asked from the CLI').waitFor({ timeout: 5_000 });
    await page.getByText('Answer for the CLI.').waitFor({ timeout: 5_000 });
    expect(await page.getByText('You (cli-laptop)').count()).toBe(1);

    provider.enqueue({ text: 'Second answer.' });
    await server.rest('tn_session_ask', { sessionId, message: 'Second from the CLI', deviceId: 'cli-laptop', clientEventId: 'cli-2' });
    await page.reload();
    await page.getByText('Second answer.').waitFor();
    await page.getByRole('button', { name: 'Refresh' }).click();
    expect(web.errors).toEqual([]);
  });

  it('saves a draft and discards it', async () => {
    const { page } = web;
    await page.getByLabel(/Message the tutor/).fill('Half a thought');
    await page.getByRole('button', { name: 'Save as draft' }).click();
    await page.getByRole('button', { name: 'Discard draft' }).click();
    await page.getByRole('heading', { name: 'Drafts' }).waitFor({ state: 'detached' });
    const sessionId = new URL(page.url()).searchParams.get('session')!;
    const status = await server.rest('tn_session_sync_status', { sessionId, deviceId: 'test-check' });
    expect(status.body.pendingDrafts).toEqual([]);
    expect(web.errors).toEqual([]);
  });

  it('exports the session as a snapshot and imports it back', async () => {
    const { page } = web;
    const sessionId = new URL(page.url()).searchParams.get('session')!;
    await page.getByText('Export or import').click();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export this session' }).click()]);
    const file = await download.path();
    const snapshot = JSON.parse(readFileSync(file, 'utf8'));
    expect(snapshot.session.sessionId).toBe(sessionId);
    expect(snapshot.checksum).toMatch(/^sha256:/);
    await page.getByLabel('Import a session snapshot').setInputFiles(file);
    await page.waitForURL((url) => url.searchParams.get('session') === sessionId);
    await page.getByText('Asked from the CLI').waitFor();
    expect(web.errors).toEqual([]);
  });
});
