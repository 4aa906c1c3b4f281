import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/chromium.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { expectAccessible, openWebPage, screenshot, type WebPage } from '../support/web-page.js';

let server: TestServer;
let browser: Browser;
let web: WebPage;

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer({}, { catalog: 'shared' }), launchChromium()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('the web app: search, course and transfer pages (anonymous)', () => {
  beforeAll(async () => {
    web = await openWebPage(browser);
  });
  afterAll(() => web.close());

  it('searches on Enter and opens a course page from a result', async () => {
    const { page } = web;
    await page.goto(server.url);
    expect(await page.title()).toContain('Tutor Nexus');
    await page.getByRole('searchbox').fill('data structures');
    await page.keyboard.press('Enter');
    const result = page.getByRole('link', { name: /CMPT 225/ }).first();
    await result.waitFor();
    expect(new URL(page.url()).searchParams.get('q')).toBe('data structures');
    // How fresh the live sources are (here: the shipped files, never checked against the sites).
    expect(await page.getByLabel('Data freshness').textContent()).toMatch(/BC Transfer Guide loaded from files .*; SFU Course Outlines loaded from files/);
    await expectAccessible(page);
    await screenshot(page, 'web-search');

    await result.click();
    await page.getByRole('heading', { level: 1, name: /CMPT 225/ }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/courses/sfu/CMPT%20225');
    await page.getByRole('list', { name: 'Prerequisite tree' }).waitFor();
    expect(web.errors).toEqual([]);
  });

  it('checks the prerequisite tree against the courses I have done', async () => {
    const { page } = web;
    await page.getByLabel(/Add a course you have done/).fill('CMPT 125 B');
    await page.keyboard.press('Enter');
    await page.getByRole('list', { name: 'Prerequisite tree' }).getByText('✓ CMPT 125').waitFor();
    await page.getByLabel(/Add a course you have done/).fill('MACM 101 B');
    await page.keyboard.press('Enter');
    await page.getByText('You meet these prerequisites.').waitFor();
    await expectAccessible(page);
    await screenshot(page, 'web-course');
    expect(web.errors).toEqual([]);
  });

  it('narrows a search by institution, year level and subject, kept in the URL and undone by Back', async () => {
    const { page } = web;
    const results = page.locator('ol.results > li');
    /**
     * The hits once the page has settled on the URL's search: code and institution of each. The list
     * re-renders after the URL changes, so it is read until it is the search asked for (`shows`), not
     * the one before it nor an empty list in between.
     */
    const settled = async (check: (url: URL) => boolean, shows: (hits: string[]) => boolean = () => true) => {
      await page.waitForURL((url) => check(url));
      let hits: string[] = [];
      await expect
        .poll(async () => {
          hits = await results.allInnerTexts();
          return hits.length > 0 && shows(hits);
        })
        .toBe(true);
      return hits;
    };
    await page.goto(`${server.url}/?q=calculus`);
    const everywhere = await settled((url) => url.searchParams.get('q') === 'calculus');

    await page.getByText('Narrow the search').click();
    await page.getByLabel('Institution').selectOption('ubc');
    await page.getByLabel('Year level').selectOption('1');
    const ubcFirstYear = /^[A-Z-]{2,9} 1\d{2}.*· UBC/s;
    const narrowed = await settled(
      (url) => url.searchParams.get('institution') === 'ubc' && url.searchParams.get('level') === '1',
      (hits) => hits.every((hit) => ubcFirstYear.test(hit)),
    );
    expect(narrowed.length).toBeGreaterThan(0);
    expect(narrowed).not.toEqual(everywhere);
    for (const hit of narrowed) expect(hit).toMatch(ubcFirstYear);

    await page.getByLabel('Subject').fill('math');
    await page.keyboard.press('Enter');
    const math = await settled(
      (url) => url.searchParams.get('subject') === 'math',
      (hits) => hits.every((hit) => hit.startsWith('MATH ')),
    );
    for (const hit of math) expect(hit).toMatch(/^MATH 1\d{2}.*· UBC/s);
    await expectAccessible(page);
    await screenshot(page, 'web-search-filters');

    await page.goBack();
    await settled(
      (url) => !url.searchParams.has('subject'),
      (hits) => hits.join('\n') === narrowed.join('\n'), // the narrowed search again, as Back restores it
    );
    expect(await page.getByLabel('Subject').inputValue()).toBe('');
    expect(await page.getByLabel('Institution').inputValue()).toBe('ubc');

    // A subject that cannot be one: the tool's own error, naming the field.
    await page.getByLabel('Subject').fill('C++');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/subject/i);
    // The browser itself logs the 400 response; nothing else may be an error.
    expect(web.errors.filter((e) => !/status of 400/.test(e))).toEqual([]);
    web.errors.splice(0); // the next tests share this page
  });

  it('draws the grade distribution with suppressed bins marked', async () => {
    const { page } = web;
    await page.goto(`${server.url}/courses/ubc/CPSC%20110`);
    await page.getByRole('heading', { name: 'Grades', exact: true }).waitFor();
    const chart = page.getByRole('img', { name: /average/ });
    await chart.waitFor();
    expect(await chart.getAttribute('aria-label')).toMatch(/\d+-\d+: \d+/);
    await page.getByRole('heading', { name: 'Sections and instructors' }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'web-course-grades');
    expect(web.errors).toEqual([]);
  });

  it('opens a transfer deep link with the plan, partial matches and evidence', async () => {
    const { page } = web;
    await page.goto(`${server.url}/transfer?from=langara&to=sfu&courses=CPSC%201160,CPSC%201181`);
    await page.getByRole('heading', { name: /^Plan: \d+(\.\d+)? credits at Simon Fraser University/ }).waitFor();
    expect(await page.getByLabel('Courses taken (comma-separated)').inputValue()).toBe('CPSC 1160, CPSC 1181');
    expect(await page.getByRole('link', { name: /BC Transfer Guide|evidence|rule/i }).count()).toBeGreaterThan(0);
    // Which institutions it can plan from (the senders it holds rules for), offered for "From", and how fresh they are.
    const sources = page.getByLabel('Transfer data');
    await sources.getByText(/Transfer rules from \d+ institutions?: .*Alexander College.*Langara College/).waitFor();
    expect(await sources.textContent()).toMatch(/BC Transfer Guide data (checked|from files loaded) (just now|.* ago)/);
    // "From" lists every institution by full name, the senders with rules first.
    const list = await page.getByLabel('From institution').getAttribute('list');
    const offered = await page.locator(`datalist[id="${list}"] option`).evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
    expect(offered.slice(0, 2)).toEqual(['Alexander College', 'Langara College']);
    await expectAccessible(page);
    await screenshot(page, 'web-transfer');

    // Editing the list is a new shareable link; one course of a bundle is a partial match naming the other.
    await page.getByLabel('Courses taken (comma-separated)').fill('CPSC 1160');
    await page.keyboard.press('Enter');
    await page.getByText(/Also needs: CPSC 1181/).first().waitFor();
    expect(new URL(page.url()).searchParams.get('courses')).toBe('CPSC 1160');

    await page.getByRole('button', { name: 'Compare every receiving institution' }).click();
    await page.getByRole('table').waitFor();
    await expectAccessible(page);
    expect(web.errors).toEqual([]);
  });

  it('compares receivers on one credit scale: UVic\'s units counted double in Credits, and shown as awarded beside them', async () => {
    const { page } = web;
    await page.goto(`${server.url}/transfer?from=langara&to=uvic&courses=CPSC%201150,MATH%201171,ENGL%201127,PSYC%201115`);
    await page.getByRole('button', { name: 'Compare every receiving institution' }).click();
    const uvic = page.getByRole('row', { name: /University of Victoria/ });
    await uvic.waitFor();
    const cells = (await uvic.getByRole('cell').allTextContents()).map((t) => t.trim());
    const units = Number(/^([\d.]+) units$/.exec(cells[2]!)?.[1]);
    expect(units).toBeGreaterThan(0);
    expect(Number(cells[1])).toBe(units * 2);
    await page.getByRole('region', { name: 'Compare receivers' }).getByText(/UVic awards units/).waitFor();
    // Ranked by the common scale, top down.
    const scale = (await page.locator('tbody tr td:nth-child(2)').allTextContents()).map(Number);
    expect(scale).toEqual([...scale].sort((a, b) => b - a));
    await expectAccessible(page);
    expect(web.errors).toEqual([]);
  });

  it('shows the ErrorResponse message for an unknown course, never a blank page', async () => {
    const { page } = web;
    await page.goto(`${server.url}/courses/sfu/CMPT%20999`);
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/CMPT 999/);
    await expectAccessible(page);
    // The browser itself logs the 404 response; nothing else may be an error.
    expect(web.errors.filter((e) => !/status of 404/.test(e))).toEqual([]);
  });

  it('is usable from the keyboard alone: skip link, then search', async () => {
    const { page } = web;
    await page.goto(server.url);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).type)).toBe('search');
    await page.keyboard.type('linear algebra');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: /Results for/ }).waitFor();
    await page.locator('.results a').first().waitFor();
    // The search button, the folded filters, then the first result.
    for (let i = 0; i < 3; i++) await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => (document.activeElement as HTMLAnchorElement).getAttribute('href'));
    expect(focused).toMatch(/^\/courses\//);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe(focused);
  });
});
