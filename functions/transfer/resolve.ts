import { conditionsOf, evaluateCondition, wouldHoldIf, type ConditionStatus, type StudentFacts, type TransferCondition } from './conditions.js';
import { optimisePlan, type PlanOption } from './plan.js';
import { targetSignature } from './rule-identity.js';
import type { TransferRule, TransferTarget } from './rule-model.js';

export interface EvaluatedCondition extends TransferCondition {
  status: ConditionStatus;
  wouldHoldIf: string;
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
}

export interface PlannedRule {
  ruleId: string;
  /** The given courses this rule consumes in the plan (a choice rule takes only what it needs). */
  consumes: string[];
  credits: number;
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
  plan: {
    ruleIds: string[];
    totalCredits: number;
    optimal: boolean;
    rules: PlannedRule[];
    /** Specific receiving courses more than one exact match awards: the plan awards each once. */
    overlaps: { target: string; ruleIds: string[]; awardedBy: string | null }[];
  };
}

const sum = (values: (number | null)[]) => (values.some((v) => v === null) ? null : values.reduce<number>((a, b) => a + (b ?? 0), 0));

export function inForce(rule: { effectiveStart: string; effectiveEnd: string | null }, asOf: string): boolean {
  return rule.effectiveStart <= asOf && (rule.effectiveEnd === null || rule.effectiveEnd >= asOf);
}

/** An award this many times what the rule takes in is taken for an error in the source (a "4 or 4 = 8" typo). */
const IMPLAUSIBLE_RATIO = 1.5;

const NO_FACTS: StudentFacts = { completedAtTarget: new Set(), grades: new Map() };

/** The rule's sending side: courses always required, and an optional "any N of" choice. */
function sendingSide(rule: TransferRule) {
  const codes = [...new Set(rule.sourceCourses.map((c) => c.code))];
  const choice = rule.sourceChoice;
  return { codes, required: choice ? codes.filter((code) => !choice.from.includes(code)) : codes, choice };
}

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

function evaluated(conditions: TransferCondition[], facts: StudentFacts, used: string[], rule: TransferRule): EvaluatedCondition[] {
  return conditions.map((condition) => {
    // "No credit if taken alone" qualifies the single course, never a bundle that is given whole.
    const status = condition.type === 'taken-alone' && rule.sourceCourses.length > 1 ? 'holds' : evaluateCondition(condition, facts, used);
    return { ...condition, status, wouldHoldIf: wouldHoldIf(condition) };
  });
}

function toMatch(rule: TransferRule, given: Set<string>, asOf: string, facts: StudentFacts): Match {
  const { used, missing, completeness } = coverage(rule, given);
  const typed = conditionsOf(rule);
  const conditions = evaluated([...typed.rule, ...typed.targets.values(), ...typed.conditionalAwards], facts, used, rule);
  const sourceCredits = sum(rule.sourceCourses.filter((c) => used.includes(c.code)).map((c) => c.credits));
  const targetCredits = sum(rule.targets.map((t) => t.credits));
  const sent = sentCredits(rule);
  const warnings: string[] = [];
  const ratio = sent && targetCredits !== null ? targetCredits / sent : 1;
  if (ratio > 1 + 1e-9) {
    warnings.push(
      ratio > IMPLAUSIBLE_RATIO
        ? `awards ${targetCredits} credits for ${sent} sent, likely an error in the source; left out of the plan`
        : `awards ${targetCredits} credits for ${sent} sent (a credit conversion, or an error in the source)`,
    );
  }
  return {
    rule,
    usedCourses: used,
    missingCourses: missing,
    sourceCredits,
    targetCredits,
    ...confidenceOf(rule, asOf, missing.length ? completeness : 1, ratio),
    conditions,
    warnings,
  };
}

/** Credits a rule takes in: all required courses plus the smallest `count` of a choice (unknown when any is unstated). */
function sentCredits(rule: TransferRule): number | null {
  const { required, choice } = sendingSide(rule);
  const credits = (code: string) => rule.sourceCourses.find((c) => c.code === code)?.credits ?? null;
  const fixed = sum(required.map(credits));
  if (!choice) return fixed;
  const options = choice.from.map(credits);
  if (fixed === null || options.some((c) => c === null)) return null;
  return fixed + (options as number[]).sort((a, b) => a - b).slice(0, choice.count).reduce((a, b) => a + b, 0);
}

/** Set semantics throughout: the answer never depends on the order of the given courses or of the rules. */
export function resolveRules(rules: TransferRule[], givenCodes: string[], asOf: string, facts: StudentFacts = NO_FACTS): Resolution {
  const given = new Set(givenCodes);
  const lists = { exact: [] as Match[], partial: [] as Match[], noCredit: [] as Match[], individualAssessment: [] as Match[], conditional: [] as Match[] };
  const seen = new Set<string>();
  for (const rule of rules) {
    if (seen.has(rule.ruleId) || !inForce(rule, asOf)) continue;
    seen.add(rule.ruleId);
    const match = toMatch(rule, given, asOf, facts);
    if (match.usedCourses.length === 0) continue;
    if (match.missingCourses.length) lists.partial.push(match);
    else if (rule.kind === 'no-credit') lists.noCredit.push(match);
    else if (rule.kind === 'individual-assessment') lists.individualAssessment.push(match);
    else if (blockingConditions(match).length) lists.conditional.push(match);
    else lists.exact.push(match);
  }
  for (const list of Object.values(lists)) sortByContent(list);
  return { ...lists, conflicts: conflictsOf(lists.exact), plan: planOf(lists.exact, givenCodes, facts) };
}

/** Conditions on the whole award that are not known to hold (conditions on alternatives only narrow the choice). */
export function blockingConditions(match: Match): EvaluatedCondition[] {
  const onRule = new Set(conditionsOf(match.rule).rule.map((c) => c.text));
  return match.conditions.filter((c) => onRule.has(c.text) && c.status !== 'holds');
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

const SPECIFICITY: Partial<Record<TransferTarget['kind'], number>> = { course: 2, generic: 1, elective: 0 };

/** Every way a match can enter the plan: a choice rule once per subset of the members it needs. */
function optionsOf(match: Match, index: Map<string, number>, facts: StudentFacts): PlanOption[] {
  const credits = Math.round((match.targetCredits ?? 0) * 100);
  if (credits <= 0 || match.confidenceFactors.plausibility < 0.5) return [];
  const { required, choice } = sendingSide(match.rule);
  const claims = [...new Set(match.rule.targets.filter((t) => t.kind === 'course' && !t.alternatives && (t.credits ?? 0) > 0 && t.code).map((t) => `${t.institution}:${t.code}`))];
  // A course the student already holds at the receiver cannot be awarded again.
  if (claims.some((claim) => facts.completedAtTarget.has(claim.split(':')[1]!))) return [];
  const specificity = match.rule.targets.reduce((s, t) => s + (t.credits ?? 0) * 100 * (SPECIFICITY[t.kind] ?? 0), 0);
  const recency = credits * (Number(match.rule.effectiveStart.slice(0, 4)) - 1990);
  const available = choice ? choice.from.filter((code) => index.has(code)) : [];
  const subsets = choice ? combinations(available.sort(), choice.count) : [[]];
  return subsets.map((subset) => {
    const consumed = [...required, ...subset].sort();
    return {
      id: match.rule.ruleId,
      consumes: consumed.map((code) => index.get(code)!),
      claims,
      credits,
      specificity: Math.round(specificity),
      recency,
      key: `${targetSignature(match.rule.targets)}|${match.rule.effectiveStart}|${consumed.join('+')}|${match.rule.rawDetail.replace(/\s+/g, ' ')}`,
    };
  });
}

function combinations<T>(items: T[], k: number): T[][] {
  if (k === 0) return [[]];
  if (items.length < k) return [];
  const [first, ...rest] = items;
  return [...combinations(rest, k - 1).map((c) => [first!, ...c]), ...combinations(rest, k)];
}

function planOf(exact: Match[], givenCodes: string[], facts: StudentFacts): Resolution['plan'] {
  const codes = [...new Set(givenCodes)].sort();
  const index = new Map(codes.map((code, i) => [code, i]));
  const options = exact.flatMap((match) => optionsOf(match, index, facts));
  const { chosen, optimal } = optimisePlan(options);
  const rules = chosen.map((option) => ({ ruleId: option.id, consumes: option.consumes.map((i) => codes[i]!), credits: option.credits / 100 }));
  const awardedBy = new Map(chosen.flatMap((option) => option.claims.map((claim) => [claim, option.id] as const)));
  const claimants = new Map<string, Set<string>>();
  for (const option of options) for (const claim of option.claims) claimants.set(claim, (claimants.get(claim) ?? new Set()).add(option.id));
  const overlaps = [...claimants]
    .filter(([, ids]) => ids.size > 1)
    .map(([target, ids]) => ({ target, ruleIds: [...ids].sort(), awardedBy: awardedBy.get(target) ?? null }))
    .sort((a, b) => a.target.localeCompare(b.target));
  return {
    ruleIds: rules.map((r) => r.ruleId),
    totalCredits: Math.round(chosen.reduce((total, option) => total + option.credits, 0)) / 100,
    optimal,
    rules,
    overlaps,
  };
}
