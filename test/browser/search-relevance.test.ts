import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/chromium.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { expectAccessible, expectNoSidewaysScroll, openWebPage, screenshot } from '../support/web-page.js';

/**
 * The searches typed into the web app the way a student would (search box, Enter, the
 * Institution filter), on the shipped catalog, at desktop and phone width. The ranking's rules are
 * proved in test/unit; this shows a student reading the first three results gets what they meant.
 */

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer({}, { catalog: 'shared' }), launchChromium()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

interface Result {
  code: string;
  title: string;
  institution: string;
}

/** Types the query, narrows to an institution when given, and reads the results once they settle. */
async function search(page: Page, query: string, institution?: string): Promise<Result[]> {
  await page.goto(server.url);
  if (institution) {
    await page.getByText('Narrow the search').click();
    await page.getByLabel('Institution').selectOption(institution);
  }
  await page.getByRole('searchbox').fill(query);
  await page.keyboard.press('Enter');
  await page.waitForURL((url) => url.searchParams.get('q') === query && (!institution || url.searchParams.get('institution') === institution));
  await page.getByRole('heading', { name: `Results for “${query}”` }).waitFor();
  await expect.poll(() => page.getByRole('status').filter({ hasText: /^Loading/ }).count(), { timeout: 15_000 }).toBe(0);
  const items = page.locator('ol.results > li');
  await items.first().waitFor();
  return items.evaluateAll((lis) =>
    lis.map((li) => {
      const link = li.querySelector('a')!;
      const code = link.querySelector('.code')!.textContent!.trim();
      return { code, title: link.textContent!.slice(code.length).trim(), institution: /· ([A-Z]+)/.exec(li.textContent ?? '')![1]!.toLowerCase() };
    }),
  );
}

const top3 = (results: Result[]) => results.slice(0, 3);
const subject = (r: Result) => r.code.split(' ')[0]!;

describe.each([
  { width: 1100, height: 900, name: 'desktop' },
  { width: 390, height: 844, name: 'phone' },
])('search as a student types it ($name)', ({ width, height, name }) => {
  it('finds the first course a student means for shorthand, introductory and misspelt queries', { timeout: 120_000 }, async () => {
    const web = await openWebPage(browser);
    try {
      const { page } = web;
      await page.setViewportSize({ width, height });

      // "intro programming" at SFU: its first programming courses, never a course that is only an "Intro".
      const intro = await search(page, 'intro programming', 'sfu');
      for (const r of top3(intro)) {
        expect(r.institution).toBe('sfu');
        expect(r.title).toMatch(/program|comput/i);
        expect(r.code).toMatch(/^[A-Z]+ 1\d\d/);
      }
      expect(intro.map((r) => r.code)).not.toContain('GSWS 332');
      await expectNoSidewaysScroll(page);
      await expectAccessible(page);
      await screenshot(page, `web-search-relevance-${name}`);

      // "calc 1" is a first calculus course, wherever it is taught.
      const calc = await search(page, 'calc 1');
      for (const r of top3(calc)) expect(r.title).toMatch(/calculus/i);

      // A typo is read as the common word it is nearest, not a rarer one it also resembles.
      const stats = await search(page, 'statistcs');
      for (const r of top3(stats)) expect(r.title).toMatch(/statistic/i);
      expect(top3(stats).some((r) => /\bstatics\b/i.test(r.title))).toBe(false);

      // "CS" is computer science; UVic's CS (Canadian Studies) is not what is asked for.
      const cs = await search(page, 'intro to CS');
      for (const r of top3(cs)) expect(r.title).toMatch(/comput|program/i);
      expect(top3(cs).some((r) => r.institution === 'uvic' && subject(r) === 'CS')).toBe(false);

      // A plural finds the singular: SFU's Database Systems for "databases".
      const databases = await search(page, 'databases', 'sfu');
      expect(databases.length).toBeGreaterThan(4);
      expect(top3(databases).some((r) => /database/i.test(r.title))).toBe(true);
      expect(databases.map((r) => r.code)).toContain('CMPT 354');

      // Saying what you want to learn, not a title: programming courses.
      const code = await search(page, 'learn to code');
      for (const r of top3(code)) expect(r.title).toMatch(/program|comput|coding/i);
      await expectNoSidewaysScroll(page);
      await expectAccessible(page);
      expect(web.errors).toEqual([]);
    } finally {
      await web.close();
    }
  });
});
