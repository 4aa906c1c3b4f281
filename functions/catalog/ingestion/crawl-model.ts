/**
 * What a crawl keeps and reports (crawl-store.ts stores it): counts of pages and units, the checkpoint
 * of a crawl, the freshness of each part, what each page answered last time, and a run record.
 */

/** What became of the pages a run asked for; disjoint, so they add up to the pages it asked for. */
export interface PageCounts {
  /** Downloaded with content that is new or changed since the last crawl. */
  fetched: number;
  /** 304 to our validators, or the same content as last time. */
  unchanged: number;
  /** No usable answer after the retries (5xx, 429, timeouts, unreadable bodies). */
  failed: number;
  /** Listed by a parent page but answered 404 (skipped, as the site itself does). */
  missing: number;
}

export interface CrawlTotals {
  pages: PageCounts;
  /** HTTP requests sent, retries and nonce pages included. */
  requests: number;
  units: { changed: number; unchanged: number; failed: number };
  ingestion: { written: number; retired: number; rejected: number };
}

/** Where one crawl is: the last unit it finished (a crawl resumes after it), and what it found so far. */
export interface CrawlCheckpoint {
  crawlId: string;
  status: 'running' | 'complete';
  startedAt: string;
  updatedAt: string;
  completedAt?: string;
  /** When the previous crawl with this key completed: how fresh the source is while this one runs. */
  lastCompletedAt?: string;
  /** The key of the last unit finished, e.g. `["LANG", "CPSC"]` or `["2026-fall", "CMPT"]`; [] at the start. */
  position: string[];
  totals: CrawlTotals;
  /** Counts the crawler keeps for the part in progress (a sender, a term), carried across runs. */
  tally: { part: string; counts: Record<string, number>; changed: boolean; failedUnits: number };
}

/** How fresh one part of a source is (a sending institution, a term). */
export interface PartFreshness {
  /** When a crawl last read every page of the part without a failure. */
  verifiedAt: string;
  /** When the part's records last changed. */
  changedAt?: string;
  /** Counts of the last complete crawl of the part (agreements, courses, sections…). */
  counts: Record<string, number>;
  crawlId: string;
  /** A later crawl that failed on some of the part's pages: the part keeps its last verification. */
  lastFailedAt?: string;
}

export interface CrawlState {
  leaseOwner?: string;
  leaseUntil?: number;
  crawls: Record<string, CrawlCheckpoint>;
  parts: Record<string, PartFreshness>;
  /** What the source's last crawl run did, whichever crawl it was. */
  lastRun?: CrawlRunSummary;
}

export interface CrawlRunSummary {
  runId: string;
  crawlKey: string;
  status: CrawlRunRecord['status'];
  finishedAt: string;
  pages: PageCounts;
}

/** One page's answer as kept: its validators, a hash of its content, and for lists the content itself. */
export interface PageMemory {
  etag?: string;
  lastModified?: string;
  hash: string;
  /** What a 304 stands for, kept for pages the crawl needs to read again (lists, records of a part). */
  data?: unknown;
}

export type PageMemories = Record<string, PageMemory>;

export interface CrawlRunRecord {
  runId: string;
  source: string;
  crawlKey: string;
  crawlId: string;
  /** complete: the crawl finished; paused: stopped at its deadline or when cut short, to resume; failed: too many failures in a row, or a list the crawl needs could not be read; busy: another crawl held the source. */
  status: 'complete' | 'paused' | 'failed' | 'busy' | 'fresh';
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  /** This run's counts (a crawl's first run and its resumptions each count their own). */
  run: CrawlTotals;
  /** The crawl's counts so far, every run of it included. */
  crawl: CrawlTotals;
  position: string[];
  errors: string[];
  catalogChanged: boolean;
}

export function emptyTotals(): CrawlTotals {
  return { pages: { fetched: 0, unchanged: 0, failed: 0, missing: 0 }, requests: 0, units: { changed: 0, unchanged: 0, failed: 0 }, ingestion: { written: 0, retired: 0, rejected: 0 } };
}

/** The sources crawled from their live sites, and the sources each crawl's records go to. */
export const CRAWL_FEEDS = {
  bctransferguide: ['bctransferguide'],
  'sfu-outlines': ['sfu-outlines', 'sfu-sections'],
} as const satisfies Record<string, readonly string[]>;

export type CrawledSource = keyof typeof CRAWL_FEEDS;
export const CRAWLED_SOURCES = Object.keys(CRAWL_FEEDS) as CrawledSource[];
