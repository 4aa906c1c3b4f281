import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findInstitution } from '../../functions/catalog/institutions.js';
import { launchChromium } from '../support/chromium.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { expectAccessible, expectNoSidewaysScroll, openWebPage, screenshot, type WebPage } from '../support/web-page.js';

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer({}, { catalog: 'shared' }), launchChromium()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

interface Institution {
  id: string;
  name: string;
  bctgCode?: string;
  sendsTransferRules?: boolean;
}

const institutions = async (): Promise<Institution[]> => (await server.rest('tn_course_institutions', { limit: 100 }, null)).body.items;
const plan = (from: string, to: string, courses: string[]) => `${server.url}/transfer?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}&courses=${encodeURIComponent(courses.join(','))}`;

describe.each([
  ['desktop', 1100],
  ['phone', 390],
] as const)('the transfer planner (%s)', (device, width) => {
  let web: WebPage;
  beforeAll(async () => {
    web = await openWebPage(browser);
    await web.page.setViewportSize({ width, height: 900 });
  });
  afterAll(() => web.close());

  it('offers every institution by full name in labelled pickers, and names the senders that have rules', async () => {
    const { page } = web;
    await page.goto(`${server.url}/transfer`);
    const from = page.getByRole('combobox', { name: 'From institution' });
    const to = page.getByRole('combobox', { name: 'To institution' });
    await from.waitFor();
    await to.waitFor();
    const known = await institutions();
    const offered = async (field: typeof from) => {
      const list = await field.getAttribute('list');
      return page.locator(`datalist[id="${list}"] option`).evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
    };
    await expect.poll(async () => (await offered(to)).length).toBe(known.length);
    expect((await offered(to)).sort()).toEqual(known.map((i) => i.name).sort());
    expect((await offered(from)).sort()).toEqual(known.map((i) => i.name).sort());
    // The senders with rules come first among the "From" suggestions, and the note names exactly them.
    const senders = known.filter((i) => i.sendsTransferRules).map((i) => i.name);
    expect(senders.length).toBeGreaterThan(0);
    expect((await offered(from)).slice(0, senders.length).sort()).toEqual([...senders].sort());
    const note = (await page.getByRole('note', { name: 'Transfer data' }).textContent())!;
    for (const name of senders) expect(note).toContain(name);
    for (const other of known.filter((i) => !i.sendsTransferRules)) expect(note).not.toContain(other.name);
    await expectNoSidewaysScroll(page);
    await expectAccessible(page);
    await screenshot(page, `web-transfer-pickers-${device}`);
    expect(web.errors).toEqual([]);
  });

  it('takes an institution by code or alias, plans, and links each receiving course to its page', async () => {
    const { page } = web;
    const known = await institutions();
    const langara = known.find((i) => i.id === 'langara')!;
    const ubc = known.find((i) => i.id === 'ubc')!;
    await page.goto(`${server.url}/transfer`);
    await page.getByLabel('From institution').fill(langara.bctgCode!);
    // An alias the transfer tools accept ("ubc vancouver"), typed as a student would.
    await page.getByLabel('To institution').fill(findInstitution('ubc')!.aliases.find((a) => / /.test(a))!.toUpperCase());
    await page.getByLabel('Courses taken (comma-separated)').fill('CPSC 1150, MATH 1171');
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.searchParams.get('from') === 'langara' && url.searchParams.get('to') === 'ubc');
    await page.getByRole('heading', { name: new RegExp(`^(Plan: [\\d.]+ credits|No credit) at ${ubc.name}`) }).waitFor();

    await page.goto(plan('langara', 'sfu', ['CPSC 1150']));
    await page.getByRole('heading', { name: /^Plan: \d+(\.\d+)? credits at Simon Fraser University/ }).waitFor();
    expect(await page.getByLabel('From institution').inputValue()).toBe(langara.name);
    const resolved = (await server.rest('tn_transfer_resolve', { sourceInstitution: 'langara', targetInstitution: 'sfu', sourceCourses: ['CPSC 1150'] }, null)).body;
    const courseTargets = resolved.exactMatches.flatMap((m: any) => m.targets.filter((t: any) => t.kind === 'course'));
    expect(courseTargets.length).toBeGreaterThan(0);
    const plans = page.locator('section[aria-labelledby="plan-heading"]');
    for (const target of courseTargets) {
      const link = plans.getByRole('link', { name: target.text });
      expect(await link.getAttribute('href')).toBe(`/courses/${target.institution}/${encodeURIComponent(target.code)}`);
    }
    await expectNoSidewaysScroll(page);
    await expectAccessible(page);
    await plans.getByRole('link', { name: courseTargets[0].text }).click();
    await page.getByRole('heading', { level: 1, name: new RegExp(courseTargets[0].code) }).waitFor();
    expect(web.errors).toEqual([]);
  });

  it('names an unknown institution as unknown and never says "0 credits"', async () => {
    const { page } = web;
    await page.goto(plan('nowhere-college', 'sfu', ['CPSC 1150']));
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/"nowhere-college" is not an institution/);
    expect(await page.getByLabel('From institution').getAttribute('aria-invalid')).toBe('true');
    await page.getByRole('note', { name: 'Transfer data' }).waitFor();
    expect(await page.locator('main').textContent()).not.toMatch(/\b0 credits\b/);
    expect(await page.getByRole('heading', { name: /^Plan:/ }).count()).toBe(0);
    await expectNoSidewaysScroll(page);
    await expectAccessible(page);
    await screenshot(page, `web-transfer-unknown-${device}`);

    await page.goto(plan('langara', 'atlantis-university', ['CPSC 1150']));
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/"atlantis-university" is not an institution/);
    expect(await page.locator('main').textContent()).not.toMatch(/\b0 credits\b/);

    // Known, but no rules loaded from it: said so, with the senders that have rules.
    const known = await institutions();
    const quiet = known.find((i) => !i.sendsTransferRules)!;
    await page.goto(plan(quiet.id, 'sfu', ['ENGL 100']));
    await expect.poll(() => page.getByRole('alert').textContent()).toContain(`No transfer rules from ${quiet.name}`);
    for (const sender of known.filter((i) => i.sendsTransferRules)) expect(await page.getByRole('alert').textContent()).toContain(sender.name);
    expect(await page.locator('main').textContent()).not.toMatch(/\b0 credits\b/);
    // The browser's own log of failed requests would show here: none is made for a blocked plan.
    expect(web.errors).toEqual([]);
  });

  it("compares receivers in a table whose Credits are the common scale: UVic's four one-term courses read 12", async () => {
    const { page } = web;
    await page.goto(plan('langara', 'uvic', ['CPSC 1150', 'MATH 1171', 'ENGL 1127', 'PSYC 1115']));
    await page.getByRole('button', { name: 'Compare every receiving institution' }).click();
    const table = page.getByRole('table', { name: /Receiving institutions ranked/ });
    await table.waitFor();
    const headers = (await table.getByRole('columnheader').allTextContents()).map((t) => t.trim());
    const credits = headers.findIndex((h) => /^Credits/.test(h));
    expect(credits).toBeGreaterThan(0);
    const uvic = table.getByRole('row', { name: /University of Victoria/ });
    const cells = (await uvic.getByRole('cell').allTextContents()).map((t) => t.trim().replace(/^[A-Za-z ]+: /, ''));
    expect(Number(cells[credits])).toBe(12);
    expect(cells.join(' | ')).toMatch(/6 units/);
    const column = (await table.locator(`tbody tr td:nth-child(${credits + 1})`).allTextContents()).map((t) => Number(t.replace(/^[A-Za-z ]+: /, '')));
    expect(column).toEqual([...column].sort((a, b) => b - a));
    await expectNoSidewaysScroll(page);
    await expectAccessible(page);
    await screenshot(page, `web-transfer-compare-${device}`);
    expect(web.errors).toEqual([]);
  });
});
