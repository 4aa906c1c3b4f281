import type { RunOptions, IngestionRun } from '../../catalog/ingestion/ingestion-run.js';
import type { PageCounts } from '../../catalog/ingestion/crawl-store.js';
import type { Store } from '../../platform/store/dynamo-client.js';
import type { PoliteClient } from './polite-client.js';

/**
 * What a crawler is to the crawl run (crawl-run.ts): the units of a source in a fixed order, grouped in
 * parts whose freshness is kept, and the context a unit works in.
 */

/** One piece of a crawl that is fetched and ingested whole (a subject's agreements, a department's outlines). */
interface CrawlUnit {
  kind: 'unit';
  /** Its place in the crawl's order; the checkpoint keeps the last one finished. */
  key: string[];
  /** The part it belongs to (a sending institution, a term): freshness is kept per part. */
  part: string;
  label: string;
  run: () => Promise<UnitResult>;
}

/** Every unit of a part was offered: the part is verified if none of them failed. */
interface PartDone {
  kind: 'part-done';
  key: string[];
  part: string;
}

export type CrawlStep = CrawlUnit | PartDone;

export interface UnitResult {
  /** Something was handed to ingestion (a page's content changed, or was never seen). */
  changed: boolean;
  /** Counts added to the part's tally (agreements, courses, sections…). */
  tally?: Record<string, number>;
}

/** What a crawler gets to do its work: the polite client, page counting, and ingestion of what it fetched. */
export interface CrawlContext {
  store: Store;
  client: PoliteClient;
  /** Counts one page as fetched, unchanged, failed or missing. */
  page(outcome: keyof PageCounts, count?: number): void;
  /** Hands fetched content to a source's ingestion (its adapter and run), as one run. */
  ingest(source: string, content: string, origin: string, options?: Pick<RunOptions, 'coverage' | 'coverageOfItems'>): Promise<IngestionRun>;
  /** Throws when the run must stop before starting more work (deadline, cut short). */
  checkContinue(): void;
}

export interface Crawler {
  /** The source whose partition keeps the crawl's state (bctransferguide, sfu-outlines). */
  source: string;
  /** Which crawl this is (`all`, `senders:LANG`, `terms:2026-fall`): each has its own checkpoint. */
  crawlKey: string;
  /** The units in crawl order, those at or before `position` left out (a resumed crawl starts after them). */
  steps(position: string[], context: CrawlContext): AsyncIterable<CrawlStep>;
  /** Freshness to record per institution when a part completes with changes (or for the first time). */
  institutionFreshness?(part: string, tally: Record<string, number>): { source: string; institution: string; records: number; sent?: number }[];
}

/** Text order as keys compare (code units, not locale): crawlers sort their units with it. */
export const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** `a` before `b` in crawl order: element by element, a prefix first. */
export function keyBefore(a: string[], b: string[]): boolean {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! < b[i]!;
  return a.length < b.length;
}

export const atOrBefore = (key: string[], position: string[]) => !keyBefore(position, key);
