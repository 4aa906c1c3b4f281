import { creditScaleOf } from '../../catalog/institutions.js';
import { isApplicabilityNote, limitsCredit } from './conditions.js';
import { conditionsOf } from '../resolve/outcomes.js';
import { statedCredits } from '../resolve/sending-credits.js';
import type { AlternativeTarget, TransferRule } from '../rule-model.js';

/**
 * Shapes of a parsed rule that signal a misreading of its wording, counted over every rule of a file
 * (the benchmark reports them beside the fully-parsed share; tests keep the leak classes at zero):
 * - targetElsewhere: something awarded at an institution other than the receiver (a trailing sentence
 *   about the sender's courses read as a target);
 * - droppedCodes: a course named in a sentence typed as a list of courses (preclusion, exclusivity,
 *   cap, exemption, prior credit, companion) that the typed list lacks ("A (3) or B (3)" keeping A);
 * - summedOutcomes: awards of different sentences (or joined by ";") added up as one award;
 * - limitingProseUntyped: prose that limits credit which no type covers (the plan then holds the
 *   rule as conditional on an `other` condition; counted so the share stays visible);
 * - implausible: a rule awarding over 1.5× what it takes in on BC's common scale, with the sending
 *   credits from the row or, for rows without them, from the sender's catalogue or its other rows.
 */
export interface ScanCounts {
  rules: number;
  targetElsewhere: number;
  droppedCodes: number;
  summedOutcomes: number;
  limitingProseUntyped: number;
  otherConditions: number;
  /** Implausible with the sending credits the row states. */
  implausibleStated: number;
  /** Implausible with sending credits the row does not state (the sender's catalogue, or its other rows). */
  implausibleUnstated: number;
  constraints: Record<string, number>;
  conditionalAwards: number;
  partialAwards: number;
}

export interface ScanResult {
  counts: ScanCounts;
  /** Up to five published texts per class, to look at. */
  examples: Record<string, string[]>;
}

const CODE = /\b(?:[A-Z]{2,5} )?([A-Z]{2,5})(?:_[A-Z])? (\d{3,4}[A-Z]?)\b((?:\s*(?:,|or|and|&|\/)\s*\d{3,4}[A-Z]?\b)*)/g;

/** Course codes a sentence names, bare numbers after a code taking its subject ("UVIC MATH 160B, 160"). */
function codesNamed(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(CODE)) {
    found.push(`${m[1]} ${m[2]}`);
    for (const bare of (m[3] ?? '').matchAll(/\d{3,4}[A-Z]?/g)) found.push(`${m[1]} ${bare[0]}`);
  }
  return [...new Set(found)];
}

const sentences = (text: string) => text.split(/(?<=[.;])\s+(?=[A-Z*])|;\s*/).map((s) => s.trim()).filter(Boolean);
const all = (rule: TransferRule): AlternativeTarget[] => [
  ...rule.targets,
  ...rule.targets.flatMap((t) => t.alternatives?.flat() ?? []),
  ...rule.alternativeAwards.flat(),
  ...(rule.conditionalAwards ?? []).flatMap((a) => a.targets),
  ...(rule.partialAwards ?? []).flatMap((p) => p.targets),
];

/** Sentences typed as lists of courses, each with the codes the typing kept. */
function typedLists(rule: TransferRule): { text: string; codes: Set<string> }[] {
  const lists = [
    // A rule's own award is never in its own preclusion list ("Precludes credit for … ASTR 1120" on a rule awarding it).
    ...(rule.constraints ?? []).map((c) => ({ text: c.text, codes: new Set([...c.courses, ...all(rule).map((t) => t.code ?? '')]) })),
    ...(rule.conditionalAwards ?? []).map((a) => ({ text: a.condition, codes: new Set([...a.targets.map((t) => t.code ?? ''), ...conditionsOf(rule).conditionalAwards.flatMap((c) => c.courses ?? [])]) })),
    ...conditionsOf(rule).rule.filter((c) => c.courses?.length).map((c) => ({ text: c.text, codes: new Set(c.courses) })),
  ];
  const exempted = new Set([...rule.exemptions, ...all(rule).filter((t) => t.kind === 'exemption').map((t) => t.code ?? '')]);
  for (const sentence of sentences(rule.conditionText ?? '')) {
    // "Waives A or B" names no exemption on purpose: which one is not stated.
    if (/^\*?(?:exempt|exemption|waive|waives)\b/i.test(sentence) && !/\bor\b/i.test(sentence)) lists.push({ text: sentence, codes: exempted });
  }
  return lists;
}

function sentCredits(rule: TransferRule, catalogue?: (institution: string, code: string) => number | undefined): { credits: number | null; fromCatalogue: boolean } {
  if (rule.sourceChoice) return { credits: null, fromCatalogue: false };
  let fromCatalogue = false;
  const values = rule.sourceCourses.map((c) => {
    if (c.credits !== null) return c.credits;
    const known = catalogue?.(c.institution, c.code);
    if (known) fromCatalogue = true;
    return known ?? null;
  });
  return { credits: values.some((v) => v === null) ? null : (values as number[]).reduce((a, b) => a + b, 0), fromCatalogue };
}

export function scanRules(rules: TransferRule[], catalogueOf?: (institution: string, code: string) => number | undefined): ScanResult {
  // The catalogue first; else what the sender's other rows of the file state (as tn_transfer_resolve does).
  const stated = new Map<string, Map<string, number>>();
  const catalogue = (institution: string, code: string) => {
    if (!stated.has(institution)) stated.set(institution, statedCredits(rules, institution));
    return catalogueOf?.(institution, code) ?? stated.get(institution)!.get(code);
  };
  const counts: ScanCounts = { rules: rules.length, targetElsewhere: 0, droppedCodes: 0, summedOutcomes: 0, limitingProseUntyped: 0, otherConditions: 0, implausibleStated: 0, implausibleUnstated: 0, constraints: {}, conditionalAwards: 0, partialAwards: 0 };
  const examples: Record<string, string[]> = {};
  const flag = (kind: keyof ScanCounts, rule: TransferRule) => {
    (counts[kind] as number)++;
    const list = (examples[kind] ??= []);
    const text = `${rule.senderInstitution}→${rule.receiverInstitution} ${rule.sourceCourses.map((c) => c.code).join('+')}: ${rule.rawDetail}${rule.rawCondition ? ` | ${rule.rawCondition}` : ''}`;
    if (list.length < 5 && !list.includes(text)) list.push(text);
  };
  for (const rule of rules) {
    const raw = `${rule.rawDetail}${rule.rawCondition ? `, ${rule.rawCondition}` : ''}`;
    if (all(rule).some((t) => t.institution !== undefined && t.institution !== rule.receiverInstitution)) flag('targetElsewhere', rule);
    if (typedLists(rule).some((list) => !isApplicabilityNote(list.text) && codesNamed(list.text).some((code) => !list.codes.has(code)))) flag('droppedCodes', rule);
    const texts = rule.targets.filter((t) => t.credits !== null).map((t) => t.text);
    const between = texts.slice(1).map((text, k) => raw.slice(raw.indexOf(texts[k]!) + texts[k]!.length, raw.indexOf(text)));
    if (between.some((gap) => /[;.]|\bif\b|\bwith\b/i.test(gap)) || rule.targets.filter((t) => t.note && /^(?:if|when|with)\b/i.test(t.note)).length && rule.targets.length > 1) flag('summedOutcomes', rule);
    if ((rule.untypedConditions ?? []).some(limitsCredit)) flag('limitingProseUntyped', rule);
    const conditions = conditionsOf(rule);
    if ([...conditions.rule, ...conditions.targets.values()].some((c) => c.type === 'other')) flag('otherConditions', rule);
    for (const constraint of rule.constraints ?? []) counts.constraints[constraint.type] = (counts.constraints[constraint.type] ?? 0) + 1;
    if (rule.conditionalAwards?.length) counts.conditionalAwards++;
    if (rule.partialAwards?.length) counts.partialAwards++;
    const sent = sentCredits(rule, catalogue);
    const awarded = rule.targets.some((t) => t.credits === null) ? null : rule.targets.reduce((s, t) => s + (t.credits ?? 0), 0);
    const scale = creditScaleOf(rule.receiverInstitution).factor / creditScaleOf(rule.senderInstitution).factor;
    if (sent.credits && awarded !== null && (awarded * scale) / sent.credits > 1.5) flag(sent.fromCatalogue ? 'implausibleUnstated' : 'implausibleStated', rule);
  }
  return { counts, examples };
}
