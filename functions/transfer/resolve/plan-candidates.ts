import type { StudentFacts, TransferCondition } from '../rule-text/conditions.js';
import { evaluateCondition } from './condition-status.js';
import { targetChoices, type Outcome } from './outcomes.js';
import type { PlanOption } from './plan.js';
import type { PlannedRule } from './plan-options.js';
import { targetSignature } from '../rule-identity.js';
import type { AlternativeTarget, TransferTarget } from '../rule-model.js';
import type { Match } from './resolve.js';
import { dateFor, inForce, sendingSide } from './rule-span.js';

/**
 * The options a plan chooses from: per exact match, each outcome that holds, taken each way the
 * wording allows (an alternative where the award's own courses are contested), with the given
 * courses it would consume.
 */

export interface Candidate extends PlanOption {
  match: Match;
  targets: AlternativeTarget[];
  basis: NonNullable<PlannedRule['basis']>;
}

const SPECIFICITY: Partial<Record<TransferTarget['kind'], number>> = { course: 2, generic: 1, elective: 0 };
const MAX_VARIANTS = 16;
const credits = (targets: AlternativeTarget[]) => targets.reduce((s, t) => s + (t.credits ?? 0), 0);

function combinations<T>(items: T[], k: number): T[][] {
  if (k === 0) return [[]];
  if (items.length < k) return [];
  const [first, ...rest] = items;
  return [...combinations(rest, k - 1).map((c) => [first!, ...c]), ...combinations(rest, k)];
}

/**
 * The ways the main award can be taken: its targets, each target or the whole award swapped for an
 * alternative the wording offers (whose own condition, if any, holds). Beyond a handful the
 * alternatives stay unnamed: the main targets, none of those with alternatives claimed.
 */
function mainVariants(match: Match, facts: StudentFacts, given: Set<string>, contested: Set<string>): { targets: AlternativeTarget[]; alternative: boolean; unclaimed: Set<AlternativeTarget> }[] {
  const rule = match.rule;
  // Most rules award plain targets: one way to take them.
  if (!rule.alternativeAwards.length && rule.targets.every((t) => !t.alternatives)) return [{ targets: rule.targets, alternative: false, unclaimed: new Set() }];
  const holds = (condition: TransferCondition | undefined) => !condition || evaluateCondition(condition, facts, { given, used: match.usedCourses }) === 'holds';
  // Per target, the sets that may be taken, and whether each is an alternative (the target itself comes first).
  const choices = targetChoices(rule).map((options) => options.map((o, k) => ({ set: o.set, alternative: k > 0, ok: holds(o.condition) })).filter((o) => o.ok));
  if (choices.some((c) => !c.length)) return [];
  // An alternative never gives more than the award, so it is worth naming only when the award's own courses may be out of reach
  // (another rule claims them, the student holds them, or the wording limits them) or the award itself cannot be taken.
  const own = choices.every((c) => !c[0]!.alternative);
  const atStake = rule.targets.some((t) => t.code && contested.has(t.code));
  if (own && !atStake) return [{ targets: choices.map((c) => c[0]!.set).flat(), alternative: false, unclaimed: new Set() }];
  const whole = rule.alternativeAwards.map((set) => ({ targets: set, alternative: true }));
  const count = choices.reduce((n, c) => n * c.length, 1) + whole.length;
  if (count > MAX_VARIANTS) {
    // Too many ways to name: the main targets, none of those with alternatives claimed (whichever the student picks).
    const first = choices.map((c) => c[0]!.set).flat();
    const unclaimed = new Set(first.filter((_, k) => rule.targets[k]?.alternatives));
    return [{ targets: first, alternative: false, unclaimed }];
  }
  let variants: { targets: AlternativeTarget[]; alternative: boolean }[] = [{ targets: [], alternative: false }];
  for (const options of choices) variants = variants.flatMap((v) => options.map((o) => ({ targets: [...v.targets, ...o.set], alternative: v.alternative || o.alternative })));
  return [...variants, ...whole].map((v) => ({ ...v, unclaimed: new Set() }));
}

function outcomeVariants(match: Match, facts: StudentFacts, given: Set<string>, contested: Set<string>) {
  const found: { targets: AlternativeTarget[]; basis: Candidate['basis']; unclaimed: Set<AlternativeTarget>; count?: number }[] = [];
  for (const evaluated of match.outcomes) {
    if (!evaluated.covered || evaluated.status !== 'holds' || evaluated.outcome.credits === null) continue;
    const outcome: Outcome = evaluated.outcome;
    if (outcome.kind === 'main') found.push(...mainVariants(match, facts, given, contested).map((v) => ({ ...v, basis: v.alternative ? ('alternative' as const) : ('main' as const) })));
    else found.push({ targets: outcome.targets, basis: outcome.kind, unclaimed: new Set(), ...(outcome.count ? { count: outcome.count } : {}) });
  }
  if (match.award?.basis === 'situational') {
    // Either award applies: the smaller credit is certain, which course is not, so nothing specific is claimed.
    const smaller = [...match.award.outcomes].sort((a, b) => (a.credits ?? 0) - (b.credits ?? 0))[0]!;
    found.push({ targets: smaller.targets, basis: 'situational', unclaimed: new Set(smaller.targets) });
  }
  return found;
}

const mainCredits = (match: Match) => match.outcomes[0]!.outcome.credits ?? 0;

export function candidatesOf(match: Match, index: Map<string, number>, facts: StudentFacts, given: Set<string>, asOf: string, completedOn: Map<string, string> | undefined, contested: Set<string>): Candidate[] {
  if (match.confidenceFactors.plausibility < 0.5) return [];
  const rule = match.rule;
  const { required, choice, codes } = sendingSide(rule);
  const receiver = rule.receiverInstitution;
  const candidates: Candidate[] = [];
  for (const variant of outcomeVariants(match, facts, given, contested)) {
    // Taking an alternative never promises more than the main award: whether "A (3) or B (4)" is the student's choice or the
    // receiver's, the main award's credit is what the wording guarantees.
    const value = Math.round(Math.min(credits(variant.targets), variant.basis === 'alternative' ? mainCredits(match) : Number.POSITIVE_INFINITY) * 100);
    if (value <= 0) continue;
    const claims = [...new Set(variant.targets.filter((t) => t.kind === 'course' && t.code && (t.credits ?? 0) > 0 && !variant.unclaimed.has(t)).map((t) => `${t.institution ?? receiver}:${t.code}`))];
    // A course the student already holds at the receiver cannot be awarded again.
    if (claims.some((claim) => facts.completedAtTarget.has(claim.split(':')[1]!))) continue;
    const specificity = Math.round(variant.targets.reduce((s, t) => s + (t.credits ?? 0) * 100 * (SPECIFICITY[t.kind] ?? 0), 0));
    const subsets = variant.count
      ? combinations(codes.filter((code) => index.has(code)).sort(), variant.count)
      : choice
        ? combinations(choice.from.filter((code) => index.has(code)).sort(), choice.count).map((subset) => [...required, ...subset])
        : [required];
    for (const subset of subsets) {
      const consumed = [...subset].sort();
      if (completedOn && !inForce(rule, dateFor(consumed, asOf, completedOn))) continue;
      candidates.push({
        id: rule.ruleId,
        consumes: consumed.map((code) => index.get(code)!),
        claims,
        credits: value,
        specificity,
        recency: value * (Number(rule.effectiveStart.slice(0, 4)) - 1990),
        key: `${variant.basis === 'main' ? 0 : 1}|${targetSignature(variant.targets as TransferTarget[])}|${rule.effectiveStart}|${consumed.join('+')}|${rule.rawDetail.replace(/\s+/g, ' ')}`,
        match,
        targets: variant.targets,
        basis: variant.basis,
      });
    }
  }
  return candidates;
}
