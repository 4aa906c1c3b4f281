import { listInstitutions, type InstitutionEntry } from '../catalog/institution-registry.js';
import { findInstitution, INSTITUTIONS, nameKey } from '../catalog/institutions.js';
import { DomainError } from '../platform/domain-error.js';
import type { Store } from '../platform/store/dynamo-client.js';
import { TRANSFER_SOURCE } from './transfer-source.js';

const describe = (i: { id: string; name: string; bctgCode?: string }) => `${i.id} (${i.name}${i.bctgCode ? `, ${i.bctgCode}` : ''})`;

/**
 * An institution as people type it: slug, BC Transfer Guide code, alias or full name ("Langara
 * College", "UBC Vancouver", "LANG"), or one the data named that Tutor Nexus has no entry for. An
 * unknown one is NOT_FOUND naming the institutions it knows, never a slug that silently matches nothing.
 */
export async function institutionInput(store: Store, input: string, field: string): Promise<string> {
  const known = findInstitution(input);
  if (known) return known.id;
  const stored = await listInstitutions(store);
  const key = nameKey(input);
  const fromData = stored.find((i) => [i.id, i.bctgCode ?? '', i.name].some((alias) => alias && nameKey(alias) === key));
  if (fromData) return fromData.id;
  const all = new Map<string, { id: string; name: string; bctgCode?: string }>([...INSTITUTIONS, ...stored].map((i) => [i.id, i]));
  throw new DomainError(
    'not-found',
    `No institution "${input}" (${field}). Known institutions: ${[...all.values()].sort((a, b) => a.id.localeCompare(b.id)).map(describe).join('; ')}.`,
    { fields: [{ field, message: 'unknown institution' }], hints: ['Use a slug, a BC Transfer Guide code or the full name, e.g. "langara", "LANG" or "Langara College".'] },
  );
}

const nameOf = (id: string, stored: InstitutionEntry[]) => findInstitution(id)?.name ?? stored.find((i) => i.id === id)?.name ?? id;

/**
 * Why no rule was found, when the reason is that none is loaded: the sender sends nothing (today only
 * some institutions' rules are ingested), or nothing towards this receiver. NOT_FOUND naming what is
 * loaded; undefined when rules are loaded and these courses simply have none.
 */
export async function explainNoRules(store: Store, sender: string, receiver?: string): Promise<DomainError | undefined> {
  const stored = await listInstitutions(store);
  const senders = transferSenders(stored);
  const loaded = senders.find((s) => s.sender === sender);
  if (!loaded) {
    const list = senders.map((s) => `${s.sender} (${nameOf(s.sender, stored)})`).join(', ') || 'none';
    return DomainError.notFound(`No transfer rules are loaded for ${nameOf(sender, stored)} as a sending institution. Senders with rules: ${list}.`, [
      'Ask with one of the senders that have rules, or ingest a BC Transfer Guide file for this one.',
    ]);
  }
  if (receiver !== undefined && !loaded.receivers.includes(receiver)) {
    return DomainError.notFound(
      `No transfer rules from ${nameOf(sender, stored)} to ${nameOf(receiver, stored)} are loaded. ${nameOf(sender, stored)} has rules towards: ${loaded.receivers.join(', ')}.`,
      ['tn_transfer_compare shows every receiver with rules for these courses.'],
    );
  }
  return undefined;
}

/** Which institutions send rules, and towards which receivers, as the transfer ingestion recorded them. */
function transferSenders(stored: InstitutionEntry[]): { sender: string; receivers: string[] }[] {
  return stored
    .map((i) => ({ sender: i.id, receivers: i.sources.find((s) => s.source === TRANSFER_SOURCE)?.receivers ?? [] }))
    .filter((entry) => entry.receivers.length)
    .sort((a, b) => a.sender.localeCompare(b.sender));
}
