import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';

export interface LoadedSource {
  /** Undefined when the server answered 304: nothing changed since the last run. */
  text?: string;
  notModified: boolean;
  etag?: string;
  lastModified?: string;
}

interface ValidatorState {
  etag?: string;
  lastModified?: string;
}

export interface LoadOptions {
  previous?: ValidatorState;
  timeoutMs?: number;
  retries?: number;
  /** Base delay of the exponential backoff between retries. */
  backoffMs?: number;
  fetchImpl?: typeof fetch;
}

export const originHash = (origin: string) => createHash('sha256').update(origin).digest('hex').slice(0, 16);

/** An origin fetched over HTTP (conditional GETs apply); anything else is a file path. */
export function isUrlOrigin(origin: string): boolean {
  return /^https?:\/\//i.test(origin);
}

/** A source is a file path or an http(s) URL; URLs get timeouts, retries with backoff and conditional GET. */
export async function loadSource(origin: string, options: LoadOptions = {}): Promise<LoadedSource> {
  if (!isUrlOrigin(origin)) return { text: await readFile(origin, 'utf8'), notModified: false };

  const retries = options.retries ?? 3;
  const fetchImpl = options.fetchImpl ?? fetch;
  let lastError: unknown;
  for (let attempt = 0; attempt <= retries; attempt++) {
    if (attempt > 0) await sleep((options.backoffMs ?? 500) * 2 ** (attempt - 1));
    try {
      const headers: Record<string, string> = { accept: 'application/json, text/csv, */*' };
      if (options.previous?.etag) headers['if-none-match'] = options.previous.etag;
      if (options.previous?.lastModified) headers['if-modified-since'] = options.previous.lastModified;
      const response = await fetchImpl(origin, { headers, signal: AbortSignal.timeout(options.timeoutMs ?? 30_000) });
      if (response.status === 304) return { notModified: true, ...options.previous };
      // Client errors will not get better by retrying; server errors and throttling might.
      if (response.status >= 400 && response.status < 500 && response.status !== 429) {
        throw new PermanentLoadError(`${origin} answered ${response.status}`);
      }
      if (!response.ok) throw new Error(`${origin} answered ${response.status}`);
      return {
        text: await response.text(),
        notModified: false,
        etag: response.headers.get('etag') ?? undefined,
        lastModified: response.headers.get('last-modified') ?? undefined,
      };
    } catch (error) {
      if (error instanceof PermanentLoadError) throw error;
      lastError = error;
    }
  }
  throw new Error(`Could not load ${origin} after ${retries + 1} attempts: ${lastError instanceof Error ? lastError.message : String(lastError)}`);
}

class PermanentLoadError extends Error {}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
