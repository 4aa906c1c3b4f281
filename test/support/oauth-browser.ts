import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A browser reduced to what an authorization needs (cookies, redirects, form posts), for tests that
 * walk the OAuth flow over HTTP; the browser-driven test uses Chromium for the same pages.
 */
export class CookieBrowser {
  private readonly cookies = new Map<string, string>();

  async request(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size) headers.set('cookie', [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; '));
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const separator = pair!.indexOf('=');
      const name = pair!.slice(0, separator).trim();
      const value = pair!.slice(separator + 1).trim();
      if (/expires=Thu, 01 Jan 1970/i.test(line) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }

  /** Follows redirects until a page answers or the location leaves `origin` (the client's redirect URI). */
  async navigate(url: string, origin: string, init: RequestInit = {}): Promise<{ response: Response; url: string }> {
    let current = url;
    let response = await this.request(current, init);
    for (let hops = 0; response.status >= 300 && response.status < 400 && hops < 10; hops++) {
      current = new URL(response.headers.get('location')!, current).href;
      if (!current.startsWith(origin)) return { response, url: current };
      response = await this.request(current);
    }
    return { response, url: current };
  }

  async submit(pageUrl: string, html: string, fields: Record<string, string>, origin: string) {
    const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1]?.replace(/&#38;/g, '&');
    if (!action) throw new Error(`no form on ${pageUrl}: ${html.slice(0, 300)}`);
    return this.navigate(new URL(action, pageUrl).href, origin, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
      body: new URLSearchParams(fields).toString(),
    });
  }
}

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** A connector's loopback redirect URI: collects the codes the authorization server sends back. */
export async function startCallbackServer(): Promise<{ redirectUri: string; codes: string[]; callbacks: URLSearchParams[]; close(): void }> {
  const codes: string[] = [];
  const callbacks: URLSearchParams[] = [];
  const server = createServer((req, res) => {
    const params = new URL(req.url ?? '/', 'http://127.0.0.1').searchParams;
    // The browser also asks for /favicon.ico: only authorization responses count.
    if (params.has('code') || params.has('error')) callbacks.push(params);
    const code = params.get('code');
    if (code) codes.push(code);
    res.writeHead(200, { 'content-type': 'text/html' }).end('<title>Signed in</title><p>You can close this window.</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { redirectUri: `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`, codes, callbacks, close: () => server.close() };
}
