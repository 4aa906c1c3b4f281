import { SERVICE_VERSION } from '../../platform/config.js';
import { HostLimiter } from './host-limiter.js';

/** What a page answered last time: sent back so an unchanged page costs a 304. */
export interface Validators {
  etag?: string;
  lastModified?: string;
}

export interface PageRequest {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  validators?: Validators;
}

export interface PageResponse {
  url: string;
  status: number;
  /** The server answered 304 to our validators: `text` is empty, the page is as it was. */
  notModified: boolean;
  text: string;
  etag?: string;
  lastModified?: string;
  attempts: number;
}

/** Why a page could not be had: the server kept failing, or the run must stop (deadline, cut short). */
export class PageFailed extends Error {
  constructor(
    readonly url: string,
    message: string,
    readonly reason: 'gave-up' | 'deadline' | 'aborted',
    readonly status?: number,
  ) {
    super(message);
  }
}

export interface PoliteClientOptions {
  /** The only origins requests may go to (the sources' configured origins); anything else is refused. */
  allowedOrigins: string[];
  /** Requests in flight per host at most (the sites' politeness budget). @default 2 */
  maxInFlightPerHost?: number;
  /** One attempt's time limit, headers and body. @default 30 s */
  timeoutMs?: number;
  /** Attempts after the first on 429, 5xx, timeouts and network errors. @default 4 */
  retries?: number;
  /** First backoff; doubled each attempt (with jitter) up to maxBackoffMs. @default 1 s */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** A Retry-After longer than this fails the page now rather than holding the run. @default 5 min */
  maxRetryAfterMs?: number;
  userAgent?: string;
  /** Epoch ms after which no attempt starts and no wait begins (the run checkpoints and stops). */
  deadline?: number;
  /** Aborts every request in flight and every wait: the run was cut short. */
  signal?: AbortSignal;
  fetchImpl?: typeof fetch;
  /** Every attempt as it ends, for the run's request count and the logs. */
  onAttempt?: (attempt: { url: string; method: string; status?: number; error?: string; ms: number }) => void;
}

const RETRYABLE = (status: number) => status === 408 || status === 429 || status >= 500;
/** Statuses that mean "too much": every request to that host waits, not just this one. */
const SLOW_DOWN = (status: number) => status === 429 || status === 503;
const MAX_REDIRECTS = 5;

const DEFAULT_USER_AGENT = `TutorNexusCrawler/${SERVICE_VERSION} (course and transfer data for students; at most 2 requests at a time)`;

/**
 * The only way the crawlers reach the network: per host at most two requests in flight, retries with
 * exponential backoff and jitter on 429/5xx/timeouts/network errors, Retry-After honoured (and applied
 * to the whole host), conditional requests from stored validators, a cookie jar per origin (a site's
 * session rides along with its nonce), redirects followed only within the allowed origins.
 */
export class PoliteClient {
  private readonly limiters = new Map<string, HostLimiter>();
  private readonly cookies = new Map<string, Map<string, string>>();
  private readonly allowed: Set<string>;
  requests = 0;

  constructor(private readonly options: PoliteClientOptions) {
    this.allowed = new Set(options.allowedOrigins.map((origin) => new URL(origin).origin));
  }

  async request(request: PageRequest): Promise<PageResponse> {
    let url = this.checked(request.url);
    let method = request.method ?? 'GET';
    let body = request.body;
    for (let hop = 0; ; hop++) {
      const response = await this.withRetries({ ...request, url: url.href, method, body });
      if (response.status < 300 || response.status >= 400 || response.status === 304) return response;
      const location = response.location;
      if (!location || hop >= MAX_REDIRECTS) return response;
      url = this.checked(new URL(location, url).href);
      // 303 (and 301/302 after a POST, as browsers do) continues with a GET.
      if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === 'POST')) {
        method = 'GET';
        body = undefined;
      }
    }
  }

  private checked(raw: string): URL {
    const url = new URL(raw);
    if (!this.allowed.has(url.origin)) throw new PageFailed(raw, `refused: ${url.origin} is not a source origin`, 'gave-up');
    return url;
  }

  private limiter(origin: string): HostLimiter {
    let limiter = this.limiters.get(origin);
    if (!limiter) this.limiters.set(origin, (limiter = new HostLimiter(this.options.maxInFlightPerHost ?? 2)));
    return limiter;
  }

  private async withRetries(request: PageRequest & { method: string }): Promise<PageResponse & { location?: string }> {
    const retries = this.options.retries ?? 4;
    const origin = new URL(request.url).origin;
    let lastProblem = '';
    let lastStatus: number | undefined;
    for (let attempt = 1; attempt <= retries + 1; attempt++) {
      this.stopIfOver(request.url);
      const release = await this.limiter(origin).acquire();
      let wait: number | undefined;
      try {
        this.stopIfOver(request.url);
        const outcome = await this.attempt(request, origin);
        if ('response' in outcome) return { ...outcome.response, attempts: attempt };
        ({ wait } = outcome);
        lastProblem = outcome.problem;
        lastStatus = outcome.status;
      } finally {
        release();
      }
      if (attempt > retries) break;
      const delay = wait ?? this.backoff(attempt);
      if (wait !== undefined && wait > (this.options.maxRetryAfterMs ?? 300_000)) {
        throw new PageFailed(request.url, `${request.url}: ${lastProblem}; asked to wait ${Math.round(wait / 1000)} s, longer than the crawl waits`, 'gave-up', lastStatus);
      }
      if (this.options.deadline !== undefined && Date.now() + delay > this.options.deadline) {
        throw new PageFailed(request.url, `${request.url}: ${lastProblem}; the retry would run past this run's deadline`, 'deadline', lastStatus);
      }
      await this.sleep(delay);
    }
    throw new PageFailed(request.url, `${request.url}: ${lastProblem} after ${retries + 1} attempts`, 'gave-up', lastStatus);
  }

  /** One exchange with the server: a response to keep, or why it failed and how long the server asked us to wait. */
  private async attempt(
    request: PageRequest & { method: string },
    origin: string,
  ): Promise<{ response: Omit<PageResponse, 'attempts'> & { location?: string } } | { problem: string; status?: number; wait?: number }> {
    const headers: Record<string, string> = { 'user-agent': this.options.userAgent ?? DEFAULT_USER_AGENT, accept: 'application/json, text/html;q=0.9, */*;q=0.5', ...request.headers };
    if (request.validators?.etag) headers['if-none-match'] = request.validators.etag;
    if (request.validators?.lastModified) headers['if-modified-since'] = request.validators.lastModified;
    const jar = this.cookies.get(origin);
    if (jar?.size) headers.cookie = [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
    const timeout = AbortSignal.timeout(this.options.timeoutMs ?? 30_000);
    const signal = this.options.signal ? AbortSignal.any([timeout, this.options.signal]) : timeout;
    const started = Date.now();
    this.requests++;
    try {
      const response = await (this.options.fetchImpl ?? fetch)(request.url, { method: request.method, headers, body: request.body, signal, redirect: 'manual' });
      this.keepCookies(origin, response.headers);
      // The body is read under the same time limit: a page that stalls halfway is a timeout too.
      const text = response.status === 304 ? '' : await response.text();
      this.options.onAttempt?.({ url: request.url, method: request.method, status: response.status, ms: Date.now() - started });
      if (RETRYABLE(response.status)) {
        const wait = retryAfterMs(response.headers.get('retry-after'));
        if (SLOW_DOWN(response.status)) this.limiter(origin).pauseUntil(Date.now() + (wait ?? this.backoff(1)));
        return { problem: `answered ${response.status}`, status: response.status, wait };
      }
      return {
        response: {
          url: request.url,
          status: response.status,
          notModified: response.status === 304,
          text,
          etag: response.headers.get('etag') ?? undefined,
          lastModified: response.headers.get('last-modified') ?? undefined,
          location: response.headers.get('location') ?? undefined,
        },
      };
    } catch (error) {
      if (this.options.signal?.aborted) throw new PageFailed(request.url, `${request.url}: the crawl was stopped`, 'aborted');
      const problem = timeout.aborted ? `no complete answer within ${this.options.timeoutMs ?? 30_000} ms` : describeNetworkError(error);
      this.options.onAttempt?.({ url: request.url, method: request.method, error: problem, ms: Date.now() - started });
      return { problem };
    }
  }

  private stopIfOver(url: string): void {
    if (this.options.signal?.aborted) throw new PageFailed(url, `${url}: the crawl was stopped`, 'aborted');
    if (this.options.deadline !== undefined && Date.now() >= this.options.deadline) throw new PageFailed(url, `${url}: this run's deadline has passed`, 'deadline');
  }

  private backoff(attempt: number): number {
    const base = Math.min(this.options.maxBackoffMs ?? 60_000, (this.options.backoffMs ?? 1000) * 2 ** (attempt - 1));
    // Half fixed, half random: retries from several crawls never line up on the same instant.
    return Math.round(base / 2 + Math.random() * (base / 2));
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const signal = this.options.signal;
      const onAbort = () => {
        clearTimeout(timer);
        reject(new PageFailed('', 'the crawl was stopped', 'aborted'));
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  private keepCookies(origin: string, headers: Headers): void {
    for (const line of headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const at = pair.indexOf('=');
      if (at <= 0) continue;
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      const jar = this.cookies.get(origin) ?? this.cookies.set(origin, new Map()).get(origin)!;
      const expired = attributes.some((a) => /^\s*max-age\s*=\s*(0|-\d+)\s*$/i.test(a)) || attributes.some((a) => /^\s*expires\s*=/i.test(a) && Date.parse(a.split('=').slice(1).join('=')) < Date.now());
      if (expired) jar.delete(name);
      else jar.set(name, value);
    }
  }
}

/** Retry-After as delay-seconds or an HTTP date, in ms from now; undefined when absent or unreadable. */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (!value?.trim()) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

function describeNetworkError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}
