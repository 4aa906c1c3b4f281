import type { ConditionStatus, StudentFacts, TransferCondition } from '../rule-text/conditions.js';
import { evaluateCondition, wouldHoldIf } from './condition-status.js';
import { creditScaleOf } from '../../catalog/institutions.js';
import { conditionsOf, ruleOutcomes, targetChoices, type Outcome } from './outcomes.js';
import { planOf, type Plan } from './plan-options.js';
import { targetSignature } from '../rule-identity.js';
import { currentReading } from '../rule-text/rule-reread.js';
import type { TransferRule } from '../rule-model.js';
import { dateFor, inForce, sendingSide } from './rule-span.js';

export { inForce } from './rule-span.js';

interface EvaluatedCondition extends TransferCondition {
  status: ConditionStatus;
  wouldHoldIf: string;
}

interface EvaluatedOutcome {
  outcome: Outcome;
  status: ConditionStatus;
  /** Whether the given courses are enough for it (a partial award needs `count` of the bundle). */
  covered: boolean;
}

/**
 * The award that applies, when it is not the main award: an award under a condition that holds, what
 * part of a bundle earns, or (situational) either of two awards whose conditions are each other's
 * opposite ("HIST 1XX (3); HIST 2XX for the AA program"): the credit is certain, which course is not.
 */
interface AppliedAward {
  basis: 'conditional' | 'partial' | 'situational';
  outcomes: Outcome[];
  credits: number | null;
}

export interface Match {
  rule: TransferRule;
  /** Given courses the rule can use. */
  usedCourses: string[];
  /** Courses the rule still needs (partial matches only). */
  missingCourses: string[];
  sourceCredits: number | null;
  targetCredits: number | null;
  confidence: number;
  confidenceFactors: { provenance: number; age: number; parse: number; completeness: number; plausibility: number };
  conditions: EvaluatedCondition[];
  warnings: string[];
  outcomes: EvaluatedOutcome[];
  award?: AppliedAward;
  /** The date the rule was checked in force on: when its courses were completed, or the resolve's date. */
  checkedOn: string;
}

export interface Resolution {
  /** Credit rules fully covered by the given courses, with no condition left that is not known to hold. */
  exact: Match[];
  partial: Match[];
  noCredit: Match[];
  individualAssessment: Match[];
  /** Covered credit rules whose award depends on a condition not known to hold. */
  conditional: Match[];
  /** Exact matches in force at the same time for the same courses that award different things. */
  conflicts: { courses: string[]; ruleIds: string[] }[];
  plan: Plan;
}

export interface ResolveOptions {
  /** When each sending course was completed (YYYY-MM-DD): its rules are those in force then; other courses use the resolve's date. */
  completedOn?: Map<string, string>;
  /** Credits of sending courses in their institution's catalogue, for rules whose rows state none (PDF exports). */
  sendingCredits?: Map<string, number>;
}

const sum = (values: (number | null)[]) => (values.some((v) => v === null) ? null : values.reduce<number>((a, b) => a + (b ?? 0), 0));


/** An award this many times what the rule takes in (on a common scale) is taken for an error in the source (a "4 or 4 = 8" typo). */
const IMPLAUSIBLE_RATIO = 1.5;

const NO_FACTS: StudentFacts = { completedAtTarget: new Set(), grades: new Map() };


/** Which of a rule's source courses the student has, what it still needs, and how much of it is there. */
function coverage(rule: TransferRule, given: Set<string>) {
  const { codes, required, choice } = sendingSide(rule);
  const used = codes.filter((code) => given.has(code));
  const missing = required.filter((code) => !given.has(code));
  let needed = required.length;
  let have = required.length - missing.length;
  if (choice) {
    const chosen = choice.from.filter((code) => given.has(code)).length;
    needed += choice.count;
    have += Math.min(chosen, choice.count);
    if (chosen < choice.count) {
      const rest = choice.from.filter((code) => !given.has(code));
      missing.push(`${choice.count - chosen} more of ${rest.join(', ')}`);
    }
  }
  return { used, missing, completeness: needed ? have / needed : 1 };
}

/**
 * Confidence from the data, never a constant: web API records outrank PDF-derived rows, fully
 * parsed rules outrank ones with condition prose left untyped (0.8) or untyped credit text (0.6), an award larger than what is sent is doubted, a rule
 * newer than a year is less settled, and a partial match counts for the share of what it needs.
 */
function confidenceOf(rule: TransferRule, asOf: string, completeness: number, awardRatio: number) {
  const provenance = /^\d+$/.test(rule.sourceRecordId) ? 0.95 : 0.85;
  const years = Math.max(0, (Date.parse(asOf) - Date.parse(rule.effectiveStart)) / (365.25 * 86_400_000));
  // A rule still in force after years has been applied and not revised: age settles it, never erodes it.
  const age = Math.min(1, 0.85 + 0.15 * years);
  const parse = rule.fullyParsed ? 1 : rule.unparsedFragments.length || rule.targets.some((t) => t.kind === 'unparsed') ? 0.6 : 0.8;
  const plausibility = awardRatio > IMPLAUSIBLE_RATIO ? 0.4 : awardRatio > 1 + 1e-9 ? 0.9 : 1;
  const confidence = Math.round(provenance * age * parse * plausibility * (0.4 + 0.6 * completeness) * 1000) / 1000;
  const round = (n: number) => Math.round(n * 1000) / 1000;
  return { confidence, confidenceFactors: { provenance, age: round(age), parse, completeness: round(completeness), plausibility } };
}

/** Credits a rule takes in: the smallest `count` (or all required plus the smallest choice), from the row or the catalogue. */
function sentCredits(rule: TransferRule, catalogue: Map<string, number> | undefined, count?: number): { credits: number | null; fromCatalogue: boolean } {
  const { required, choice, codes } = sendingSide(rule);
  let fromCatalogue = false;
  const credits = (code: string) => {
    const stated = rule.sourceCourses.find((c) => c.code === code)?.credits ?? null;
    if (stated !== null) return stated;
    const known = catalogue?.get(code);
    if (known !== undefined) fromCatalogue = true;
    return known ?? null;
  };
  const smallest = (list: string[], n: number) => {
    const values = list.map(credits);
    return values.some((v) => v === null) ? null : (values as number[]).sort((a, b) => a - b).slice(0, n).reduce((a, b) => a + b, 0);
  };
  if (count !== undefined) return { credits: smallest(codes, count), fromCatalogue };
  const fixed = sum(required.map(credits));
  if (!choice) return { credits: fixed, fromCatalogue };
  const options = smallest(choice.from, choice.count);
  return { credits: fixed === null || options === null ? null : fixed + options, fromCatalogue };
}

function evaluateAll(conditions: TransferCondition[], facts: StudentFacts, given: Set<string>, used: string[]): EvaluatedCondition[] {
  if (!conditions.length) return [];
  return conditions.map((condition) => ({ ...condition, status: evaluateCondition(condition, facts, { given, used }), wouldHoldIf: wouldHoldIf(condition) }));
}

/** All must hold; or (`any`) one must: the status of a set of conditions. */
const statusOf = (conditions: Pick<EvaluatedCondition, 'status'>[], any = false): ConditionStatus =>
  any
    ? conditions.some((c) => c.status === 'holds') ? 'holds' : conditions.some((c) => c.status === 'unknown') ? 'unknown' : 'fails'
    : conditions.some((c) => c.status === 'fails') ? 'fails' : conditions.every((c) => c.status === 'holds') ? 'holds' : 'unknown';

const conditionKey = (c: TransferCondition) => `${c.type}|${c.negated ? '!' : ''}|${c.text}|${c.appliesTo}`;

/**
 * Two awards whose only open conditions are each other's opposite ("HIST 1XX (3)" unless in the AA program; "HIST 2XX" in it):
 * one of them applies whatever the fact is, so the smaller credit is certain.
 */
function situational(outcomes: EvaluatedOutcome[], evaluated: Map<Outcome, EvaluatedCondition[]>): AppliedAward | undefined {
  const main = outcomes.find((o) => o.outcome.kind === 'main');
  if (!main?.covered || main.status !== 'unknown') return undefined;
  const open = (o: EvaluatedOutcome) => evaluated.get(o.outcome)!.filter((c) => c.status !== 'holds');
  for (const other of outcomes) {
    if (other.outcome.mode !== 'instead' || other.status !== 'unknown' || !other.covered) continue;
    const [a, b] = [open(main), open(other)];
    const opposite = a.length === b.length && a.every((c) => b.some((d) => d.type === c.type && d.text === c.text && Boolean(d.negated) !== Boolean(c.negated)));
    if (opposite && main.outcome.credits !== null && other.outcome.credits !== null) {
      return { basis: 'situational', outcomes: [main.outcome, other.outcome], credits: Math.min(main.outcome.credits, other.outcome.credits) };
    }
  }
  return undefined;
}

function toMatch(rule: TransferRule, given: Set<string>, checkedOn: string, facts: StudentFacts, options: ResolveOptions): Match {
  const { used, missing, completeness } = coverage(rule, given);
  const evaluated = new Map<Outcome, EvaluatedCondition[]>();
  const typedConditions = conditionsOf(rule);
  // The main award holds only if each of its targets can be taken: itself or an alternative whose condition holds.
  const choices = typedConditions.targets.size
    ? targetChoices(rule).map((options) => statusOf(options.map((o) => (o.condition ? evaluateAll([o.condition], facts, given, used)[0]! : { status: 'holds' as const })), true))
    : [];
  const targetsStatus: ConditionStatus = choices.includes('fails') ? 'fails' : choices.every((s) => s === 'holds') ? 'holds' : 'unknown';
  const outcomes = ruleOutcomes(rule).map((outcome): EvaluatedOutcome => {
    const conditions = evaluateAll(outcome.conditions, facts, given, used);
    evaluated.set(outcome, conditions);
    const covered = outcome.kind === 'partial' ? used.length >= outcome.count! : missing.length === 0;
    const status = statusOf(conditions);
    return { outcome, status: outcome.kind === 'main' && status === 'holds' ? targetsStatus : status, covered };
  });
  const holding = outcomes.filter((o) => o.covered && o.status === 'holds' && o.outcome.credits !== null);
  const main = outcomes[0]!;
  const best = holding.find((o) => o === main) ?? [...holding].sort((a, b) => (b.outcome.credits ?? 0) - (a.outcome.credits ?? 0))[0];
  const award: AppliedAward | undefined =
    best && best !== main ? { basis: best.outcome.kind === 'partial' ? 'partial' : 'conditional', outcomes: [best.outcome], credits: best.outcome.credits } : best ? undefined : situational(outcomes, evaluated);
  // Every condition the rule states, once: on the main award, on awards under a condition, on alternatives and exemptions.
  const others = [...typedConditions.targets.values(), ...typedConditions.conditionalAwards.filter((c) => c.appliesTo.startsWith('exemption') || c.appliesTo === 'conditional award')];
  const typed = [...evaluated.values(), others.length ? evaluateAll(others, facts, given, used) : []].flat();
  const seen = new Set<string>();
  const conditions = typed.filter((c) => !seen.has(conditionKey(c)) && Boolean(seen.add(conditionKey(c))));
  const scale = creditScaleOf(rule.receiverInstitution).factor / creditScaleOf(rule.senderInstitution).factor;
  const awarded = award ? award.credits : best ? best.outcome.credits : main.outcome.credits;
  const sent = sentCredits(rule, options.sendingCredits, award?.basis === 'partial' ? award.outcomes[0]!.count : undefined);
  const warnings: string[] = [];
  const ratio = sent.credits && awarded !== null ? (awarded * scale) / sent.credits : 1;
  if (ratio > 1 + 1e-9) {
    const what = `awards ${awarded} ${creditScaleOf(rule.receiverInstitution).unit} for ${sent.credits} credits sent${sent.fromCatalogue ? ' (sending credits from its catalogue or other rows)' : ''}`;
    warnings.push(ratio > IMPLAUSIBLE_RATIO ? `${what}, likely an error in the source; left out of the plan` : `${what} (a credit conversion, or an error in the source)`);
  }
  return {
    rule,
    usedCourses: used,
    missingCourses: award?.basis === 'partial' ? [] : missing,
    sourceCredits: sum(rule.sourceCourses.filter((c) => used.includes(c.code)).map((c) => c.credits ?? options.sendingCredits?.get(c.code) ?? null)),
    targetCredits: awarded,
    ...confidenceOf(rule, checkedOn, missing.length && award?.basis !== 'partial' ? completeness : 1, ratio),
    conditions,
    warnings,
    outcomes,
    ...(award ? { award } : {}),
    checkedOn,
  };
}


/** Set semantics throughout: the answer never depends on the order of the given courses or of the rules. */
export function resolveRules(rules: TransferRule[], givenCodes: string[], asOf: string, facts: StudentFacts = NO_FACTS, options: ResolveOptions = {}): Resolution {
  const given = new Set(givenCodes);
  const lists = { exact: [] as Match[], partial: [] as Match[], noCredit: [] as Match[], individualAssessment: [] as Match[], conditional: [] as Match[] };
  const seen = new Set<string>();
  for (const stored of rules) {
    if (seen.has(stored.ruleId)) continue;
    seen.add(stored.ruleId);
    const rule = currentReading(stored);
    const used = sendingSide(rule).codes.filter((code) => given.has(code));
    if (used.length === 0) continue;
    const checkedOn = dateFor(used, asOf, options.completedOn);
    if (!inForce(rule, checkedOn)) continue;
    const match = toMatch(rule, given, checkedOn, facts, options);
    const certain = match.outcomes.some((o) => o.covered && o.status === 'holds') || match.award?.basis === 'situational';
    const partialCovered = match.outcomes.some((o) => o.outcome.kind === 'partial' && o.covered);
    if (match.missingCourses.length && !partialCovered) lists.partial.push(match);
    else if (rule.kind === 'no-credit') lists.noCredit.push(match);
    else if (rule.kind === 'individual-assessment') lists.individualAssessment.push(match);
    else if (certain) lists.exact.push(match);
    else lists.conditional.push(match);
  }
  for (const list of Object.values(lists)) sortByContent(list);
  const considered = [...lists.exact, ...lists.partial, ...lists.conditional, ...lists.noCredit, ...lists.individualAssessment];
  return { ...lists, conflicts: conflictsOf(lists.exact), plan: planOf({ exact: lists.exact, considered, givenCodes, facts, asOf, completedOn: options.completedOn }) };
}

/**
 * A content order: the same rules sort the same whatever their ids or the order they were read in.
 * Keys are built once per match, not twice per comparison (a 40-course resolve sorts ~250 matches).
 */
function sortByContent(matches: Match[]): void {
  const keys = new Map(matches.map((match) => [match, contentKey(match.rule)]));
  matches.sort((a, b) => keys.get(a)!.localeCompare(keys.get(b)!) || a.rule.ruleId.localeCompare(b.rule.ruleId));
}

function contentKey(rule: TransferRule): string {
  return `${sendingSide(rule).codes.join('+')}|${targetSignature(rule.targets)}|${rule.effectiveStart}`;
}

function conflictsOf(exact: Match[]): Resolution['conflicts'] {
  const bySet = new Map<string, Match[]>();
  for (const match of exact) {
    const key = [...match.usedCourses].sort().join('+');
    bySet.set(key, [...(bySet.get(key) ?? []), match]);
  }
  return [...bySet]
    .filter(([, matches]) => new Set(matches.map((m) => targetSignature(m.rule.targets))).size > 1)
    .map(([key, matches]) => ({ courses: key.split('+'), ruleIds: matches.map((m) => m.rule.ruleId) }));
}
