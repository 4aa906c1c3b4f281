import type { CrawledSource } from '../../catalog/ingestion/crawl-store.js';
import type { Store } from '../../platform/store/dynamo-client.js';
import { TRANSFER_SOURCE } from '../../transfer/ingest/transfer-ingest.js';
import { bctgCrawler } from './bctg-crawler.js';
import { BctgSite, type BctgOrigins } from './bctg-site.js';
import type { Crawler } from './crawler.js';
import { PoliteClient, type PoliteClientOptions } from './polite-client.js';
import { SfuOutlinesApi } from './sfu-outlines-api.js';
import { SFU_CRAWL_SOURCE, sfuOutlinesCrawler } from './sfu-outlines-crawler.js';

/** The sources a crawl can refresh from their live sites (their names as the crawl store knows them). */
export const CRAWLABLE_SOURCES = [TRANSFER_SOURCE, SFU_CRAWL_SOURCE] as const satisfies readonly CrawledSource[];
export type CrawlableSource = (typeof CRAWLABLE_SOURCES)[number];

export const isCrawlable = (source: string): source is CrawlableSource => (CRAWLABLE_SOURCES as readonly string[]).includes(source);

export interface CrawlOrigins {
  bctg: BctgOrigins;
  sfuOutlines: string;
}

/** Where each source lives; tests (and mirrors) point them elsewhere. */
const DEFAULT_ORIGINS: CrawlOrigins = {
  bctg: { www: 'https://www.bctransferguide.ca', ws: 'https://ws.bctransferguide.ca', api: 'https://api.bctransferguide.ca' },
  sfuOutlines: 'https://www.sfu.ca',
};

type Env = Record<string, string | undefined>;

/** A crawl setting in the environment that cannot be used (named, with what it should look like). */
export class CrawlSettingError extends Error {}

function origin(env: Env, name: string, fallback: string): string {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new CrawlSettingError(`${name} must be an http(s) origin such as ${fallback}, got "${raw}"`);
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password || (url.pathname !== '/' && url.pathname !== '')) {
    throw new CrawlSettingError(`${name} must be an http(s) origin such as ${fallback} (no path, no credentials), got "${raw}"`);
  }
  return url.origin;
}

/** The variable that moves each origin of a source (tests replay the sites on 127.0.0.1), with the real site. */
export const ORIGIN_VARIABLES = {
  [TRANSFER_SOURCE]: { TN_BCTG_ORIGIN: DEFAULT_ORIGINS.bctg.www, TN_BCTG_WS_ORIGIN: DEFAULT_ORIGINS.bctg.ws, TN_BCTG_API_ORIGIN: DEFAULT_ORIGINS.bctg.api },
  [SFU_CRAWL_SOURCE]: { TN_SFU_OUTLINES_ORIGIN: DEFAULT_ORIGINS.sfuOutlines },
} as const satisfies Record<CrawlableSource, Record<string, string>>;

/** TN_BCTG_ORIGIN, TN_BCTG_WS_ORIGIN, TN_BCTG_API_ORIGIN and TN_SFU_OUTLINES_ORIGIN, each defaulting to the real site. */
export function crawlOrigins(env: Env = process.env): CrawlOrigins {
  const bctg = ORIGIN_VARIABLES[TRANSFER_SOURCE];
  return {
    bctg: {
      www: origin(env, 'TN_BCTG_ORIGIN', bctg.TN_BCTG_ORIGIN),
      ws: origin(env, 'TN_BCTG_WS_ORIGIN', bctg.TN_BCTG_WS_ORIGIN),
      api: origin(env, 'TN_BCTG_API_ORIGIN', bctg.TN_BCTG_API_ORIGIN),
    },
    sfuOutlines: origin(env, 'TN_SFU_OUTLINES_ORIGIN', ORIGIN_VARIABLES[SFU_CRAWL_SOURCE].TN_SFU_OUTLINES_ORIGIN),
  };
}

/** The origins a crawl of each source may reach: its client's allow-list, every other origin refused. */
function allowedOrigins(origins: CrawlOrigins = DEFAULT_ORIGINS): Record<CrawlableSource, string[]> {
  return {
    [TRANSFER_SOURCE]: [origins.bctg.www, origins.bctg.ws, origins.bctg.api],
    [SFU_CRAWL_SOURCE]: [origins.sfuOutlines],
  };
}

function positiveMs(env: Env, name: string): number | undefined {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new CrawlSettingError(`${name} must be a positive integer (milliseconds), got "${raw}"`);
  return value;
}

export interface CrawlRequest {
  source: CrawlableSource;
  /** BC Transfer Guide: sending institutions to crawl (codes, slugs or names); all it lists when empty. */
  senders?: string[];
  /** SFU: canonical terms (`2026-fall`); the current term and later ones when empty. */
  terms?: string[];
}

export interface CrawlEnvironment {
  origins: CrawlOrigins;
  client: Pick<PoliteClientOptions, 'timeoutMs' | 'backoffMs' | 'userAgent'>;
}

/**
 * The crawl settings of the environment: origins, and the time limit, first backoff and User-Agent of
 * requests (TN_CRAWL_TIMEOUT_MS, TN_CRAWL_BACKOFF_MS, TN_CRAWL_USER_AGENT). Throws CrawlSettingError
 * naming the variable that cannot be used, before anything starts.
 */
export function crawlEnvironment(env: Env = process.env): CrawlEnvironment {
  return {
    origins: crawlOrigins(env),
    client: { timeoutMs: positiveMs(env, 'TN_CRAWL_TIMEOUT_MS'), backoffMs: positiveMs(env, 'TN_CRAWL_BACKOFF_MS'), userAgent: env.TN_CRAWL_USER_AGENT?.trim() || undefined },
  };
}

/** The crawler and its polite client for one source, as the environment sets them. */
export function createCrawler(
  store: Store,
  request: CrawlRequest,
  env: Env = process.env,
  client: Omit<PoliteClientOptions, 'allowedOrigins'> = {},
): { crawler: Crawler; client: PoliteClient } {
  const settings = crawlEnvironment(env);
  const origins = settings.origins;
  const polite = new PoliteClient({ ...settings.client, ...client, allowedOrigins: allowedOrigins(origins)[request.source] });
  const crawler =
    request.source === TRANSFER_SOURCE
      ? bctgCrawler(store, new BctgSite(polite, origins.bctg), { senders: request.senders, searchOrigin: origins.bctg.www })
      : sfuOutlinesCrawler(store, new SfuOutlinesApi(polite, origins.sfuOutlines), { terms: request.terms });
  return { crawler, client: polite };
}
