import { runIngestion, type IngestionRun, type PreparedBatch, type RunOptions } from '../../catalog/ingestion/ingestion-run.js';
import { stableHash, type OwnedRow, type UnlistedPolicy } from '../../catalog/ingestion/reconcile.js';
import type { Store } from '../../platform/store/dynamo-client.js';
import { catalogKeys, ENTITY } from '../../platform/store/keys.js';
import { awardedKeys } from '../award-forms.js';
import { normalisedText } from '../rule-identity.js';
import { parseBctgFile } from './bctg-adapters.js';
import type { TransferRule } from '../rule-model.js';
import { TRANSFER_SOURCE } from '../transfer-source.js';

export { TRANSFER_SOURCE };

/**
 * One idempotent run of BC Transfer Guide data (either format, detected from the content). Each rule
 * is stored by id (its details, its pair's listing) and in the partition of every course it concerns:
 * in each sending course's rules towards every receiver (the transfer index a resolve reads by key) and
 * in each receiving course's rules from its sender (reverse lookup). All of it is written by the run
 * itself and owned per institution pair, so a file for one pair never retires another pair's rules.
 */
export async function ingestTransferRules(store: Store, origin: string, options: RunOptions = {}): Promise<IngestionRun> {
  return runIngestion(store, TRANSFER_SOURCE, origin, (text, context) => prepareRules(text, context.ingestedAt), options);
}

function prepareRules(text: string, ingestedAt: string): PreparedBatch {
  const parsed = parseBctgFile(text, ingestedAt);
  const institutions = new Map<string, { records: number; name?: string; sent: number; receivers: string[] }>();
  const items: OwnedRow[] = [];
  for (const rule of parsed.rules) {
    for (const id of [rule.senderInstitution, rule.receiverInstitution]) {
      const seen = institutions.get(id) ?? { records: 0, sent: 0, receivers: [] as string[] };
      const name = parsed.names?.get(id);
      // Which institutions send rules, and towards whom, is what a student choosing "from" needs to know.
      const receivers = id === rule.senderInstitution && !seen.receivers.includes(rule.receiverInstitution) ? [...seen.receivers, rule.receiverInstitution] : seen.receivers;
      institutions.set(id, { records: seen.records + 1, sent: seen.sent + (id === rule.senderInstitution ? 1 : 0), receivers, ...(name ? { name } : {}) });
    }
    items.push(...itemsOf(rule));
  }
  return { items, parsed: parsed.rules.length, rejected: parsed.rejected, institutions, settleUnlisted: snapshotPolicy(parsed.rules, ingestedAt) };
}

/**
 * A BCTG file is a snapshot, and speaks only for what it covers: the sending subjects it lists (a
 * capture that missed a subject says nothing about it), from the earliest end date among its rules
 * (a PDF export with history reaches back to 1999; an export of active agreements only to the first
 * that has just ended), up to the latest start it knows of. A stored rule of its pairs that it no
 * longer lists becomes history, never erased: outside what the file covers, it is kept as it is; one
 * whose published wording, courses and start the file lists under another id is an older reading of
 * that row (a parser change) and retires;
 * followed by a rule for the same courses that starts later, it ends the day before (superseded);
 * otherwise the guide dropped it, and it ends the day before the snapshot's latest start (retired
 * only if that is before it began).
 */
function snapshotPolicy(rules: TransferRule[], ingestedAt: string): UnlistedPolicy {
  const ends = rules.map((rule) => rule.effectiveEnd).filter((end): end is string => end !== null).sort();
  const periodStart = ends[0] ?? ingestedAt.slice(0, 10);
  const latestStart = rules.map((rule) => rule.effectiveStart).sort().at(-1) ?? ingestedAt.slice(0, 10);
  const startsBySet = new Map<string, string[]>();
  const listedSubjects = new Set(rules.flatMap((rule) => rule.sourceCourses.map((c) => subjectOf(`${c.institution}:${c.code}`))));
  const readings = new Set<string>();
  for (const rule of rules) {
    const key = setKey(rule.senderInstitution, rule.receiverInstitution, rule.sourceCourses.map((c) => `${c.institution}:${c.code}`));
    startsBySet.set(key, [...(startsBySet.get(key) ?? []), rule.effectiveStart]);
    readings.add(`${key}|${readingKey(rule)}`);
  }
  return (existing) => {
    const rule = existing.rule as TransferRule | undefined;
    if (!rule) return 'retire';
    const refs = rule.sourceCourses.map((c) => `${c.institution}:${c.code}`);
    if ((rule.effectiveEnd !== null && rule.effectiveEnd < periodStart) || !refs.some((ref) => listedSubjects.has(subjectOf(ref)))) return 'keep';
    const pair = setKey(rule.senderInstitution, rule.receiverInstitution, refs);
    // The file lists the same published wording for the same courses from the same day under another id: this one is an
    // older reading of that row (the parser changed what it makes of the wording), never a rule of its own.
    if (readings.has(`${pair}|${readingKey(rule)}`)) return 'retire';
    const successor = (startsBySet.get(pair) ?? []).filter((start) => start > rule.effectiveStart).sort()[0];
    const end = dayBefore(successor ?? latestStart);
    if (end < rule.effectiveStart) return 'retire';
    if (rule.effectiveEnd !== null && rule.effectiveEnd <= end) return 'keep';
    return { ...existing, rule: { ...rule, effectiveEnd: end } };
  };
}

const subjectOf = (ref: string) => ref.split(' ')[0]!;
/** A rule's published wording and start, whatever the parser makes of it. */
const readingKey = (rule: TransferRule) => `${rule.effectiveStart}|${normalisedText(rule.rawDetail)}|${normalisedText(rule.rawCondition)}`;
const setKey = (sender: string, receiver: string, refs: string[]) => `${sender}->${receiver}|${[...refs].sort().join('+')}`;

function dayBefore(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
}

function itemsOf(rule: TransferRule): OwnedRow[] {
  const sender = rule.senderInstitution;
  const receiver = rule.receiverInstitution;
  const scope = `${sender}->${receiver}`;
  const { ingestedAt: _ignored, ...provenance } = rule.provenance;
  const hash = stableHash({ ...rule, provenance });
  const row = (aggregate: OwnedRow['aggregate'], id: string): OwnedRow => ({ aggregate, id, scope, hash, attributes: { rule } });
  const firstSource = rule.sourceCourses[0]?.code ?? '';
  const rows: OwnedRow[] = [
    row({ ...catalogKeys.transferRule(rule.ruleId), entity: ENTITY.transferRule, ownerScope: scope, listing: catalogKeys.pairRule(sender, receiver, firstSource, rule.effectiveStart, rule.ruleId) }, 'rule'),
  ];
  // Under each sending course, with its rules towards every receiver: one item a resolve reads by key, owned per sender.
  for (const source of new Map(rule.sourceCourses.map((c) => [`${c.institution}:${c.code}`, c])).values()) {
    rows.push(row({ ...catalogKeys.courseTransfersOut(source.institution, source.code, TRANSFER_SOURCE), entity: ENTITY.courseTransfers, ownerScope: `${sender}->*` }, rule.ruleId));
  }
  // Reverse lookup: under every receiving course the rule can award, in any form (alternative, exemption, 0-credit,
  // under a condition, part of a bundle), and under each generic credit ("ASC 2XX"), whose partition is keyed like a course's.
  for (const key of awardedKeys(rule).keys()) {
    rows.push(row({ ...catalogKeys.courseTransfersIn(receiver, key, sender, TRANSFER_SOURCE), entity: ENTITY.courseTransfers, ownerScope: scope }, rule.ruleId));
  }
  return rows;
}
