import type { Equivalence } from '../../catalog/transfer-equivalence.js';
import { runIngestion, type IngestionRun, type PreparedBatch, type RunOptions } from '../../catalog/ingestion/ingestion-run.js';
import { stableHash, type OwnedItem, type UnlistedPolicy } from '../../catalog/ingestion/reconcile.js';
import type { Store } from '../../platform/store/dynamo-client.js';
import { catalogKeys, ENTITY } from '../../platform/store/keys.js';
import { logger } from '../../platform/observability.js';
import { awardedKeys } from '../award-forms.js';
import { normalisedText } from '../rule-identity.js';
import { parseBctgFile } from './bctg-adapters.js';
import { invalidateTransferIndex, refreshTransferIndexes, unindexedPairs } from '../transfer-index-store.js';
import type { TransferRule } from '../rule-model.js';

export const TRANSFER_SOURCE = 'bctransferguide';

/**
 * One idempotent run of BC Transfer Guide data (either format, detected from the content). Each rule
 * is stored once, and listed in the partition of every course it concerns (outgoing under each
 * source course, incoming under each specific target course), all owned per institution pair so a
 * file for one pair never retires another pair's rules.
 */
export async function ingestTransferRules(store: Store, origin: string, options: RunOptions = {}): Promise<IngestionRun> {
  const pairs = new Map<string, { sender: string; receiver: string }>();
  const run = await runIngestion(
    store,
    TRANSFER_SOURCE,
    origin,
    (text, context) => {
      const batch = prepareRules(text, context.ingestedAt);
      for (const rule of batch.rules) pairs.set(`${rule.senderInstitution}->${rule.receiverInstitution}`, { sender: rule.senderInstitution, receiver: rule.receiverInstitution });
      return batch;
    },
    options,
  );
  if (run.status === 'failed' || !pairs.size) return run;
  // The pairs this run changed, and any never indexed (data from before indexes existed), by sender:
  // a sender's indexes hold every receiver, so they are rebuilt together.
  const changed = run.counts.written + run.counts.retired > 0;
  const stale = changed ? [...pairs.values()] : await unindexedPairs(store, [...pairs.values()]);
  const receiversBySender = new Map<string, string[]>();
  for (const { sender, receiver } of stale) receiversBySender.set(sender, [...(receiversBySender.get(sender) ?? []), receiver]);
  for (const [sender, receivers] of receiversBySender) {
    // Readers of these pairs use the listings until the rebuild, which covers every receiver the manifest names.
    await invalidateTransferIndex(store, sender, receivers);
    const refresh = async () => {
      try {
        await refreshTransferIndexes(store, sender);
      } catch (error) {
        // Readers fall back to the course listings for a pair without a complete index.
        logger.warn('transfer index refresh failed', { origin, error: error instanceof Error ? error.message : String(error) });
      }
    };
    if (options.deferred) options.deferred.set(`transfer-index:${sender}`, refresh);
    else await refresh();
  }
  return run;
}

function prepareRules(text: string, ingestedAt: string): PreparedBatch & { rules: TransferRule[] } {
  const parsed = parseBctgFile(text, ingestedAt);
  const institutions = new Map<string, { records: number; name?: string; sent: number }>();
  const items: OwnedItem[] = [];
  for (const rule of parsed.rules) {
    for (const id of [rule.senderInstitution, rule.receiverInstitution]) {
      const seen = institutions.get(id) ?? { records: 0, sent: 0 };
      const name = parsed.names?.get(id);
      // Which institutions send rules is what a student choosing "from" needs to know.
      institutions.set(id, { records: seen.records + 1, sent: seen.sent + (id === rule.senderInstitution ? 1 : 0), ...(name ? { name } : {}) });
    }
    items.push(...itemsOf(rule));
  }
  return { items, parsed: parsed.rules.length, rejected: parsed.rejected, institutions, settleUnlisted: snapshotPolicy(parsed.rules, ingestedAt), rules: parsed.rules };
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
    const equivalence = existing.equivalence as Equivalence | undefined;
    const span = rule ?? equivalence;
    if (!span) return 'retire';
    const refs = rule ? rule.sourceCourses.map((c) => `${c.institution}:${c.code}`) : equivalence!.sourceCourses;
    if ((span.effectiveEnd !== null && span.effectiveEnd < periodStart) || !refs.some((ref) => listedSubjects.has(subjectOf(ref)))) return 'keep';
    const [sender, receiver] = String(existing.GSI2PK).split('#').at(-1)!.split('->');
    const starts = startsBySet.get(setKey(sender!, receiver!, refs)) ?? [];
    // The file lists the same published wording for the same courses from the same day under another id: this one is an
    // older reading of that row (the parser changed what it makes of the wording), never a rule of its own.
    const reading = rule ? readingKey(rule) : (existing.readingKey as string | undefined);
    if (reading !== undefined && readings.has(`${setKey(sender!, receiver!, refs)}|${reading}`)) return 'retire';
    const successor = starts.filter((start) => start > span.effectiveStart).sort()[0];
    const end = dayBefore(successor ?? latestStart);
    if (end < span.effectiveStart) return 'retire';
    if (span.effectiveEnd !== null && span.effectiveEnd <= end) return 'keep';
    return rule ? { ...existing, rule: { ...rule, effectiveEnd: end } } : { ...existing, equivalence: { ...equivalence!, effectiveEnd: end } };
  };
}

const subjectOf = (ref: string) => ref.split(' ')[0]!;
/** A rule's published wording and start, whatever the parser makes of it. */
const readingKey = (rule: TransferRule) => `${rule.effectiveStart}|${normalisedText(rule.rawDetail)}|${normalisedText(rule.rawCondition)}`;
const setKey = (sender: string, receiver: string, refs: string[]) => `${sender}->${receiver}|${[...refs].sort().join('+')}`;

function dayBefore(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
}

function itemsOf(rule: TransferRule): OwnedItem[] {
  const scope = `${rule.senderInstitution}->${rule.receiverInstitution}`;
  const { ingestedAt: _ignored, ...provenance } = rule.provenance;
  const hash = stableHash({ ...rule, provenance });
  const firstSource = rule.sourceCourses[0]?.code ?? '';
  const items: OwnedItem[] = [
    {
      ...catalogKeys.transferRule(rule.ruleId),
      scope,
      hash,
      attributes: {
        entity: ENTITY.transferRule,
        ...catalogKeys.pairRule(rule.senderInstitution, rule.receiverInstitution, firstSource, rule.effectiveStart, rule.ruleId),
        rule,
      },
    },
  ];
  const listing = (institution: string, code: string, direction: 'outgoing' | 'incoming', other: string): OwnedItem => ({
    ...catalogKeys.courseTransfer(institution, code, direction, other, rule.ruleId),
    scope,
    // A sending course's listings share one pack across receivers (owned per sender, each row per pair).
    ...(direction === 'outgoing' ? { pack: { key: catalogKeys.outgoingListingPack(TRANSFER_SOURCE), scope: `${rule.senderInstitution}->*` } } : {}),
    hash,
    attributes: { entity: ENTITY.transferListing, ruleId: rule.ruleId, equivalence: equivalenceOf(rule, direction), readingKey: readingKey(rule) },
  });
  for (const source of rule.sourceCourses) items.push(listing(source.institution, source.code, 'outgoing', rule.receiverInstitution));
  // Reverse lookup: listed under every receiving course the rule can award, in any form (alternative, exemption, 0-credit,
  // under a condition, part of a bundle), and under each generic credit ("ASC 2XX"), whose partition is keyed like a course's.
  for (const key of awardedKeys(rule).keys()) items.push(listing(rule.receiverInstitution, key, 'incoming', rule.senderInstitution));
  return items;
}

/** The summary a course partition keeps of a rule (what tn_course_equivalent_elsewhere shows). */
function equivalenceOf(rule: TransferRule, direction: 'outgoing' | 'incoming'): Equivalence {
  return {
    ruleId: rule.ruleId,
    direction,
    otherInstitution: direction === 'outgoing' ? rule.receiverInstitution : rule.senderInstitution,
    sourceCourses: rule.sourceCourses.map((c) => `${c.institution}:${c.code}`),
    targets: rule.targets.map((t) => ({
      kind: t.kind,
      ...(t.code ? { ref: `${t.institution ?? rule.receiverInstitution}:${t.code}` } : {}),
      text: t.text,
      credits: t.credits,
    })),
    effectiveStart: rule.effectiveStart,
    effectiveEnd: rule.effectiveEnd,
    condition: rule.conditionText,
    evidence: rule.evidence,
  };
}

