import type { Browser, Page } from 'playwright-core';
import { ulid } from 'ulid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/chromium.js';
import { startFakeProvider, type FakeProvider } from '../support/fake-llm-provider.js';
import { SECOND_TOKEN, startTestServer, TEST_TOKEN, type TestServer } from '../support/test-server.js';
import { expectAccessible, openWebPage, screenshot, type WebPage } from '../support/web-page.js';

/**
 * The tutor as a new student meets it: on a server with no operator model (sign-in and a key come
 * first, and say so before anything is typed), on one with an operator model (anonymous sessions), and
 * answers rendered from Markdown that must never run what they contain.
 */
const OPENAI_KEY = 'sk-proj-ONBOARDsecretONBOARDsecret4321';
const OPERATOR_KEY = 'operator-key-onboarding-0001';

let provider: FakeProvider;
/** No operator model: students answer through their own keys. */
let server: TestServer;
/** An operator model answers anyone. */
let operated: TestServer;
let browser: Browser;

const PHONE = { width: 390, height: 844 };

beforeAll(async () => {
  provider = await startFakeProvider({ acceptKeys: [OPENAI_KEY, OPERATOR_KEY] });
  [server, operated, browser] = await Promise.all([
    startTestServer({ TN_OPENAI_BASE_URL: provider.openaiBaseUrl, TN_TUTOR_MAX_TOOL_CALLS: '0', TN_LOCAL_USER_ID: `onboard-${ulid()}`, TN_LOCAL_TOKENS: `${SECOND_TOKEN}=onboard-bob-${ulid()}` }),
    startTestServer({
      TN_DEFAULT_LLM_PROVIDER: 'openai-compatible',
      TN_DEFAULT_LLM_MODEL: 'tiny',
      TN_DEFAULT_LLM_API_KEY: OPERATOR_KEY,
      TN_DEFAULT_LLM_BASE_URL: provider.openaiBaseUrl,
      TN_TUTOR_MAX_TOOL_CALLS: '0',
    }),
    launchChromium(),
  ]);
  // The second student has a key of their own; the first starts without one.
  expect((await server.rest('tn_user_byok_add', { provider: 'openai', apiKey: OPENAI_KEY }, SECOND_TOKEN)).status).toBe(200);
});
afterAll(async () => {
  await browser?.close();
  await Promise.all([server?.close(), operated?.close()]);
  await provider?.close();
});

/** No sideways scrolling: the page is no wider than the window. */
async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  expect(widths.scroll).toBeLessThanOrEqual(widths.client);
}

/** The session's pending drafts. */
const drafts = (page: Page) => page.getByRole('region', { name: 'Drafts' });

/** What a student can read on the page, wherever it is. */
const pageText = (page: Page) => page.evaluate(() => document.body.innerText);

async function signInWithToken(page: Page, token = TEST_TOKEN): Promise<void> {
  await page.getByLabel('Access token').fill(token);
  await page.getByRole('button', { name: 'Use token' }).click();
}

async function startSession(page: Page, topic: string): Promise<string> {
  await page.getByLabel('Topic (optional)').fill(topic);
  await page.getByRole('button', { name: 'Start session' }).click();
  await page.waitForURL((url) => url.searchParams.has('session'));
  await page.getByLabel(/Message the tutor/).waitFor();
  return new URL(page.url()).searchParams.get('session')!;
}

/** An answer with every construct a tutor writes, and markup that must stay text. */
const MARKDOWN_ANSWER = [
  '## Reversing a list',
  '',
  'Walk the list **once**, keeping *three* pointers:',
  '',
  '1. `prev`, starting at `None`',
  '2. `current`, the head',
  '   - and `next`, saved before you move',
  '',
  '```python',
  'def reverse(head):',
  '    prev = None',
  '    while head:',
  '        head.next, prev, head = prev, head, head.next',
  '    return prev  # a very long comment that goes on and on so that the line is much wider than a phone screen',
  '```',
  '',
  '| step | time | space |',
  '|:-----|-----:|:-----:|',
  '| walk | $O(n)$ | $O(1)$ |',
  '',
  'The sum $\\sum_{i=1}^{n} i = \\frac{n(n+1)}{2}$ costs nothing here.',
  '',
  '<img src="x" onerror="window.__xss = \'img\'"> <script>window.__xss = "script"</script>',
  '[a trap](javascript:window.__xss=%22link%22) and [the docs](https://docs.python.org/3/)',
  '<iframe srcdoc="<script>parent.__xss=1</script>"></iframe>',
].join('\n');

describe('signed out, on a server with no operator model (desktop)', () => {
  let web: WebPage;
  beforeAll(async () => {
    web = await openWebPage(browser);
  });
  afterAll(() => web.close());

  it('asks for sign-in first: a sign-in link, no Start button, no message box', async () => {
    const { page } = web;
    await page.goto(`${server.url}/tutor`);
    await page.getByRole('heading', { name: 'Sign in to use the tutor' }).waitFor();
    const link = page.getByRole('link', { name: 'Sign in', exact: true });
    expect(new URL((await link.getAttribute('href'))!, server.url).searchParams.get('return')).toBe('/tutor');
    expect(await page.getByRole('button', { name: 'Start session' }).count()).toBe(0);
    expect(await page.getByLabel(/Message the tutor/).count()).toBe(0);
    expect(await page.getByLabel(/Open a session by id/).count()).toBe(0);
    expect(await pageText(page)).not.toMatch(/Authorization|Bearer/);
    await expectAccessible(page);
    await screenshot(page, 'web-tutor-sign-in-first');
    expect(web.errors).toEqual([]);
  });

  it('comes back to the tutor once signed in', async () => {
    const { page } = web;
    await page.getByRole('link', { name: 'Sign in', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/settings');
    await signInWithToken(page);
    await page.waitForURL((url) => url.pathname === '/tutor');
    await page.getByRole('button', { name: 'Start session' }).waitFor();
    expect(web.errors).toEqual([]);
  });
});

describe('signed in with no key, on a server with no operator model (desktop)', () => {
  let web: WebPage;
  beforeAll(async () => {
    web = await openWebPage(browser, { storage: { 'tn-token': TEST_TOKEN, 'tn-device-id': 'web-laptop' } });
  });
  afterAll(() => web.close());

  it('says the tutor needs a key, links to Settings, and keeps the typed question as a draft', async () => {
    const { page } = web;
    await page.goto(`${server.url}/tutor`);
    await page.getByRole('heading', { name: 'The tutor needs your provider key' }).waitFor();
    const sessionId = await startSession(page, 'linked lists');
    const question = 'How do I reverse a linked list?';
    await page.getByLabel(/Message the tutor/).fill(question);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Drafts' }).waitFor();
    await drafts(page).getByRole('listitem').filter({ hasText: question }).getByRole('button', { name: 'Send draft' }).waitFor();
    const kept = page.getByRole('status').filter({ hasText: 'Your question is kept as a draft' });
    await kept.waitFor();
    expect(new URL((await kept.getByRole('link', { name: 'Settings' }).getAttribute('href'))!, server.url).searchParams.get('return')).toBe(`/tutor?session=${sessionId}`);
    // Nothing was sent to a model, nothing names a tool, nothing was lost.
    expect(provider.requests).toHaveLength(0);
    expect(await pageText(page)).not.toMatch(/tn_user_byok_add|tn_\w+|Authorization/);
    const status = await server.rest('tn_session_sync_status', { sessionId, deviceId: 'test-check' });
    expect(status.body.pendingDrafts.map((d: { content: string }) => d.content)).toEqual([question]);
    await expectAccessible(page);
    await screenshot(page, 'web-tutor-no-key');
    expect(web.errors).toEqual([]);
  });

  it('Settings says the tutor needs a key (never that the operator\'s model answers); once one is added, the draft is sent from the tutor', async () => {
    const { page } = web;
    await page.getByRole('link', { name: 'Add a key in Settings' }).click();
    await page.waitForURL((url) => url.pathname === '/settings');
    await page.getByText('No keys saved yet. The tutor needs one to answer you here').waitFor();
    expect(await pageText(page)).not.toMatch(/operator/i);
    await expectAccessible(page);
    await page.getByLabel('Provider').selectOption('openai');
    await page.getByLabel('API key', { exact: true }).fill(OPENAI_KEY);
    await page.getByRole('button', { name: 'Add key' }).click();
    await page.getByText('••••4321').waitFor();

    await page.getByRole('link', { name: 'Back to the tutor' }).click();
    await page.waitForURL((url) => url.pathname === '/tutor' && url.searchParams.has('session'));
    await page.getByRole('button', { name: 'Send draft' }).waitFor();
    expect(await page.getByRole('heading', { name: 'The tutor needs your provider key' }).count()).toBe(0);
    provider.enqueue({ text: 'Keep **three** pointers.' });
    await page.getByRole('button', { name: 'Send draft' }).click();
    await page.locator('.msg.assistant strong', { hasText: 'three' }).waitFor();
    await page.getByRole('heading', { name: 'Drafts' }).waitFor({ state: 'detached' });
    expect(provider.requests.at(-1)?.apiKey).toBe(OPENAI_KEY);
    expect(web.errors).toEqual([]);
  });

  it('keeps the question as a draft when the key went away after the page loaded', async () => {
    const { page } = web;
    const keys = (await server.rest('tn_user_byok_list', {})).body.items as { credentialId: string }[];
    for (const key of keys) await server.rest('tn_user_byok_delete', { credentialId: key.credentialId, confirm: 'DELETE_BYOK_CREDENTIAL' });
    const question = 'And a doubly linked one?';
    await page.getByLabel(/Message the tutor/).fill(question);
    await page.keyboard.press('Enter');
    await page.getByRole('status').filter({ hasText: 'Your question is kept as a draft' }).waitFor();
    await drafts(page).getByRole('listitem').filter({ hasText: question }).waitFor();
    expect(await page.getByLabel(/Message the tutor/).inputValue()).toBe('');
    expect(await pageText(page)).not.toMatch(/tn_user_byok_add/);
    expect(web.errors).toEqual([]);
  });
});

describe('answers (desktop)', () => {
  let web: WebPage;
  beforeAll(async () => {
    web = await openWebPage(browser, { storage: { 'tn-token': SECOND_TOKEN, 'tn-device-id': 'web-answers' } });
  });
  afterAll(() => web.close());

  it('stream into a live region and render Markdown, running none of the HTML they contain', async () => {
    const { page } = web;
    await page.goto(`${server.url}/tutor`);
    await startSession(page, 'linked lists');
    const release = provider.hold();
    provider.enqueue({ text: MARKDOWN_ANSWER, chunks: 8, chunkDelayMs: 120 });
    await page.getByLabel(/Message the tutor/).fill('How do I reverse a linked list?');
    await page.keyboard.press('Enter');
    const streaming = page.locator('.msg.assistant[aria-busy="true"]');
    await streaming.waitFor();
    expect(await streaming.getAttribute('aria-live')).toBe('polite');
    // Marks the element, to see that the finished answer is the same one (announced once, not re-added).
    await streaming.evaluate((element) => ((element as HTMLElement).dataset.streamed = 'yes'));
    release();
    await page.waitForFunction(() => {
      const text = document.querySelector('.msg.assistant[aria-busy="true"]')?.textContent ?? '';
      return text.includes('Reversing') && !text.includes('the docs');
    });
    const answer = page.locator('.msg.assistant[data-streamed="yes"]:not([aria-busy])');
    await answer.getByRole('link', { name: 'the docs' }).waitFor();
    expect(await answer.getAttribute('aria-live')).toBe('polite');

    // Markdown, rendered: headings, emphasis, nested lists, code, a table, math.
    expect(await answer.getByRole('heading', { name: 'Reversing a list' }).count()).toBe(1);
    expect(await answer.locator('strong').first().textContent()).toBe('once');
    expect(await answer.locator('em').first().textContent()).toBe('three');
    expect(await answer.locator('ol > li').count()).toBe(2);
    expect(await answer.locator('ol > li ul > li').count()).toBe(1);
    expect(await answer.locator('pre code.language-python').textContent()).toContain('def reverse(head):\n    prev = None');
    expect(await answer.getByRole('columnheader').allTextContents()).toEqual(['step', 'time', 'space']);
    expect(await answer.getByRole('math').count()).toBeGreaterThanOrEqual(3);
    expect(await answer.locator('[role="math"] sub').first().textContent()).toBe('i=1');
    const text = await answer.evaluate((element) => (element as HTMLElement).innerText);
    expect(text).not.toMatch(/```|\*\*|\|:?-+/);
    expect(text).toContain('O(n)');
    expect(text).toContain('n(n+1)');

    // Markup is shown as text; nothing of it runs or loads.
    expect(text).toContain('<img src="x" onerror=');
    expect(text).toContain('<script>');
    expect(await page.evaluate(() => (window as any).__xss)).toBeUndefined();
    expect(await page.locator('.chat img, .chat script, .chat iframe').count()).toBe(0);
    expect(await answer.getByRole('link', { name: 'a trap' }).count()).toBe(0);
    expect(await answer.getByText('a trap').count()).toBe(1);
    const docs = answer.getByRole('link', { name: 'the docs' });
    expect(await docs.getAttribute('href')).toBe('https://docs.python.org/3/');
    expect(await docs.getAttribute('rel')).toContain('noopener');
    await expectAccessible(page);
    await screenshot(page, 'web-tutor-markdown');
    expect(web.errors).toEqual([]);
  });

  it('is rendered the same when the page loads the session again', async () => {
    const { page } = web;
    await page.reload();
    const answer = page.locator('.msg.assistant').last();
    await answer.locator('pre code.language-python').waitFor();
    expect(await answer.locator('ol > li').count()).toBe(2);
    expect(await page.evaluate(() => (window as any).__xss)).toBeUndefined();
    expect(await page.locator('.chat img, .chat script, .chat iframe').count()).toBe(0);
    expect(web.errors).toEqual([]);
  });
});

describe('sessions from every device (desktop)', () => {
  let laptop: WebPage;
  beforeAll(async () => {
    laptop = await openWebPage(browser, { storage: { 'tn-token': SECOND_TOKEN, 'tn-device-id': 'web-laptop-2' } });
  });
  afterAll(() => laptop.close());

  it('lists a session started on another device after a reload, named by its first question, and opens it', async () => {
    const { page } = laptop;
    await page.goto(`${server.url}/tutor`);
    await page.getByRole('heading', { name: 'Your sessions' }).waitFor();
    // The phone, signed in as the same student, starts a session and writes a question.
    const phone = await openWebPage(browser, { storage: { 'tn-token': SECOND_TOKEN, 'tn-device-id': 'web-phone' } });
    await phone.page.setViewportSize(PHONE);
    await phone.page.goto(`${server.url}/tutor`);
    const sessionId = await startSession(phone.page, 'recursion');
    provider.enqueue({ text: 'Start from the **base case**.' });
    await phone.page.getByLabel(/Message the tutor/).fill('What is a base case, really?');
    await phone.page.keyboard.press('Enter');
    await phone.page.locator('.msg.assistant strong', { hasText: 'base case' }).waitFor();
    expect(phone.errors).toEqual([]);
    await phone.close();

    await page.reload();
    const sessions = page.getByRole('complementary');
    const link = sessions.getByRole('link', { name: 'What is a base case, really?' });
    await link.waitFor();
    // Most recent first.
    expect(await sessions.getByRole('listitem').first().textContent()).toContain('What is a base case, really?');
    expect(await page.getByText('No sessions on this device').count()).toBe(0);
    await link.click();
    await page.waitForURL((url) => url.searchParams.get('session') === sessionId);
    await page.locator('.msg.assistant strong', { hasText: 'base case' }).waitFor();
    expect(await page.getByText('You (web-phone)').count()).toBe(1);
    await expectAccessible(page);
    expect(laptop.errors).toEqual([]);
  });

  it('pages through many sessions with Show more', async () => {
    const { page } = laptop;
    for (let i = 0; i < 21; i++) expect((await server.rest('tn_session_start', { topic: `more ${i}` }, SECOND_TOKEN)).status).toBe(200);
    const total = (await server.rest('tn_session_list', { limit: 100 }, SECOND_TOKEN)).body.items.length;
    expect(total).toBeGreaterThan(20);
    await page.goto(`${server.url}/tutor`);
    const list = page.getByRole('complementary').getByRole('list');
    await list.getByRole('link', { name: 'more 20' }).waitFor();
    expect(await list.getByRole('listitem').count()).toBe(20);
    await page.getByRole('button', { name: 'Show more sessions' }).click();
    await expect.poll(() => list.getByRole('listitem').count()).toBe(total);
    expect(await page.getByRole('button', { name: 'Show more sessions' }).count()).toBe(0);
    expect(laptop.errors).toEqual([]);
  });
});

describe('signed out, on a server with an operator model (desktop)', () => {
  it('offers anonymous sessions kept on this device, with sign-in to see them everywhere', async () => {
    const web = await openWebPage(browser);
    const { page } = web;
    await page.goto(`${operated.url}/tutor`);
    await page.getByRole('heading', { name: 'Sessions on this device' }).waitFor();
    await page.getByText('Sessions started without signing in stay on this device.').waitFor();
    await startSession(page, 'anonymous');
    provider.enqueue({ text: 'Answered by the operator\'s model.' });
    await page.getByLabel(/Message the tutor/).fill('Hello?');
    await page.keyboard.press('Enter');
    await page.getByText('Answered by the operator\'s model.').waitFor();
    expect(provider.requests.at(-1)?.apiKey).toBe(OPERATOR_KEY);
    await page.getByRole('complementary').getByRole('link', { name: 'anonymous' }).waitFor();
    await expectAccessible(page);
    expect(web.errors).toEqual([]);
    await web.close();
  });
});

describe('the tutor on a phone (390 px)', () => {
  it('asks for sign-in first without sideways scrolling', async () => {
    const web = await openWebPage(browser);
    const { page } = web;
    await page.setViewportSize(PHONE);
    await page.goto(`${server.url}/tutor`);
    await page.getByRole('heading', { name: 'Sign in to use the tutor' }).waitFor();
    expect(await page.getByRole('button', { name: 'Start session' }).count()).toBe(0);
    await expectNoSidewaysScroll(page);
    await expectAccessible(page);
    await screenshot(page, 'web-tutor-sign-in-first-phone');
    expect(web.errors).toEqual([]);
    await web.close();
  });

  it('keeps a question as a draft without a key, and links to Settings', async () => {
    const web = await openWebPage(browser, { storage: { 'tn-token': TEST_TOKEN, 'tn-device-id': 'web-phone-nokey' } });
    const { page } = web;
    await page.setViewportSize(PHONE);
    await page.goto(`${server.url}/tutor`);
    await page.getByRole('heading', { name: 'The tutor needs your provider key' }).waitFor();
    await startSession(page, 'phone');
    await page.getByLabel(/Message the tutor/).fill('Typed on a phone');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Your question is kept as a draft' }).getByRole('link', { name: 'Settings' }).waitFor();
    await drafts(page).getByRole('listitem').filter({ hasText: 'Typed on a phone' }).waitFor();
    await expectNoSidewaysScroll(page);
    await expectAccessible(page);
    await screenshot(page, 'web-tutor-no-key-phone');
    expect(web.errors).toEqual([]);
    await web.close();
  });

  it('renders a Markdown answer with code and a table inside the screen', async () => {
    const web = await openWebPage(browser, { storage: { 'tn-token': SECOND_TOKEN, 'tn-device-id': 'web-phone-answers' } });
    const { page } = web;
    await page.setViewportSize(PHONE);
    await page.goto(`${server.url}/tutor`);
    await startSession(page, 'phone answers');
    provider.enqueue({ text: MARKDOWN_ANSWER });
    await page.getByLabel(/Message the tutor/).fill('Show me on my phone');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const answer = page.locator('.msg.assistant').last();
    await answer.getByRole('link', { name: 'the docs' }).waitFor();
    await answer.locator('pre code.language-python').waitFor();
    expect(await page.evaluate(() => (window as any).__xss)).toBeUndefined();
    await expectNoSidewaysScroll(page);
    // The long code line scrolls inside its block, which the keyboard can reach.
    const code = answer.locator('pre');
    expect(await code.evaluate((pre) => pre.scrollWidth > pre.clientWidth)).toBe(true);
    expect(await code.getAttribute('tabindex')).toBe('0');
    await expectAccessible(page);
    await screenshot(page, 'web-tutor-markdown-phone');
    expect(web.errors).toEqual([]);
    await web.close();
  });
});
