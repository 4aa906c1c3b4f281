import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/chromium.js';
import { startTestServer, TEST_TOKEN, type TestServer } from '../support/test-server.js';
import { expectAccessible, expectNoSidewaysScroll, openWebPage, screenshot } from '../support/web-page.js';

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer({}, { catalog: 'shared' }), launchChromium()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** Nothing is still loading: what a student would read once the page settled. */
const settled = async (page: Page) => {
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  await expect.poll(() => page.getByRole('status').filter({ hasText: /^Loading/ }).count(), { timeout: 15_000 }).toBe(0);
};

/** Every page of the app, and the states of it that draw the most, as a student reaches them. */
const PAGES: { name: string; path: string; act?: (page: Page) => Promise<void>; signedIn?: boolean }[] = [
  { name: 'search', path: '/' },
  {
    name: 'search results, filters open',
    path: '/?q=calculus',
    act: async (page) => {
      await page.locator('ol.results > li').first().waitFor();
      await page.getByText('Narrow the search').click();
    },
  },
  { name: 'course with grades', path: '/courses/ubc/CPSC%20110', act: async (page) => void (await page.getByRole('table', { name: /Average grade in each term/ }).waitFor()) },
  {
    name: 'course with a verdict',
    path: '/courses/sfu/CMPT%20225',
    act: async (page) => {
      await page.getByLabel(/Add a course you have done/).fill('MACM 101 B');
      await page.keyboard.press('Enter');
      await page.locator('p.verdict-line').waitFor();
    },
  },
  { name: 'unknown course', path: '/courses/sfu/CMPT%20999', act: async (page) => void (await page.getByRole('alert').waitFor()) },
  { name: 'transfer planner', path: '/transfer' },
  {
    name: 'transfer plan and comparison',
    path: '/transfer?from=langara&to=uvic&courses=CPSC%201150,MATH%201171,ENGL%201127,PSYC%201115',
    act: async (page) => {
      await page.getByRole('button', { name: 'Compare every receiving institution' }).click();
      await page.getByRole('table').waitFor();
    },
  },
  { name: 'unknown institution', path: '/transfer?from=nowhere-college&to=sfu&courses=CPSC%201150', act: async (page) => void (await page.getByRole('alert').waitFor()) },
  { name: 'timetable', path: '/timetable?term=2026-spring&courses=sfu:CMPT%20225,sfu:MACM%20201', act: async (page) => void (await page.getByText(/^Timetable 1 of \d+/).waitFor()) },
  { name: 'tutor, signed out', path: '/tutor' },
  { name: 'settings, signed out', path: '/settings' },
  { name: 'tutor, signed in', path: '/tutor', signedIn: true },
  { name: 'settings, signed in', path: '/settings', signedIn: true, act: async (page) => void (await page.getByRole('button', { name: 'Sign out' }).waitFor()) },
  { name: 'page not found', path: '/no-such-page' },
];

describe('every page at 390 px wide', () => {
  it.each(PAGES)('$name fits without sideways scrolling and passes axe', async ({ name, path, act, signedIn }) => {
    const web = await openWebPage(browser, signedIn ? { storage: { 'tn-token': TEST_TOKEN } } : {});
    try {
      const { page } = web;
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(`${server.url}${path}`);
      await settled(page);
      if (act) await act(page);
      await settled(page);
      expect(await page.evaluate(() => document.documentElement.clientWidth)).toBeLessThanOrEqual(390);
      await expectNoSidewaysScroll(page);
      await expectAccessible(page);
      await screenshot(page, `web-phone-${name.replace(/[^a-z0-9]+/gi, '-')}`);
      // Pages that show an error on purpose log the response the browser saw; nothing else may fail.
      expect(web.errors.filter((e) => !/status of 404/.test(e))).toEqual([]);
    } finally {
      await web.close();
    }
  });
});
