import type { Client } from '@modelcontextprotocol/client';
import { getToolUiResourceUri } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { Browser, Frame } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mergeInstructors } from '../../functions/course/instructor-names.js';
import { launchChromium } from '../support/chromium.js';
import { connectClient, startTestServer, type TestServer } from '../support/test-server.js';
import { hostStyles, openViewHost, type ViewHost } from '../support/view-host.js';
import { expectAccessible } from '../support/web-page.js';

/**
 * Each MCP Apps view as a host shows it: the tool names its view in tools/list, the page comes from
 * resources/read over MCP (the official client over HTTP), and it renders in Chromium inside a host
 * page built on the SDK's AppBridge, under the spec's default CSP, fed the tool's real result.
 */

let server: TestServer;
let browser: Browser;
let client: Client;
let tools: Awaited<ReturnType<Client['listTools']>>['tools'];

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer({}, { catalog: 'shared' }), launchChromium()]);
  client = await connectClient(server.url);
  tools = (await client.listTools()).tools;
}, 120_000);
afterAll(async () => {
  await client?.close();
  await browser?.close();
  await server?.close();
});

interface Rendered {
  host: ViewHost;
  frame: Frame;
  result: any;
}

/** Calls the tool, reads the view its tools/list entry names, and mounts it with that result. */
async function render(toolName: string, input: Record<string, unknown>): Promise<Rendered> {
  const tool = tools.find((t) => t.name === toolName)!;
  const uri = getToolUiResourceUri(tool);
  expect(uri, `${toolName} names a view`).toMatch(/^ui:\/\//);
  const { contents } = await client.readResource({ uri: uri! });
  expect(contents[0]).toMatchObject({ uri, mimeType: 'text/html;profile=mcp-app' });
  const html = (contents[0] as { text: string }).text;
  const result = await client.callTool({ name: toolName, arguments: input });
  expect(result.isError).toBeFalsy();
  const host = await openViewHost(browser, { colorScheme: 'light', callTool: (params) => client.callTool(params) });
  const frame = await host.mount({ html, toolInput: input, toolResult: result, hostContext: { ...hostStyles('light'), toolInfo: { tool } } });
  return { host, frame, result: result.structuredContent };
}

/** Nothing left the page for another origin, no CSP violation, no script error; then both themes pass axe. */
async function expectCleanInBothThemes({ host, frame }: Rendered, name: string): Promise<void> {
  expect(host.thirdParty).toEqual([]);
  expect(await host.violations()).toEqual([]);
  expect(host.errors).toEqual([]);
  // The page reports its height, and the host sizes the frame to it (capped as claude.ai caps inline views).
  await host.page.waitForFunction(() => window.hostLog.sizes.some((size) => (size.height ?? 0) > 100));
  await expectAccessible(frame);
  await host.screenshot(`view-${name}-light`);
  await host.page.evaluate((json: string) => window.setHostTheme(JSON.parse(json)), JSON.stringify(hostStyles('dark')));
  await frame.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
  await expectAccessible(frame);
  await host.screenshot(`view-${name}-dark`);
  expect(await host.violations()).toEqual([]);
  expect(host.errors).toEqual([]);
}

describe('MCP Apps views in a host (AppBridge, spec default CSP)', () => {
  it('every tool with a view names it the spec\'s way and the SDK\'s older way, and the page is listed for review', async () => {
    const withViews = tools.filter((t) => getToolUiResourceUri(t));
    expect(withViews.map((t) => t.name).sort()).toEqual(['tn_course_grades', 'tn_course_prereqs', 'tn_transfer_resolve']);
    for (const tool of withViews) expect((tool._meta as Record<string, unknown>)['ui/resourceUri']).toBe((tool._meta as { ui: { resourceUri: string } }).ui.resourceUri);
    const { resources } = await client.listResources();
    const views = resources.filter((r) => r.uri.startsWith('ui://'));
    expect(views.map((r) => r.uri).sort()).toEqual(withViews.map((t) => getToolUiResourceUri(t)!).sort());
    for (const view of views) {
      expect(view.mimeType).toBe('text/html;profile=mcp-app');
      expect(view._meta).toMatchObject({ ui: { csp: { connectDomains: [], resourceDomains: [] } } });
    }
    // A page is one self-contained document: nothing it loads, nothing it evaluates.
    for (const view of views) {
      const html = ((await client.readResource({ uri: view.uri })).contents[0] as { text: string }).text;
      expect(html).toMatch(/^<!doctype html>/);
      expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href=|https?:\/\/(?!www\.w3\.org)/);
      expect(html).not.toMatch(/\beval\(|new Function\(/);
    }
  });

  it('transfer plan: the plan as a board, each rule with its courses and credits, and the comparison through the host', async () => {
    const input = { sourceInstitution: 'langara', targetInstitution: 'sfu', sourceCourses: ['CPSC 1150', 'CPSC 1160', 'CPSC 1181', 'MATH 1171', 'ENGL 1127', 'PHYS 1125'] };
    const rendered = await render('tn_transfer_resolve', input);
    const { frame, result, host } = rendered;
    try {
      await frame.getByRole('heading', { level: 1, name: 'LANGARA → SFU' }).waitFor();
      await expect(frame.getByLabel(`${result.plan.totalCredits} credits transfer`).textContent()).resolves.toContain(String(result.plan.totalCredits));
      const plan = frame.getByRole('region', { name: /In your plan/ });
      const code = (ref: string) => ref.replace(/^[a-z]+:/, '');
      expect(result.plan.rules.length).toBeGreaterThan(1);
      for (const rule of result.plan.rules) {
        const card = plan.getByRole('listitem').filter({ hasText: rule.consumes.map(code).join(' + ') });
        await expect(card.textContent()).resolves.toContain(`${rule.credits} credits`);
      }
      // A bundle missing a course is on the board with what it still needs.
      for (const partial of result.partialMatches) {
        const card = frame.getByRole('region', { name: /Could count/ }).getByRole('listitem').filter({ hasText: partial.missingCourses.map(code).join(', ') });
        await expect(card.textContent()).resolves.toContain('Also needs');
      }
      await expectCleanInBothThemes(rendered, 'transfer-plan');

      // The comparison runs tn_transfer_compare through the host; another receiver's plan opens in place.
      await frame.getByRole('button', { name: /Compare where these courses count most/ }).click();
      const table = frame.getByRole('table', { name: /ranked by the credits/ });
      await table.waitFor();

      const other = frame.getByRole('button', { name: /^Plan for / }).first();
      const receiver = (await other.textContent())!.replace('Plan for ', '');
      await other.click();
      await frame.getByRole('heading', { level: 1, name: `LANGARA → ${receiver}` }).waitFor();
      expect((await host.hostLog()).toolCalls).toEqual(['tn_transfer_compare', 'tn_transfer_resolve']);
      expect(host.thirdParty).toEqual([]);
      expect(await host.violations()).toEqual([]);
    } finally {
      await host.close();
    }
  });

  it('prerequisite tree: every course of the tree, met or not for the courses given, and a course opens its own', async () => {
    const input = { course: 'sfu:CMPT 225', completed: [{ course: 'CMPT 125', grade: 'B' }, { course: 'MACM 101', grade: 'B-' }] };
    const rendered = await render('tn_course_prereqs', input);
    const { frame, result, host } = rendered;
    try {
      const tree = frame.getByRole('list', { name: 'Prerequisite tree of sfu:CMPT 225' });
      await tree.waitFor();
      const courses: string[] = [];
      const walk = (node: any) => (node.type === 'course' ? courses.push(node.code) : node.children?.forEach(walk));
      walk(result.parsed.tree);
      expect(courses.length).toBeGreaterThan(3);
      for (const code of courses) await tree.getByRole('button', { name: code, exact: true }).waitFor();
      // The header says what the tool's check says; a course given with a passing grade is marked met, one not given is not.
      expect(result.check.satisfied).toBe(true);
      await frame.getByText('You meet them').waitFor();
      await expect(tree.getByRole('listitem').filter({ has: frame.getByRole('button', { name: 'CMPT 125', exact: true }) }).last().textContent()).resolves.toContain('(met)');
      await expect(tree.getByRole('listitem').filter({ has: frame.getByRole('button', { name: 'ENSC 251', exact: true }) }).last().textContent()).resolves.toContain('(not met)');
      await expectCleanInBothThemes(rendered, 'prerequisite-tree');

      // A node opens that course's prerequisites through the host, checked against the same record.
      await tree.getByRole('button', { name: 'CMPT 125', exact: true }).click();
      const opened = await client.callTool({ name: 'tn_course_prereqs', arguments: { course: 'sfu:CMPT 125', completed: input.completed } });
      await frame.getByRole('heading', { level: 1, name: 'Prerequisites of sfu:CMPT 125' }).waitFor();
      const openedCourses: string[] = [];
      const walkOpened = (node: any) => (node.type === 'course' ? openedCourses.push(node.code) : node.children?.forEach(walkOpened));
      walkOpened((opened.structuredContent as any).parsed.tree);
      for (const code of openedCourses) await frame.getByRole('button', { name: code, exact: true }).first().waitFor();
      const log = await host.hostLog();
      expect(log.toolCalls).toEqual(['tn_course_prereqs']);
      expect(JSON.stringify(log.contexts)).toContain('sfu:CMPT 125');
      await frame.getByRole('navigation', { name: 'Opened courses' }).getByRole('button', { name: 'sfu:CMPT 225' }).click();
      await tree.waitFor();
      expect(await host.violations()).toEqual([]);
    } finally {
      await host.close();
    }
  });

  it('grade history: the average of every term, every instructor, and a distribution', async () => {
    const rendered = await render('tn_course_grades', { course: 'ubc:CPSC 110' });
    const { frame, result, host } = rendered;
    try {
      const chart = frame.getByRole('img', { name: /Average grade per term/ });
      await chart.waitFor();
      expect(result.trend.byTerm.length).toBeGreaterThan(2);
      const description = await chart.getAttribute('aria-labelledby').then((ids) => frame.locator(`#${ids!.split(' ')[1]}`).textContent());
      const drawn = await chart.locator('text').allTextContents();
      for (const term of result.trend.byTerm) {
        const average = term.average === null ? 'no data' : term.average.toFixed(1);
        expect(description).toContain(`${term.term}: ${average}`);
        expect(drawn).toContain(term.term);
        if (term.average !== null) expect(drawn).toContain(average);
      }
      await expectCleanInBothThemes(rendered, 'grade-history');

      await frame.getByRole('tab', { name: 'By instructor' }).click();
      // One row per person, as tn_course_instructor has them: "Nick Bradley" and "Nicholas Bradley" are one.
      const sections = result.sections.filter((s: any) => s.section !== 'OVERALL');
      const people = mergeInstructors(sections.flatMap((s: any) => s.instructors.map((name: string) => ({ name, term: s.term, together: s.instructors }))));
      expect(people.some((p) => p.variants.length > 1)).toBe(true);
      const table = frame.getByRole('table', { name: /per instructor/ });
      for (const person of people) await table.getByRole('rowheader', { name: person.name, exact: true }).waitFor();
      expect(await table.getByRole('rowheader').count()).toBe(people.length);
      await frame.getByRole('tab', { name: 'Distribution' }).click();
      await frame.getByRole('img', { name: /average .*students/ }).waitFor();
      // A host may also pass a view the result of another tool (one the view called): the grades stay.
      const other = await client.callTool({ name: 'tn_course_get', arguments: { course: 'ubc:CPSC 110' } });
      await host.page.evaluate((json: string) => window.sendToolResult(JSON.parse(json)), JSON.stringify(other));
      await frame.getByRole('tab', { name: 'By term' }).click();
      await chart.waitFor();
      await frame.getByRole('heading', { level: 1, name: 'Grades in ubc:CPSC 110' }).waitFor();
      expect(await host.violations()).toEqual([]);
      expect(host.errors).toEqual([]);
    } finally {
      await host.close();
    }
  });
});
