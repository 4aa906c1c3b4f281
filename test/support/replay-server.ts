import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * One origin of a replayed site on 127.0.0.1: answers as the real site does (its routes are given by
 * the site), measures requests in flight at the server, keeps a log of every request, and injects
 * faults on request (a 503 with Retry-After, a 429, a page that stalls, a dropped connection).
 */

export interface LoggedRequest {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  status?: number;
  /** Bytes of the answer's body (0 for a 304). */
  responseBytes?: number;
  at: number;
}

export type Fault = { status: number; retryAfter?: string; body?: string } | { delayMs: number } | { drop: true };

export interface Answer {
  status: number;
  body: string;
  headers?: Record<string, string>;
}

/** A route's answer; `undefined` falls through to 404. */
export type Route = (request: { method: string; path: string; query: string; headers: IncomingMessage['headers']; body: string }) => Answer | undefined;

export class ReplayOrigin {
  readonly log: LoggedRequest[] = [];
  inFlight = 0;
  maxInFlight = 0;
  private server?: Server;
  private readonly faults: { match: (request: LoggedRequest) => boolean; queue: Fault[] }[] = [];
  /** Requests held open by a stalled fault: destroyed at close. */
  private readonly open = new Set<ServerResponse>();
  origin = '';
  /** Added to every answer: makes requests overlap, so a client's limit on them shows at the server. */
  latencyMs = 0;
  /** Called with each request as it arrives (a test cutting a crawl short at a chosen page). */
  onRequest?: (request: LoggedRequest) => void;

  constructor(
    readonly name: string,
    private readonly route: Route,
  ) {}

  async start(): Promise<string> {
    this.server = createServer((req, res) => void this.handle(req, res));
    this.server.keepAliveTimeout = 1000;
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.origin;
  }

  async close(): Promise<void> {
    for (const res of this.open) res.destroy();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** The next requests matching `match` meet these faults, one each, in order. */
  inject(match: (request: LoggedRequest) => boolean, ...faults: Fault[]): void {
    this.faults.push({ match, queue: [...faults] });
  }

  resetCounters(): void {
    this.log.length = 0;
    this.maxInFlight = this.inFlight;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    this.open.add(res);
    let counted = true;
    const done = () => {
      if (!counted) return;
      counted = false;
      this.inFlight--;
      this.open.delete(res);
    };
    res.on('close', done);
    res.on('finish', done);
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const entry: LoggedRequest = { method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, body, at: Date.now() };
    this.log.push(entry);
    this.onRequest?.(entry);
    if (this.latencyMs) await new Promise((resolve) => setTimeout(resolve, this.latencyMs));
    const fault = this.takeFault(entry);
    if (fault && 'drop' in fault) {
      entry.status = 0;
      req.socket.destroy();
      return;
    }
    if (fault && 'delayMs' in fault) {
      await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
      if (res.destroyed) return;
    }
    if (fault && 'status' in fault) {
      entry.status = fault.status;
      res.writeHead(fault.status, { 'content-type': 'text/html', ...(fault.retryAfter ? { 'retry-after': fault.retryAfter } : {}) });
      res.end(fault.body ?? `<html><body>${fault.status}</body></html>`);
      return;
    }
    const [path = '/', ...rest] = entry.url.split('?');
    const answer = this.route({ method: entry.method, path, query: rest.join('?'), headers: req.headers, body }) ?? { status: 404, body: '{"code":"rest_no_route","message":"No route was found matching the URL and request method.","data":{"status":404}}' };
    const conditional = answer.status === 200 && notModified(req.headers, answer.headers);
    entry.status = conditional ? 304 : answer.status;
    entry.responseBytes = conditional ? 0 : Buffer.byteLength(answer.body);
    if (conditional) {
      res.writeHead(304, pick(answer.headers ?? {}, ['etag', 'last-modified']));
      res.end();
      return;
    }
    res.writeHead(answer.status, { 'content-type': 'application/json; charset=UTF-8', ...answer.headers });
    res.end(answer.body);
  }

  private takeFault(entry: LoggedRequest): Fault | undefined {
    for (const rule of this.faults) {
      if (rule.queue.length && rule.match(entry)) return rule.queue.shift();
    }
    return undefined;
  }
}

/** The answer's validators match the request's: If-None-Match first, as HTTP says, then If-Modified-Since. */
function notModified(request: IncomingMessage['headers'], answer: Record<string, string> | undefined): boolean {
  const etag = answer?.etag;
  const inm = request['if-none-match'];
  if (inm !== undefined) return !!etag && inm.split(',').map((t) => t.trim()).includes(etag);
  const since = request['if-modified-since'];
  const modified = answer?.['last-modified'];
  return !!since && !!modified && Date.parse(modified) <= Date.parse(since);
}

const pick = (headers: Record<string, string>, names: string[]) => Object.fromEntries(Object.entries(headers).filter(([name]) => names.includes(name)));

/** Validators for a body: a strong ETag of its bytes, and the time it last changed. */
export function validatorsFor(body: string, lastModified: Date): Record<string, string> {
  return { etag: `"${createHash('sha1').update(body).digest('hex').slice(0, 20)}"`, 'last-modified': lastModified.toUTCString() };
}

export const json = (value: unknown, headers: Record<string, string> = {}): Answer => ({ status: 200, body: JSON.stringify(value), headers });
