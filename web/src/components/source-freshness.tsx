import { ago } from './transfer-sources.js';

/** What tn_course_institutions says about sources (the fields this note reads). */
export interface SourceListing {
  items: { sources: { source: string; lastIngestedAt: string }[] }[];
  sourceFreshness?: { source: string; feeds: string[]; verifiedAt: string | null }[];
}

const LABELS: Record<string, string> = { bctransferguide: 'BC Transfer Guide', 'sfu-outlines': 'SFU Course Outlines' };

/**
 * One line saying how fresh the live sources are: "checked 3 hours ago" once a crawl has verified every
 * part of a source, otherwise when its data was last loaded from files.
 */
export function SourceFreshnessNote({ listing }: { listing?: SourceListing }) {
  if (!listing?.sourceFreshness?.length) return null;
  const phrases = listing.sourceFreshness.flatMap((source) => {
    const label = LABELS[source.source] ?? source.source;
    if (source.verifiedAt) return [`${label} checked ${ago(source.verifiedAt)}`];
    const loaded = listing.items.flatMap((i) => i.sources.filter((s) => source.feeds.includes(s.source)).map((s) => s.lastIngestedAt)).sort().at(-1);
    return loaded ? [`${label} loaded from files ${ago(loaded)}, not yet checked against the live site`] : [];
  });
  if (!phrases.length) return null;
  return (
    <p class="muted" role="note" aria-label="Data freshness">
      Data: {phrases.join('; ')}.
    </p>
  );
}
