import type { Equivalence } from '../course/transfer-equivalence.js';
import { runIngestion, type IngestionRun, type PreparedBatch, type RunOptions } from '../ingest/ingestion-run.js';
import { stableHash, type OwnedItem } from '../ingest/reconcile.js';
import type { Store } from '../shared/store/dynamo-client.js';
import { catalogKeys, ENTITY } from '../shared/store/keys.js';
import { parseBctgFile } from './bctg-adapters.js';
import type { TransferRule } from './rule-model.js';

export const TRANSFER_SOURCE = 'bctransferguide';

/**
 * One idempotent run of BC Transfer Guide data (either format, detected from the content). Each rule
 * is stored once, and listed in the partition of every course it concerns (outgoing under each
 * source course, incoming under each specific target course), all owned per institution pair so a
 * file for one pair never retires another pair's rules.
 */
export function ingestTransferRules(store: Store, origin: string, options: RunOptions = {}): Promise<IngestionRun> {
  return runIngestion(store, TRANSFER_SOURCE, origin, (text, context) => prepareRules(text, context.ingestedAt), options);
}

function prepareRules(text: string, ingestedAt: string): PreparedBatch {
  const parsed = parseBctgFile(text, ingestedAt);
  const institutions = new Map<string, { records: number; name?: string }>();
  const items: OwnedItem[] = [];
  for (const rule of parsed.rules) {
    for (const id of [rule.senderInstitution, rule.receiverInstitution]) {
      institutions.set(id, { records: (institutions.get(id)?.records ?? 0) + 1 });
    }
    items.push(...itemsOf(rule));
  }
  return { items, parsed: parsed.rules.length, rejected: parsed.rejected, institutions };
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
        GSI1PK: catalogKeys.transferPair(rule.senderInstitution, rule.receiverInstitution),
        GSI1SK: `${firstSource}#${rule.effectiveStart}#${rule.ruleId}`,
        rule,
      },
    },
  ];
  const listing = (institution: string, code: string, direction: 'outgoing' | 'incoming', other: string): OwnedItem => ({
    ...catalogKeys.courseTransfer(institution, code, direction, other, rule.ruleId),
    scope,
    hash,
    attributes: { entity: ENTITY.transferListing, ruleId: rule.ruleId, equivalence: equivalenceOf(rule, direction) },
  });
  for (const source of rule.sourceCourses) items.push(listing(source.institution, source.code, 'outgoing', rule.receiverInstitution));
  const targetCodes = new Set(rule.targets.filter((t) => t.kind === 'course' && t.code).map((t) => t.code!));
  for (const code of targetCodes) items.push(listing(rule.receiverInstitution, code, 'incoming', rule.senderInstitution));
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

