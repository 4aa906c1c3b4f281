import { readFile } from 'node:fs/promises';
import ICAL from 'ical.js';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/chromium.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { expectAccessible, openWebPage, screenshot, type WebPage } from '../support/web-page.js';

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer({}, { catalog: 'shared' }), launchChromium()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const TERM = '2026-spring';
const COURSES = ['CMPT 225', 'MACM 201', 'MATH 232'];

interface Taken {
  course: string;
  section: string;
  role: string;
  kind: string;
}

/** The timetable the tool ranks first for these courses: what the page must draw. */
async function ranked(courses: string[], extra: Record<string, unknown> = {}) {
  const { status, body } = await server.rest('tn_course_timetable', { term: TERM, courses: courses.map((c) => `sfu:${c}`), ...extra }, null);
  expect(status).toBe(200);
  return body as { items: { sections: Taken[]; meetings: { course: string; section: string; day: string; start: string; end: string }[] }[]; totalCount: number };
}

/** Each class block of the grid, by day: its text as shown. */
async function gridByDay(page: Page): Promise<Record<string, string[]>> {
  return page.evaluate(() => {
    const days: Record<string, string[]> = {};
    for (const day of document.querySelectorAll('.week-day')) {
      const name = day.querySelector('h3 .visually-hidden')!.textContent!;
      days[name] = [...day.querySelectorAll('li.slot')].map((li) => (li as HTMLElement).innerText.replace(/\s+/g, ' ').trim());
    }
    return days;
  });
}

const settled = async (page: Page) => {
  await page.getByRole('status').filter({ hasText: 'Loading' }).waitFor({ state: 'detached' });
};

describe('the Timetable page (desktop)', () => {
  let web: WebPage;
  beforeAll(async () => {
    web = await openWebPage(browser);
  });
  afterAll(() => web.close());

  it('builds SFU Spring 2026 CMPT 225 + MACM 201 + MATH 232 from the navigation: a weekly grid of the best combination, kept in the URL', async () => {
    const { page } = web;
    await page.goto(server.url);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Timetable' }).click();
    await page.getByRole('heading', { level: 1, name: 'Timetable' }).waitFor();
    await page.getByLabel('Term', { exact: true }).selectOption({ label: 'Spring 2026' });
    await page.getByLabel('Institution').selectOption('sfu');
    for (const course of COURSES) {
      await page.getByLabel('Add a course').fill(course);
      await page.keyboard.press('Enter');
      await page.getByRole('button', { name: `Remove ${course}` }).waitFor();
    }
    const url = new URL(page.url());
    expect(url.pathname).toBe('/timetable');
    expect(url.searchParams.get('term')).toBe(TERM);
    expect(url.searchParams.get('courses')).toBe(COURSES.map((c) => `sfu:${c}`).join(','));
    await page.getByText(/^Timetable 1 of \d+/).waitFor();

    const best = (await ranked(COURSES)).items[0]!;
    const grid = await gridByDay(page);
    for (const meeting of best.meetings) {
      const day = { Mo: 'Monday', Tu: 'Tuesday', We: 'Wednesday', Th: 'Thursday', Fr: 'Friday' }[meeting.day]!;
      expect(grid[day]!.some((text) => text.includes(meeting.course.split(':')[1]!) && text.includes(meeting.section) && text.includes(`${meeting.start}–${meeting.end}`)), `${JSON.stringify(meeting)} in ${JSON.stringify(grid[day])}`).toBe(true);
    }
    expect(Object.values(grid).flat()).toHaveLength(new Set(best.meetings.map((m) => `${m.day}${m.start}${m.course}${m.section}`)).size);
    // Each lecture with a lab of its own group, named in the list under the grid.
    const taken = await page.locator('ul.taken > li').allInnerTexts();
    const cmpt = taken.filter((t) => t.startsWith('CMPT 225'));
    expect(cmpt).toHaveLength(2);
    const [lecture, lab] = [/CMPT 225 (D\d)00 Lecture/.exec(cmpt.join('\n'))?.[1], /CMPT 225 (D\d)\d\d Lab/.exec(cmpt.join('\n'))?.[1]];
    expect(lecture).toBeDefined();
    expect(lab).toBe(lecture);
    await expectAccessible(page);
    await screenshot(page, 'web-timetable');
    expect(web.errors).toEqual([]);
  });

  it('steps to the next combination and back, the choice in the URL, the same after a reload', async () => {
    const { page } = web;
    const first = await gridByDay(page);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText(/^Timetable 2 of \d+/).waitFor();
    expect(new URL(page.url()).searchParams.get('option')).toBe('2');
    const second = await gridByDay(page);
    expect(second).not.toEqual(first);
    await page.reload();
    await page.getByText(/^Timetable 2 of \d+/).waitFor();
    expect(await gridByDay(page)).toEqual(second);
    expect(await page.getByLabel('Term', { exact: true }).inputValue()).toBe(TERM);
    await page.goBack();
    await page.getByText(/^Timetable 1 of \d+/).waitFor();
    expect(await gridByDay(page)).toEqual(first);
    expect(web.errors).toEqual([]);
  });

  it('downloads the combination shown as an .ics with a weekly event per meeting naming course and section', async () => {
    const { page } = web;
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download .ics' }).click()]);
    expect(download.suggestedFilename()).toBe(`timetable-${TERM}.ics`);
    const text = await readFile((await download.path())!, 'utf8');
    const events = new ICAL.Component(ICAL.parse(text)).getAllSubcomponents('vevent').map((e) => new ICAL.Event(e));
    const taken = (await page.locator('ul.taken > li strong').allInnerTexts()).map((t) => t.trim());
    expect(new Set(events.map((e) => e.summary.split(' ').slice(0, 3).join(' ')))).toEqual(new Set(taken));
    for (const event of events) {
      expect((event.component.getFirstPropertyValue('rrule') as ICAL.Recur).freq).toBe('WEEKLY');
      expect(event.component.getFirstProperty('dtstart')!.getParameter('tzid')).toBe('America/Vancouver');
    }
    expect(web.errors).toEqual([]);
  });

  it('applies days off and an earliest start, naming the courses that no longer fit', async () => {
    const { page } = web;
    await page.getByRole('checkbox', { name: 'Friday' }).check();
    await page.waitForURL((url) => url.searchParams.get('off') === 'Fr');
    await settled(page);
    // MACM 201 and MATH 232 meet on Fridays in every section: named, not silently dropped.
    await page.getByText('No way to take MACM 201 fits Fridays off.').waitFor();
    await page.getByText('No way to take MATH 232 fits Fridays off.').waitFor();
    expect((await gridByDay(page)).Friday).toEqual([]);
    await page.getByRole('checkbox', { name: 'Friday' }).uncheck();
    await page.getByLabel('No classes before').selectOption('10:00');
    await page.waitForURL((url) => url.searchParams.get('before') === '10:00' && !url.searchParams.has('off'));
    await settled(page);
    await page.getByText(/^Timetable 1 of \d+/).waitFor();
    for (const text of Object.values(await gridByDay(page)).flat()) expect(text.match(/(\d\d):\d\d–/)![1]! >= '10').toBe(true);
    await expectAccessible(page);
    expect(web.errors).toEqual([]);
  });

  it('says in a short message which two courses always clash', async () => {
    const { page } = web;
    // Two Spring 2026 courses from the data with one timed section each, overlapping.
    const search = await server.rest('tn_course_search', { query: 'mathematics statistics computing', institution: 'sfu', term: TERM, limit: 100 }, null);
    const singles: { ref: string; slots: string[][] }[] = [];
    for (const { ref } of search.body.items as { ref: string }[]) {
      const sections = (await server.rest('tn_course_section_list', { course: ref, term: TERM, limit: 100 }, null)).body.items as {
        meetings: { type: string; days: string[]; startTime?: string; endTime?: string }[];
      }[];
      const timed = sections.filter((s) => s.meetings.some((m) => m.days.length && m.startTime && m.type !== 'OPL'));
      if (timed.length === 1) singles.push({ ref, slots: timed[0]!.meetings.flatMap((m) => m.days.map((d) => [d, m.startTime!, m.endTime!])) });
    }
    const clash = (a: string[][], b: string[][]) => a.some(([d, s, e]) => b.some(([d2, s2, e2]) => d === d2 && s! < e2! && s2! < e!));
    const pair = singles.flatMap((a, i) => singles.slice(i + 1).map((b) => [a, b] as const)).find(([a, b]) => clash(a.slots, b.slots))!;
    expect(pair).toBeDefined();
    await page.goto(`${server.url}/timetable?term=${TERM}&courses=${encodeURIComponent(`${pair[0].ref},${pair[1].ref}`)}`);
    const message = page.locator('.clash li').first();
    await message.waitFor();
    const [a, b] = [pair[0].ref.split(':')[1]!, pair[1].ref.split(':')[1]!];
    expect(await message.textContent()).toMatch(new RegExp(`^${a} and ${b} always clash`));
    expect(await page.locator('.week').count()).toBe(0);
    await expectAccessible(page);
    await screenshot(page, 'web-timetable-clash');
    expect(web.errors).toEqual([]);
  });

  it('is usable from the keyboard: add a course with Enter, remove it with the keyboard, errors named', async () => {
    const { page } = web;
    await page.goto(`${server.url}/timetable?term=${TERM}`);
    await page.getByLabel('Add a course').focus();
    await page.keyboard.type('CMPT 225');
    await page.keyboard.press('Enter');
    await page.getByText(/^Timetable 1 of \d+/).waitFor();
    await page.getByLabel('Add a course').focus();
    await page.keyboard.type('cmpt999');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/CMPT 999/);
    // From the field: the Add button, then the first chip's Remove button.
    await page.getByLabel('Add a course').focus();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Remove CMPT 225');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Remove CMPT 999');
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.searchParams.get('courses') === 'sfu:CMPT 225');
    await page.getByText(/^Timetable 1 of \d+/).waitFor();
    await expectAccessible(page);
    // The browser itself logs the 404 response; nothing else may be an error.
    expect(web.errors.filter((e) => !/status of 404/.test(e))).toEqual([]);
  });
});

describe('the course field', () => {
  it('takes several codes at once, typed loosely, and keeps what is not a code in the field, named', async () => {
    const web = await openWebPage(browser);
    try {
      const { page } = web;
      await page.goto(`${server.url}/timetable?term=${TERM}`);
      await page.getByLabel('Add a course').fill('cmpt225 MACM 201, banana');
      await page.keyboard.press('Enter');
      await page.waitForURL((url) => url.searchParams.get('courses') === 'sfu:CMPT 225,sfu:MACM 201');
      expect(await page.getByRole('alert').textContent()).toBe('"banana" is not a course code like CMPT 225.');
      expect(await page.getByLabel('Add a course').inputValue()).toBe('banana');
      await page.getByText(/^Timetable 1 of \d+/).waitFor();
      await expectAccessible(page);
      expect(web.errors).toEqual([]);
    } finally {
      await web.close();
    }
  });
});

describe('the Timetable page on a phone (390 px)', () => {
  it('fits 390 px without sideways scrolling, grid and controls included, and passes axe', async () => {
    const web = await openWebPage(browser);
    try {
      const { page } = web;
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(`${server.url}/timetable?term=${TERM}&courses=${encodeURIComponent(COURSES.map((c) => `sfu:${c}`).join(','))}`);
      await page.getByText(/^Timetable 1 of \d+/).waitFor();
      const widths = await page.evaluate(() => ({
        scroll: document.documentElement.scrollWidth,
        client: document.documentElement.clientWidth,
        wide: [...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth).map((e) => `${e.tagName}.${e.className}#${e.id}`).slice(0, 8),
      }));
      await screenshot(page, 'web-timetable-phone');
      expect(widths.wide).toEqual([]);
      expect(widths.scroll).toBeLessThanOrEqual(widths.client);
      expect(widths.client).toBeLessThanOrEqual(390);
      // Every class block lies within the screen, and its time is not cut off.
      const blocks = await page.locator('li.slot').evaluateAll((items) =>
        items.map((li) => {
          const box = li.getBoundingClientRect();
          const time = li.querySelector('.time')!.getBoundingClientRect();
          return { left: box.left, right: box.right, bottom: box.bottom, timeBottom: time.bottom };
        }),
      );
      expect(blocks.length).toBeGreaterThan(0);
      for (const block of blocks) {
        expect(block.left).toBeGreaterThanOrEqual(0);
        expect(block.right).toBeLessThanOrEqual(390);
        expect(block.timeBottom).toBeLessThanOrEqual(block.bottom + 1);
      }
      await expectAccessible(page);
      expect(web.errors).toEqual([]);
    } finally {
      await web.close();
    }
  });
});
