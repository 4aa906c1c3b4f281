import { institutionId } from '../catalog/institutions.js';
import { termOrder, trimesterAt } from '../catalog/terms.js';
import { CRAWL_FEEDS, CRAWLED_SOURCES, readCrawlStates, type CrawledSource, type CrawlState } from '../catalog/ingestion/crawl-store.js';
import type { Store } from '../platform/store/dynamo-client.js';

/** How fresh one crawled source is, as the catalog tools show it. */
interface SourceFreshnessView {
  source: CrawledSource;
  /** The sources its records go to (the SFU crawl writes outlines and sections). */
  feeds: string[];
  /** Every part of the source still crawled (each sending institution, each term not yet over) was verified at least this recently. */
  verifiedAt: string | null;
  /** The most recent verification of any part. */
  newestVerifiedAt: string | null;
  /** When any part's records last changed. */
  changedAt: string | null;
  /** Hours since `verifiedAt`: the figure to compare with the crawl interval. */
  ageHours: number | null;
  parts: { part: string; verifiedAt: string; changedAt?: string; lastFailedAt?: string }[];
  lastRun?: { status: string; finishedAt: string; pages: { fetched: number; unchanged: number; failed: number; missing: number } };
}

/** Per institution and fed source: when a crawl last verified its data. */
type VerifiedBy = Map<string, Map<string, { verifiedAt: string; sent?: number }>>;

export interface CrawlFreshness {
  sources: SourceFreshnessView[];
  byInstitution: VerifiedBy;
}

/** The crawled sources' freshness, read in one request (one state item per crawled source). */
export async function readCrawlFreshness(store: Store, now: Date): Promise<CrawlFreshness> {
  const states = await readCrawlStates(store, CRAWLED_SOURCES);
  const sources = CRAWLED_SOURCES.map((source) => view(source, states.get(source)!, now));
  return { sources, byInstitution: byInstitution(states) };
}

function view(source: CrawledSource, state: CrawlState, now: Date): SourceFreshnessView {
  const parts = Object.entries(state.parts)
    .map(([part, p]) => ({ part, verifiedAt: p.verifiedAt, ...(p.changedAt ? { changedAt: p.changedAt } : {}), ...(p.lastFailedAt ? { lastFailedAt: p.lastFailedAt } : {}) }))
    .sort((a, b) => a.part.localeCompare(b.part));
  // A term that is over is no longer crawled (the default crawl takes the current term and later ones): its
  // last verification stays listed but does not make the source look stale, unless nothing else is known.
  const current = parts.filter((p) => !isPastTerm(p.part, now));
  const verified = (current.length ? current : parts).map((p) => p.verifiedAt).sort();
  const changed = parts.flatMap((p) => (p.changedAt ? [p.changedAt] : [])).sort();
  const oldest = verified[0] ?? null;
  return {
    source,
    feeds: [...CRAWL_FEEDS[source]],
    verifiedAt: oldest,
    newestVerifiedAt: verified.at(-1) ?? null,
    changedAt: changed.at(-1) ?? null,
    ageHours: oldest ? Math.round(((now.getTime() - Date.parse(oldest)) / 3_600_000) * 10) / 10 : null,
    parts,
    ...(state.lastRun ? { lastRun: { status: state.lastRun.status, finishedAt: state.lastRun.finishedAt, pages: state.lastRun.pages } } : {}),
  };
}

/** `term:2026-spring` once summer 2026 has begun. */
function isPastTerm(part: string, now: Date): boolean {
  return part.startsWith('term:') && termOrder(part.slice('term:'.length)) < termOrder(trimesterAt(now));
}

/** A sender part speaks for its institution's transfer rules; a term part for SFU's outlines and sections. */
function byInstitution(states: Map<string, CrawlState>): VerifiedBy {
  const result: VerifiedBy = new Map();
  const note = (institution: string, source: string, verifiedAt: string, sent?: number) => {
    const sources = result.get(institution) ?? result.set(institution, new Map()).get(institution)!;
    const known = sources.get(source);
    if (!known || known.verifiedAt < verifiedAt) sources.set(source, { verifiedAt, ...(sent !== undefined ? { sent } : {}) });
  };
  for (const [part, freshness] of Object.entries(states.get('bctransferguide')?.parts ?? {})) {
    if (part.startsWith('sender:')) note(institutionId(part.slice('sender:'.length)), 'bctransferguide', freshness.verifiedAt, freshness.counts.agreements);
  }
  for (const [part, freshness] of Object.entries(states.get('sfu-outlines')?.parts ?? {})) {
    if (!part.startsWith('term:')) continue;
    for (const source of CRAWL_FEEDS['sfu-outlines']) note('sfu', source, freshness.verifiedAt);
  }
  return result;
}
