import { useTool } from '../use-tool.js';

interface Institution {
  id: string;
  name: string;
  bctgCode?: string;
  sendsTransferRules?: boolean;
  sources: { source: string; lastIngestedAt: string; lastVerifiedAt?: string }[];
}

interface SourceFreshness {
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

export const TRANSFER_SENDERS_LIST = 'transfer-senders';

/**
 * Which institutions Tutor Nexus can plan a transfer from (those it holds BC Transfer Guide rules for
 * as senders), offered as suggestions for the "From" field, and how fresh the guide's data is.
 */
export function TransferSources() {
  const listed = useTool<{ items: Institution[]; sourceFreshness?: SourceFreshness[] }>('tn_course_institutions', { limit: 100 });
  if (!listed.data) return null;
  const senders = listed.data.items.filter((i) => i.sendsTransferRules).sort((a, b) => a.name.localeCompare(b.name));
  const guide = listed.data.sourceFreshness?.find((s) => s.source === 'bctransferguide');
  const loaded = senders.flatMap((i) => i.sources.filter((s) => s.source === 'bctransferguide').map((s) => s.lastIngestedAt)).sort().at(-1);
  return (
    <>
      <datalist id={TRANSFER_SENDERS_LIST}>
        {senders.map((i) => (
          <option key={i.id} value={i.id}>
            {i.name}
          </option>
        ))}
      </datalist>
      <p class="muted" role="note" aria-label="Transfer data">
        {senders.length ? (
          <>
            Transfer rules from {senders.length} institution{senders.length === 1 ? '' : 's'}: {senders.map((i) => i.name).join(', ')}.{' '}
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
    </>
  );
}
