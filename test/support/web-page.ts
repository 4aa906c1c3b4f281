import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Browser, BrowserContext, Frame, Page } from 'playwright-core';
import { expect } from 'vitest';

const AXE_PATH = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
export const SCREENSHOT_DIR = path.resolve('test-results');

export interface WebPage {
  page: Page;
  context: BrowserContext;
  /** Console errors and uncaught exceptions seen so far. */
  errors: string[];
  close(): Promise<void>;
}

/** A fresh context (own storage) whose console errors and page errors are collected for the test to assert on. */
export async function openWebPage(browser: Browser, options: { storage?: Record<string, string>; colorScheme?: 'light' | 'dark' } = {}): Promise<WebPage> {
  const context = await browser.newContext({ colorScheme: options.colorScheme ?? 'light', viewport: { width: 1100, height: 900 } });
  if (options.storage) {
    await context.addInitScript((entries: Record<string, string>) => {
      for (const [key, value] of Object.entries(entries)) if (localStorage.getItem(key) === null) localStorage.setItem(key, value);
    }, options.storage);
  }
  const page = await context.newPage();
  // Well under the test timeout, so a missing element fails with its locator rather than a bare timeout.
  page.setDefaultTimeout(10_000);
  const errors: string[] = [];
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  page.on('pageerror', (error) => errors.push(error.message));
  return { page, context, errors, close: () => context.close() };
}

/** axe-core in the page (or one frame of it): no serious or critical violation (WCAG rules and best practices). */
export async function expectAccessible(page: Page | Frame): Promise<void> {
  // Evaluated through the DevTools protocol, which the page's Content-Security-Policy rightly does not
  // cover: a <script> tag with axe inline would be refused, as any injected script is.
  await page.evaluate(readFileSync(AXE_PATH, 'utf8'));
  const violations = await page.evaluate(async () => {
    const result = await (window as any).axe.run(document);
    return result.violations.map((v: any) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n: any) => n.target.join(' ')).slice(0, 5) }));
  });
  expect(violations.filter((v: any) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}

/**
 * The page fits its viewport's width: the document does not scroll sideways and no element drawn on
 * the page reaches past the right edge (what a 390 px phone would make a student pan to read).
 */
export async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const widths = await page.evaluate(() => {
    const client = document.documentElement.clientWidth;
    const wide = [...document.querySelectorAll('body *')]
      .filter((element) => {
        const box = element.getBoundingClientRect();
        return box.width > 0 && box.height > 0 && box.right > client + 0.5 && getComputedStyle(element).visibility !== 'hidden';
      })
      .map((element) => `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}${element.className && typeof element.className === 'string' ? `.${element.className.trim().replace(/\s+/g, '.')}` : ''} (${Math.round(element.getBoundingClientRect().right)} px): ${(element.textContent ?? '').trim().slice(0, 40)}`)
      .slice(0, 8);
    return { scroll: document.documentElement.scrollWidth, client, wide };
  });
  expect(widths.wide, `on ${page.url()}`).toEqual([]);
  expect(widths.scroll, `on ${page.url()}`).toBeLessThanOrEqual(widths.client);
}
