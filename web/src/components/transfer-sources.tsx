import { namesList, type Institution } from './institution-picker.js';

export interface SourceFreshness {
  source: string;
  verifiedAt: string | null;
  ageHours: number | null;
}

/** "3 hours ago", "2 days ago": how old a date is, in the words a student reads. */
export function ago(iso: string, now = Date.now()): string {
  const minutes = Math.max(0, Math.round((now - Date.parse(iso)) / 60_000));
  if (minutes < 60) return minutes <= 1 ? 'just now' : `${minutes} minutes ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} hour${hours === 1 ? '' : 's'} ago`;
  return `${Math.round(hours / 24)} days ago`;
}

/**
 * Which institutions Tutor Nexus can plan a transfer from (those it holds BC Transfer Guide rules for
 * as senders), named under the planner's fields, and how fresh the guide's data is. The planner has
 * already listed the institutions (its pickers offer them), so the note reads that list.
 */
export function TransferSources({ institutions, freshness }: { institutions: Institution[]; freshness?: SourceFreshness[] }) {
  const senders = institutions.filter((i) => i.sendsTransferRules).sort((a, b) => a.name.localeCompare(b.name));
  const guide = freshness?.find((s) => s.source === 'bctransferguide');
  const loaded = senders.flatMap((i) => (i.sources ?? []).filter((s) => s.source === 'bctransferguide').map((s) => s.lastIngestedAt)).sort().at(-1);
  return (
    <p id="transfer-data" class="muted" role="note" aria-label="Transfer data">
      {senders.length ? (
        <>
          Transfer rules from {senders.length} institution{senders.length === 1 ? '' : 's'}: {namesList(senders)}; plans can be made from {senders.length === 1 ? 'it' : 'these'}.{' '}
        </>
      ) : (
        'No transfer rules loaded yet. '
      )}
      {guide?.verifiedAt
        ? `BC Transfer Guide data checked ${ago(guide.verifiedAt)}.`
        : loaded
          ? `BC Transfer Guide data from files loaded ${ago(loaded)} (not yet checked against the live guide).`
          : ''}
    </p>
  );
}
