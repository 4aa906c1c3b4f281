import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { samePerson } from '../../functions/course/instructor-names.js';
import { ingestSource } from '../../functions/ingest/ingest-source.js';
import { sourceNamed } from '../../functions/ingest/sources.js';
import { readCsvTable, rowCells } from '../../functions/catalog/ingestion/csv.js';
import { launchChromium } from '../support/chromium.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { expectAccessible, expectNoSidewaysScroll, openWebPage, screenshot, type WebPage } from '../support/web-page.js';

let server: TestServer;
/** A table of its own holding one real course whose grade rows have suppressed bins (the shared sample has none). */
let gaps: TestServer;
let gapCourse: string;
let browser: Browser;

/** The first UBC course of the 2021–2025 file with a section whose source left grade bins empty: its rows, as a CSV of their own. */
async function courseWithSuppressedBins(): Promise<{ code: string; csv: string }> {
  const text = await readFile('data/sample/ubc-grades-2021-2025/ubc-grades-v2-2021S-2025W.csv', 'utf8');
  const table = readCsvTable(text)!;
  const bins = table.header.filter((name) => /^(<\d+|\d+-\d+)$/.test(name));
  const lines = text.split(/\r?\n/);
  const cells = table.rows.map((row) => rowCells(table, row)).filter((c): c is Record<string, string> => typeof c !== 'string');
  const gap = cells.find((c) => c.Campus === 'UBCV' && bins.some((b) => c[b]!.trim() === '') && bins.some((b) => c[b]!.trim() !== ''))!;
  const code = `${gap.Subject} ${gap.Course}${gap.Detail}`;
  const ofCourse = lines.filter((line, i) => i > 0 && line.startsWith(`UBCV,`) && line.includes(`,${gap.Subject},${gap.Course},${gap.Detail},`));
  return { code, csv: [lines[0], ...ofCourse].join('\n') };
}

beforeAll(async () => {
  [server, gaps, browser] = await Promise.all([startTestServer({}, { catalog: 'shared' }), startTestServer(), launchChromium()]);
  const { code, csv } = await courseWithSuppressedBins();
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tn-gaps-'));
  const file = path.join(dir, 'grades.csv');
  await writeFile(file, csv);
  expect((await ingestSource(gaps.services.store, sourceNamed('ubc-grades')!, file)).status).toBe('succeeded');
  await rm(dir, { recursive: true, force: true });
  gapCourse = code;
});
afterAll(async () => {
  await browser?.close();
  await Promise.all([server?.close(), gaps?.close()]);
});

const tool = async (name: string, input: unknown) => {
  const { status, body } = await server.rest(name, input, null);
  expect(status, JSON.stringify(body)).toBe(200);
  return body;
};

/** The rows of the table captioned so: each row's header cell and its other cells, as shown. */
async function tableRows(page: Page, caption: RegExp): Promise<{ head: string; cells: string[] }[]> {
  const table = page.getByRole('table', { name: caption });
  await table.waitFor();
  return table.locator('tbody tr').evaluateAll((rows) =>
    rows.map((row) => ({
      head: (row.querySelector('th')?.textContent ?? '').trim(),
      cells: [...row.querySelectorAll('td')].map((td) => (td.textContent ?? '').replace(/\s+/g, ' ').trim()),
    })),
  );
}

/** Brackets inside brackets. */
const nested = (text: string) => [...text].reduce((state, c) => (state.bad ? state : c === '(' ? { depth: state.depth + 1, bad: state.depth >= 1 } : c === ')' ? { ...state, depth: state.depth - 1 } : state), { depth: 0, bad: false }).bad;

const courseHref = (ref: string) => `/courses/${ref.split(':')[0]}/${encodeURIComponent(ref.split(':')[1]!)}`;

describe.each([
  ['desktop', 1100],
  ['phone', 390],
] as const)('the course page (%s)', (device, width) => {
  let web: WebPage;
  beforeAll(async () => {
    web = await openWebPage(browser);
    await web.page.setViewportSize({ width, height: 900 });
  });
  afterAll(() => web.close());

  it('UBC CPSC 110: the average of every term beside its term, of every instructor beside their name, one row per person', async () => {
    const { page } = web;
    await page.goto(`${server.url}/courses/ubc/CPSC%20110`);
    await page.getByRole('heading', { level: 1, name: /CPSC 110/ }).waitFor();
    const grades = await tool('tn_course_grades', { course: 'ubc:CPSC 110' });
    const terms = await tableRows(page, /Average grade in each term/);
    expect(terms.length).toBe(grades.trend.byTerm.length);
    expect(terms.length).toBeGreaterThanOrEqual(4);
    for (const [index, row] of terms.entries()) {
      const expected = grades.trend.byTerm[index];
      expect(row.head).toMatch(new RegExp(expected.term.split('-')[0]));
      expect(row.cells[0]).toBe(expected.average === null ? 'n/a' : expected.average.toFixed(1));
    }

    const { instructors } = await tool('tn_course_instructor', { course: 'ubc:CPSC 110' });
    const people = await tableRows(page, /Average grade of each instructor/);
    expect(people.length).toBeGreaterThanOrEqual(2);
    expect(people.length).toBe(instructors.filter((i: any) => i.grades).length);
    for (const row of people) {
      const person = instructors.find((i: any) => i.name === row.head);
      expect(person, row.head).toBeDefined();
      expect(row.cells[0]).toBe(person.grades.weightedAverage.toFixed(1));
    }
    // However the sources spelled a person, they have one row.
    for (const a of people) for (const b of people) if (a !== b) expect(samePerson(a.head, b.head), `${a.head} / ${b.head}`).toBe(false);
    const respelled = instructors.filter((i: any) => i.grades && i.spellings);
    expect(respelled.length).toBeGreaterThan(0);
    for (const person of respelled) {
      const row = people.find((p) => p.head === person.name)!;
      for (const other of person.spellings.filter((s: string) => s !== person.name)) {
        expect(row.cells.join(' ')).toContain(other);
        expect(people.some((p) => p.head === other)).toBe(false);
      }
    }
    await expectNoSidewaysScroll(page);
    await expectAccessible(page);
    await screenshot(page, `web-course-grades-${device}`);
    expect(web.errors).toEqual([]);
  });

  it('draws a distribution without the "<50" double count, and names suppression only when the chart has a gap', async () => {
    const { page } = web;
    const grades = await tool('tn_course_grades', { course: 'ubc:CPSC 110' });
    const picker = page.getByLabel('Term or section');
    const chart = page.getByRole('img', { name: /average/ });
    const show = async (label: string) => {
      await picker.selectOption({ label });
      await expect.poll(() => chart.getAttribute('aria-label')).toContain(label);
    };
    const pair = grades.sections.find((s: any) => s.format === 'pair' && s.section !== 'OVERALL' && s.bins.every((b: any) => b.count !== null));
    await picker.waitFor();
    const options = await picker.locator('option').allTextContents();
    await show(options.find((o) => o.startsWith(`${pair.term} ${pair.section}`))!);
    const described = (await chart.getAttribute('aria-label'))!;
    expect(described).not.toMatch(/<50/);
    const counts = [...described.matchAll(/(\d+)-(\d+): (\d+)/g)].map((m) => Number(m[3]));
    expect(counts.length).toBe(pair.bins.length);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(pair.bins.reduce((a: number, b: any) => a + b.count, 0));
    // The source suppressed some figures of this course (so the tool says so), but no bin of any chart here: no note.
    expect(grades.suppression.anySuppressed).toBe(true);
    for (const label of options) {
      await show(label);
      expect(await chart.getAttribute('aria-label')).not.toMatch(/suppressed/);
      expect(await page.getByText(/suppressed by the source/).count(), label).toBe(0);
    }
    await expectNoSidewaysScroll(page);
    await expectAccessible(page);

    // A course whose chart has gaps says why, beside that chart only.
    await page.goto(`${gaps.url}${courseHref(`ubc:${gapCourse}`)}`);
    const all = await (await gaps.rest('tn_course_grades', { course: `ubc:${gapCourse}` }, null)).body;
    const gapped = all.sections.find((s: any) => s.bins.some((b: any) => b.count === null));
    const full = all.sections.find((s: any) => s.bins.every((b: any) => b.count !== null));
    await picker.waitFor();
    const labels = await picker.locator('option').allTextContents();
    await show(labels.find((o) => o.startsWith(`${gapped.term} ${gapped.section}`))!);
    expect(await chart.getAttribute('aria-label')).toMatch(/: suppressed/);
    await page.getByText(/suppressed by the source/).waitFor();
    if (full) {
      await show(labels.find((o) => o.startsWith(`${full.term} ${full.section}`))!);
      expect(await page.getByText(/suppressed by the source/).count()).toBe(0);
    }
    await expectNoSidewaysScroll(page);
    await expectAccessible(page);
  });

  it('SFU CMPT 225 with MACM 101 done: a short verdict, a separate list of what is missing, linked tree nodes, and "met if your grades are at least C-"', async () => {
    const { page } = web;
    await page.goto(`${server.url}/courses/sfu/CMPT%20225`);
    await page.getByRole('heading', { level: 1, name: /CMPT 225/ }).waitFor();
    const entry = page.getByLabel(/Add a course you have done/);
    await entry.fill('MACM 101');
    await page.keyboard.press('Enter');
    const verdict = page.locator('p.verdict-line[role="status"]');
    await expect.poll(() => verdict.textContent()).toMatch(/^Not met yet/);
    const said = (await verdict.textContent())!;
    expect(said.length).toBeLessThanOrEqual(160);
    expect(nested(said)).toBe(false);
    expect(said.split(/(?<=\.)\s+(?=[A-Z])/).length).toBeLessThanOrEqual(2);
    const missing = page.getByRole('list', { name: 'Still needed' });
    expect(await missing.textContent()).toMatch(/CMPT 125/);
    expect(await missing.textContent()).not.toMatch(/MACM 101/);

    // Every course in the tree is a link to its own page.
    const tree = page.getByRole('list', { name: 'Prerequisite tree' });
    const links = await tree.getByRole('link').evaluateAll((as) => as.map((a) => [(a.textContent ?? '').trim(), a.getAttribute('href')]));
    expect(links.length).toBeGreaterThanOrEqual(6);
    for (const [code, href] of links) expect(href).toBe(`/courses/sfu/${encodeURIComponent(code!)}`);

    await entry.fill('CMPT 125');
    await page.keyboard.press('Enter');
    await expect.poll(() => verdict.textContent()).toMatch(/^Met if your grades are at least C-/);
    await page.getByRole('list', { name: 'Grades to confirm' }).waitFor();
    await expectNoSidewaysScroll(page);
    await expectAccessible(page);
    await screenshot(page, `web-course-verdict-${device}`);

    await tree.getByRole('link', { name: 'ENSC 251' }).click();
    await page.getByRole('heading', { level: 1, name: /ENSC 251/ }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/courses/sfu/ENSC%20251');
    // The record is kept: clear it for the next test.
    await page.evaluate(() => localStorage.removeItem('tn-completed-courses'));
    expect(web.errors).toEqual([]);
  });

  it('"Leads to" links the courses whose prerequisites name this one', async () => {
    const { page } = web;
    await page.goto(`${server.url}/courses/sfu/MACM%20101`);
    const panel = page.getByRole('region', { name: 'Leads to' });
    await panel.getByRole('link').first().waitFor();
    const links = await panel.getByRole('link').evaluateAll((as) => as.map((a) => a.getAttribute('href')!));
    const { leadsTo } = await tool('tn_course_prereqs', { course: 'sfu:MACM 101' });
    expect(links).toEqual(leadsTo.map((l: any) => courseHref(l.course)));
    expect(links).toContain('/courses/sfu/CMPT%20225');
    await expectNoSidewaysScroll(page);
    await panel.getByRole('link', { name: /CMPT 225/ }).click();
    await page.getByRole('heading', { level: 1, name: /CMPT 225/ }).waitFor();
    // The way back: MACM 101 is a node of CMPT 225's tree (the tree loads after the heading).
    const wayBack = page.getByRole('list', { name: 'Prerequisite tree' }).getByRole('link', { name: 'MACM 101' });
    await expect.poll(() => wayBack.count()).toBe(1);
  });

  it('a course known only from transfer rules never says its prerequisites are met', async () => {
    const { page } = web;
    const rules = await tool('tn_course_equivalent_elsewhere', { course: 'langara:CPSC 1150', limit: 100 });
    const targets: string[] = rules.items.flatMap((e: any) => e.targets.map((t: any) => t.ref).filter(Boolean));
    let stub: string | undefined;
    for (const ref of targets) if (!(await tool('tn_course_get', { course: ref })).knownFrom.includes('catalogue')) stub = ref;
    expect(stub).toBeDefined();
    await page.evaluate(() => localStorage.setItem('tn-completed-courses', JSON.stringify(['CPSC 1150 A'])));
    await page.goto(`${server.url}${courseHref(stub!)}`);
    await page.getByText(/Prerequisites not known/).waitFor();
    await page.getByRole('region', { name: 'Leads to' }).waitFor();
    const text = (await page.locator('main').textContent())!;
    expect(text).not.toMatch(/You meet|prerequisites are met|No prerequisites/i);
    expect(text).toMatch(/no catalogue entry/);
    await expectNoSidewaysScroll(page);
    await expectAccessible(page);
    await page.evaluate(() => localStorage.removeItem('tn-completed-courses'));
    expect(web.errors).toEqual([]);
  });
});
