import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import type { McpUiHostContext } from '@modelcontextprotocol/ext-apps';
import type { Browser, BrowserContext, Frame, Page } from 'playwright-core';
import { SCREENSHOT_DIR } from './web-page.js';

/** Where the host page and the view are served from: two origins, as a web host keeps its sandbox apart. */
const HOST_ORIGIN = 'http://host.test';
const VIEW_ORIGIN = 'http://view.test';

/**
 * The policy SEP-1865 tells a host to apply when a view declares no domains, with what its sandbox
 * proxy adds (no frames, no plugins, base URI kept): the strictest a view can meet.
 */
const SPEC_DEFAULT_CSP = [
  "default-src 'none'",
  "script-src 'self' 'unsafe-inline'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "media-src 'self' data:",
  "connect-src 'none'",
  "frame-src 'none'",
  "object-src 'none'",
  "base-uri 'self'",
].join('; ');

let hostScript: Promise<string> | undefined;

/** The host page's script: the SDK's AppBridge and PostMessageTransport, bundled for the browser. */
function hostPageScript(): Promise<string> {
  hostScript ??= build({
    entryPoints: [path.resolve('test/support/view-host-page.ts')],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: ['es2022'],
    logLevel: 'silent',
  }).then((result) => result.outputFiles[0]!.text);
  return hostScript;
}

export interface ViewHost {
  page: Page;
  context: BrowserContext;
  /** Requests to any origin but the host's and the view's (each is refused, and the test fails on it). */
  thirdParty: string[];
  /** Console errors from the host and the view. */
  errors: string[];
  /** Mounts a view page under the spec's CSP and feeds it a tool's input and result through AppBridge. */
  mount(args: { html: string; toolInput: Record<string, unknown>; toolResult: unknown; hostContext: McpUiHostContext }): Promise<Frame>;
  /** CSP violations the view's document reported (securitypolicyviolation events). */
  violations(): Promise<string[]>;
  hostLog(): Promise<{ opened: string[]; contexts: unknown[]; sizes: { width?: number; height?: number }[]; toolCalls: string[] }>;
  screenshot(name: string): Promise<string>;
  close(): Promise<void>;
}

export async function openViewHost(
  browser: Browser,
  options: { colorScheme: 'light' | 'dark'; callTool: (params: { name: string; arguments?: Record<string, unknown> }) => Promise<unknown> },
): Promise<ViewHost> {
  const context = await browser.newContext({ colorScheme: options.colorScheme, viewport: { width: 720, height: 900 } });
  const thirdParty: string[] = [];
  const errors: string[] = [];
  let viewHtml = '';
  const script = await hostPageScript();
  await context.route('**/*', async (route) => {
    const url = new URL(route.request().url());
    if (url.origin === HOST_ORIGIN) {
      return route.fulfill({
        contentType: 'text/html',
        body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Test host</title></head><body style="margin:16px;font-family:sans-serif"><main id="chat"></main><script>${script.replace(/<\/script/gi, '<\\/script')}</script></body></html>`,
      });
    }
    if (url.origin === VIEW_ORIGIN) return route.fulfill({ contentType: 'text/html', headers: { 'content-security-policy': SPEC_DEFAULT_CSP }, body: viewHtml });
    thirdParty.push(url.href);
    return route.abort('blockedbyclient');
  });
  // Before any script of any frame: the view's document records every CSP violation it raises.
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const log = ((window as unknown as { __cspViolations?: string[] }).__cspViolations ??= []);
      log.push(`${event.effectiveDirective} blocked ${event.blockedURI || '(inline)'} at ${event.sourceFile}:${event.lineNumber}`);
    });
  });
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  page.on('pageerror', (error) => errors.push(error.message));
  await page.exposeFunction('hostCallTool', options.callTool);
  await page.goto(`${HOST_ORIGIN}/`);

  const viewFrame = () => page.frames().find((frame) => frame.url().startsWith(VIEW_ORIGIN));
  return {
    page,
    context,
    thirdParty,
    errors,
    async mount({ html, toolInput, toolResult, hostContext }) {
      viewHtml = html;
      // Passed as JSON: the host context's types are too deep for Playwright's serializable-argument check.
      const mount = JSON.stringify({ src: `${VIEW_ORIGIN}/view.html`, toolInput, toolResult, hostContext });
      await page.evaluate((json: string) => window.mountView(JSON.parse(json)), mount);
      return viewFrame()!;
    },
    async violations() {
      return (await viewFrame()?.evaluate(() => (window as unknown as { __cspViolations?: string[] }).__cspViolations ?? [])) ?? ['(no view frame)'];
    },
    hostLog: () => page.evaluate(() => window.hostLog),
    async screenshot(name) {
      mkdirSync(SCREENSHOT_DIR, { recursive: true });
      const file = path.join(SCREENSHOT_DIR, `${name}.png`);
      await page.locator('iframe').screenshot({ path: file });
      return file;
    },
    close: () => context.close(),
  };
}

/** Host theme variables as a host passes them (light-dark() pairs, a subset as hosts do). */
export function hostStyles(theme: 'light' | 'dark'): McpUiHostContext {
  return {
    theme,
    platform: 'web',
    displayMode: 'inline',
    availableDisplayModes: ['inline'],
    containerDimensions: { maxHeight: 500, maxWidth: 688 },
    styles: {
      variables: {
        '--color-background-primary': 'light-dark(#ffffff, #262624)',
        '--color-text-primary': 'light-dark(#141413, #faf9f5)',
        '--color-text-secondary': 'light-dark(#4f4e4a, #c2c0b6)',
        '--font-sans': 'ui-sans-serif, system-ui, sans-serif',
        '--border-radius-md': '10px',
      } as NonNullable<NonNullable<McpUiHostContext['styles']>['variables']>,
    },
  };
}
