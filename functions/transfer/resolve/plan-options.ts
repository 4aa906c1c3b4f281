import type { StudentFacts } from '../rule-text/conditions.js';
import { candidatesOf, type Candidate } from './plan-candidates.js';
import { optimisePlan } from './plan.js';
import type { TransferConstraint } from '../rule-model.js';
import type { Match } from './resolve.js';

export type { Candidate } from './plan-candidates.js';

export interface PlannedRule {
  ruleId: string;
  /** The given courses this rule consumes in the plan (a choice rule takes only what it needs). */
  consumes: string[];
  credits: number;
  /** What the plan takes from the rule, as published, when it is not its main award (an alternative, an award under a condition, part of a bundle). */
  awards?: string[];
  basis?: 'main' | 'alternative' | 'conditional' | 'partial' | 'situational';
}

export interface PlanConstraint {
  type: TransferConstraint['type'];
  side: TransferConstraint['side'];
  courses: string[];
  max?: number;
  maxCredits?: number;
  subject?: string;
  level?: number;
  text: string;
  /** Rules whose wording states it. */
  ruleIds: string[];
  /** True when it kept an award out of the plan that would otherwise fit. */
  limitedPlan: boolean;
}

export interface Plan {
  ruleIds: string[];
  totalCredits: number;
  optimal: boolean;
  rules: PlannedRule[];
  /** Specific receiving courses more than one exact match awards: the plan awards each once (unless repeatable). */
  overlaps: { target: string; ruleIds: string[]; awardedBy: string | null }[];
  /** Limits the wording of the rules puts on the plan. */
  constraints: PlanConstraint[];
}

interface Gathered extends TransferConstraint {
  ruleIds: string[];
}

/** Each limit once, however many rules state it (the "only one of CMPT 125 or CMPT 128" sentence is on both rows). */
function gather(considered: Match[]): Gathered[] {
  const byKey = new Map<string, Gathered>();
  for (const match of considered) {
    for (const constraint of match.rule.constraints ?? []) {
      // A cap naming no courses and no subject counts the rules that state it: the sentence is its scope.
      const scopeless = constraint.type === 'cap' && !constraint.courses.length && !constraint.subject;
      const key = JSON.stringify([constraint.type, constraint.side, [...constraint.courses].sort(), constraint.max, constraint.maxCredits, constraint.subject, constraint.level, constraint.requires, scopeless ? constraint.text.toLowerCase() : '', constraint.type === 'precludes' ? match.rule.ruleId : '']);
      const found = byKey.get(key);
      if (found) found.ruleIds = [...new Set([...found.ruleIds, match.rule.ruleId])].sort();
      else byKey.set(key, { ...constraint, ruleIds: [match.rule.ruleId] });
    }
  }
  return [...byKey.values()].sort((a, b) => JSON.stringify([a.type, a.courses, a.text]).localeCompare(JSON.stringify([b.type, b.courses, b.text])));
}

const subjectMatches = (written: string, subject: string) => written === subject || (Math.min(written.length, subject.length) >= 4 && (written.startsWith(subject) || subject.startsWith(written)));
const levelOf = (code: string) => Number(code.split(' ')[1]?.[0]);

/** How much of a constraint's capacity a candidate uses (0: outside its scope). */
function usage(constraint: Gathered, candidate: Candidate, consumed: string[], awarded: string[]): number {
  if (constraint.type === 'one-of') {
    const members = new Set(constraint.courses);
    return (constraint.side === 'sending' ? consumed : awarded).filter((code) => members.has(code)).length;
  }
  if (constraint.type !== 'cap') return 0;
  const subjects = constraint.side === 'sending' ? consumed : candidate.targets.filter((t) => t.subject).map((t) => `${t.subject} ${t.code?.split(' ')[1] ?? t.level ?? ''}`);
  const inScope = constraint.courses.length
    ? (constraint.side === 'sending' ? consumed : awarded).some((code) => constraint.courses.includes(code))
    : constraint.subject
      ? subjects.some((code) => subjectMatches(constraint.subject!, code.split(' ')[0]!) && (constraint.level === undefined || levelOf(code) === constraint.level))
      : constraint.ruleIds.includes(candidate.id);
  if (!inScope) return 0;
  return constraint.maxCredits !== undefined ? candidate.credits : 1;
}

type PlanArgs = { exact: Match[]; considered: Match[]; givenCodes: string[]; facts: StudentFacts; asOf: string; completedOn?: Map<string, string> };

/** What the optimiser chooses from, and the limits it must respect: exported so tests can check the plan against every other choice. */
export interface PlanProblem {
  codes: string[];
  candidates: Candidate[];
  capacities: Map<string, number>;
  constraints: Gathered[];
}

export function planOf(args: PlanArgs): Plan {
  const { codes, candidates: usable, capacities, constraints } = planProblem(args);
  const { chosen, optimal } = optimisePlan(usable, capacities);
  const picked = chosen as Candidate[];
  let unchosen: Candidate[] | undefined;
  const left = () => (unchosen ??= leftOut(usable, picked));
  const rules = picked.map((option) => ({
    ruleId: option.id,
    consumes: option.consumes.map((i) => codes[i]!),
    credits: option.credits / 100,
    ...(option.basis !== 'main' ? { awards: option.targets.map((t) => t.text), basis: option.basis } : {}),
  }));
  return {
    ruleIds: rules.map((r) => r.ruleId),
    totalCredits: Math.round(picked.reduce((total, option) => total + option.credits, 0)) / 100,
    optimal,
    rules,
    overlaps: overlapsOf(usable, picked),
    constraints: constraints.map((constraint, k) => ({
      type: constraint.type,
      side: constraint.side,
      courses: constraint.courses,
      ...(constraint.max !== undefined ? { max: constraint.max } : {}),
      ...(constraint.maxCredits !== undefined ? { maxCredits: constraint.maxCredits } : {}),
      ...(constraint.subject ? { subject: constraint.subject } : {}),
      ...(constraint.level !== undefined ? { level: constraint.level } : {}),
      text: constraint.text,
      ruleIds: constraint.ruleIds,
      limitedPlan: limitedPlan(constraint, `k${k}`, left(), picked, capacities),
    })),
  };
}

export function planProblem(args: PlanArgs): PlanProblem {
  const { facts } = args;
  const codes = [...new Set(args.givenCodes)].sort();
  const given = new Set(codes);
  const index = new Map(codes.map((code, i) => [code, i]));
  const constraints = gather(args.considered);
  // Receiving courses more than one award could claim, or that the student holds or the wording limits: only there do alternatives matter.
  const claimedBy = new Map<string, number>();
  for (const match of args.exact) for (const code of new Set(match.rule.targets.flatMap((t) => [t.code, ...(t.alternatives ?? []).flat().map((a) => a.code), ...match.rule.alternativeAwards.flat().map((a) => a.code)]))) if (code) claimedBy.set(code, (claimedBy.get(code) ?? 0) + 1);
  const contested = new Set([
    ...[...claimedBy].filter(([, n]) => n > 1).map(([code]) => code),
    ...facts.completedAtTarget,
    ...constraints.filter((c) => c.side === 'receiving' && c.type !== 'repeatable').flatMap((c) => c.courses),
  ]);
  const candidates = args.exact.flatMap((match) => candidatesOf(match, index, facts, given, args.asOf, args.completedOn, contested));
  const capacities = new Map<string, number>();
  const receiverOf = (c: Candidate) => c.match.rule.receiverInstitution;
  const repeatable = new Map<string, Gathered>();
  constraints.forEach((constraint, k) => {
    const resource = `k${k}`;
    if (constraint.type === 'repeatable') {
      for (const course of constraint.courses) if (!constraint.requires) repeatable.set(course, constraint);
      return;
    }
    if (constraint.type === 'precludes') return;
    const held = constraint.type === 'one-of' && constraint.side === 'receiving' ? constraint.courses.filter((c) => facts.completedAtTarget.has(c)).length : 0;
    capacities.set(resource, constraint.type === 'one-of' ? Math.max(0, (constraint.max ?? 1) - held) : constraint.maxCredits !== undefined ? Math.round(constraint.maxCredits * 100) : (constraint.max ?? 1));
  });
  const usable: Candidate[] = [];
  const limits = constraints.map((constraint, k) => ({ constraint, resource: `k${k}` })).filter(({ constraint }) => constraint.type === 'one-of' || constraint.type === 'cap');
  const precluding = new Map<string, string[]>();
  for (const c of constraints) if (c.type === 'precludes') for (const id of c.ruleIds) precluding.set(id, [...(precluding.get(id) ?? []), ...c.courses]);
  for (const candidate of candidates) {
    const uses: [string, number][] = [];
    if (limits.length) {
      const consumed = candidate.consumes.map((i) => codes[i]!);
      const awarded = candidate.targets.filter((t) => t.code && (t.credits ?? 0) > 0).map((t) => t.code!);
      for (const { constraint, resource } of limits) {
        const amount = usage(constraint, candidate, consumed, awarded);
        if (amount > 0) uses.push([resource, amount]);
      }
    }
    // A course the wording lets be taken more than once is claimed by credit, up to its maximum.
    for (const target of candidate.targets) {
      const constraint = target.code ? repeatable.get(target.code) : undefined;
      if (!constraint || !candidate.claims.includes(`${receiverOf(candidate)}:${target.code}`)) continue;
      const resource = `t${receiverOf(candidate)}:${target.code}`;
      uses.push([resource, Math.round((target.credits ?? 0) * 100)]);
      capacities.set(resource, constraint.maxCredits !== undefined ? Math.round(constraint.maxCredits * 100) : Number.MAX_SAFE_INTEGER);
    }
    const precludes = (precluding.get(candidate.id) ?? []).map((code) => `${receiverOf(candidate)}:${code}`);
    // An award that precludes a course the student already has is not given beside it.
    if (precludes.some((claim) => facts.completedAtTarget.has(claim.split(':')[1]!))) continue;
    usable.push(Object.assign(candidate, { uses, ...(precludes.length ? { precludes } : {}) }));
  }
  return { codes, candidates: usable, capacities, constraints };
}

/** Options of rules the plan left out whose courses and claimed targets are all still free. */
function leftOut(usable: Candidate[], picked: Candidate[]): Candidate[] {
  const chosenIds = new Set(picked.map((p) => p.id));
  const consumed = new Set(picked.flatMap((p) => p.consumes));
  const claimed = new Set(picked.flatMap((p) => p.claims));
  return usable.filter((o) => !chosenIds.has(o.id) && o.consumes.every((c) => !consumed.has(c)) && o.claims.every((t) => !claimed.has(t)));
}

/** Whether a constraint kept out an award that nothing else kept out: an option left out that would fit but for it. */
function limitedPlan(constraint: Gathered, resource: string, left: Candidate[], picked: Candidate[], capacities: Map<string, number>): boolean {
  if (constraint.type === 'precludes') {
    const precluded = new Set(picked.filter((p) => constraint.ruleIds.includes(p.id)).flatMap((p) => p.precludes ?? []));
    return left.some((o) => o.claims.some((t) => precluded.has(t)));
  }
  if (constraint.type === 'repeatable') return false;
  const used = picked.reduce((s, p) => s + (p.uses?.find(([r]) => r === resource)?.[1] ?? 0), 0);
  return left.some((o) => {
    const amount = o.uses?.find(([r]) => r === resource)?.[1] ?? 0;
    return amount > 0 && used + amount > (capacities.get(resource) ?? 1);
  });
}

function overlapsOf(usable: Candidate[], picked: Candidate[]): Plan['overlaps'] {
  const awardedBy = new Map(picked.flatMap((option) => option.claims.map((claim) => [claim, option.id] as const)));
  const claimants = new Map<string, Set<string>>();
  for (const option of usable) for (const claim of option.claims) claimants.set(claim, (claimants.get(claim) ?? new Set()).add(option.id));
  return [...claimants]
    .filter(([, ids]) => ids.size > 1)
    .map(([target, ids]) => ({ target, ruleIds: [...ids].sort(), awardedBy: awardedBy.get(target) ?? null }))
    .sort((a, b) => a.target.localeCompare(b.target));
}
