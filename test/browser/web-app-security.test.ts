import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/chromium.js';
import { startTestServer, TEST_TOKEN, type TestServer } from '../support/test-server.js';
import { openWebPage } from '../support/web-page.js';

/**
 * The student web app against a page that would frame it, a script that would read its token, and an
 * injected script (issue 28, class 12), in Chromium against the running server.
 */
let server: TestServer;
let browser: Browser;
let attacker: Server;
let attackerUrl: string;

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer({}, { catalog: 'shared' }), launchChromium()]);
  // Another origin (another port of this machine) that tries to frame /settings.
  attacker = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>Win a prize</title><iframe id="victim" src="${server.url}/settings" width="800" height="600"></iframe>`);
  });
  await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
  attackerUrl = `http://127.0.0.1:${(attacker.address() as AddressInfo).port}/`;
});
afterAll(async () => {
  attacker?.close();
  await browser?.close();
  await server?.close();
});

describe('the web app', () => {
  it('sends a Content-Security-Policy without inline scripts and forbids framing on every page and asset', async () => {
    for (const path of ['/', '/settings', '/courses/sfu/CMPT%20225']) {
      const response = await fetch(`${server.url}${path}`);
      const csp = response.headers.get('content-security-policy') ?? '';
      expect(csp, path).toContain("frame-ancestors 'none'");
      expect(csp).toMatch(/script-src 'self'( 'sha256-[A-Za-z0-9+/=]+')*(;|$)/);
      expect(csp).not.toContain('unsafe-inline');
      expect(csp).not.toContain('unsafe-eval');
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      const html = await response.text();
      const asset = /src="(\/assets\/[^"]+\.js)"/.exec(html)![1]!;
      expect((await fetch(`${server.url}${asset}`)).headers.get('x-frame-options')).toBe('DENY');
    }
  });

  it('cannot be framed by another site (no clickjacking of /settings)', async () => {
    const web = await openWebPage(browser);
    try {
      await web.page.goto(attackerUrl);
      await web.page.waitForLoadState('load');
      const frame = web.page.frames().find((f) => f !== web.page.mainFrame());
      // Chromium refuses to render it: the frame holds an error page, never the app.
      const rendered = frame ? await frame.evaluate(() => document.querySelector('#app')?.innerHTML ?? '').catch(() => '') : '';
      expect(rendered).toBe('');
      expect(frame?.url() ?? '').not.toBe(`${server.url}/settings`);
    } finally {
      await web.close();
    }
  });

  it('keeps the token where no script on the page can read it, and runs no script injected into the page', async () => {
    const web = await openWebPage(browser);
    try {
      const { page } = web;
      await page.goto(`${server.url}/settings`);
      await page.getByLabel('Access token').fill(TEST_TOKEN);
      await page.keyboard.press('Enter');
      await page.getByRole('button', { name: 'Sign out' }).waitFor();
      // What an XSS could reach: storage and document.cookie. The token is in none of them.
      const readable = await page.evaluate(() => [document.cookie, JSON.stringify({ ...localStorage }), JSON.stringify({ ...sessionStorage })].join('\n'));
      expect(readable).not.toContain(TEST_TOKEN);
      const cookie = (await web.context.cookies(server.url)).find((c) => c.name === 'tn_web');
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });

      // A script injected into the page (as an XSS would) does not run.
      await page.evaluate(() => {
        const script = document.createElement('script');
        script.textContent = 'window.__injected = true';
        document.body.append(script);
      });
      expect(await page.evaluate(() => (window as { __injected?: boolean }).__injected)).toBeUndefined();
      expect(web.errors.some((error) => /Content Security Policy/.test(error))).toBe(true);

      // The app still works under its policy: signed in, it reads the plan; signing out ends the cookie.
      await page.getByRole('meter').waitFor();
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByLabel('Access token').waitFor();
      expect((await web.context.cookies(server.url)).find((c) => c.name === 'tn_web')).toBeUndefined();
    } finally {
      await web.close();
    }
  });

  it('refuses a request that carries the cookie but comes from no browser, and a token set from another site', async () => {
    const signIn = await fetch(`${server.url}/v1/web-session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: TEST_TOKEN }) });
    expect(signIn.status).toBe(400);
    const foreign = await fetch(`${server.url}/v1/web-session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://attacker.example' },
      body: JSON.stringify({ token: TEST_TOKEN }),
    });
    expect(foreign.status).toBe(403);
    const cookieOnly = await fetch(`${server.url}/v1/tools/tn_user_quota`, { method: 'POST', headers: { cookie: `tn_web=${TEST_TOKEN}`, 'content-type': 'application/json' }, body: '{}' });
    expect(cookieOnly.status).toBe(401);
  });
});
