import type { TransferRule } from './rule-model.js';

export interface Match {
  rule: TransferRule;
  /** Given courses the rule uses. */
  usedCourses: string[];
  /** Courses the rule still needs (partial matches only). */
  missingCourses: string[];
  sourceCredits: number | null;
  targetCredits: number | null;
  confidence: number;
  confidenceFactors: { provenance: number; age: number; parse: number; completeness: number };
}

export interface Resolution {
  exact: Match[];
  partial: Match[];
  /** Exact matches in force at the same time for the same courses that award different things. */
  conflicts: { courses: string[]; ruleIds: string[] }[];
  plan: { ruleIds: string[]; totalCredits: number; optimal: boolean };
}

const sum = (values: (number | null)[]) => (values.some((v) => v === null) ? null : values.reduce<number>((a, b) => a + (b ?? 0), 0));

export function inForce(rule: TransferRule, asOf: string): boolean {
  return rule.effectiveStart <= asOf && (rule.effectiveEnd === null || rule.effectiveEnd >= asOf);
}

/** Which of a rule's source courses the student has, and what it still needs (honouring "any N of"). */
function coverage(rule: TransferRule, given: Set<string>): { used: string[]; missing: string[] } {
  const codes = rule.sourceCourses.map((c) => c.code);
  const choice = rule.sourceChoice;
  const required = choice ? codes.filter((code) => !choice.from.includes(code)) : codes;
  const used = codes.filter((code) => given.has(code));
  const missing = required.filter((code) => !given.has(code));
  if (choice) {
    const chosen = choice.from.filter((code) => given.has(code)).length;
    if (chosen < choice.count) missing.push(`${choice.count - chosen} more of ${choice.from.join(', ')}`);
  }
  return { used, missing };
}

/**
 * Confidence from the data, never a constant: web API records outrank PDF-derived rows, recent
 * rules outrank old ones, fully parsed rules outrank ones with untyped text, and a partial match
 * counts for the share of courses the student has.
 */
function confidenceOf(rule: TransferRule, asOf: string, completeness: number) {
  const provenance = /^\d+$/.test(rule.sourceRecordId) ? 0.95 : 0.85;
  const years = Math.max(0, (Date.parse(asOf) - Date.parse(rule.effectiveStart)) / (365.25 * 86_400_000));
  const age = Math.max(0.6, 1 - years / 50);
  const parse = rule.fullyParsed ? 1 : 0.6;
  const confidence = Math.round(provenance * age * parse * (0.4 + 0.6 * completeness) * 1000) / 1000;
  return { confidence, confidenceFactors: { provenance, age: Math.round(age * 1000) / 1000, parse, completeness: Math.round(completeness * 1000) / 1000 } };
}

function toMatch(rule: TransferRule, used: string[], missing: string[], asOf: string): Match {
  const total = rule.sourceCourses.length || 1;
  return {
    rule,
    usedCourses: used,
    missingCourses: missing,
    sourceCredits: sum(rule.sourceCourses.filter((c) => used.includes(c.code)).map((c) => c.credits)),
    targetCredits: sum(rule.targets.map((t) => t.credits)),
    ...confidenceOf(rule, asOf, missing.length ? used.length / total : 1),
  };
}

/** Set semantics throughout: the answer never depends on the order of the given courses. */
export function resolveRules(rules: TransferRule[], givenCodes: string[], asOf: string): Resolution {
  const given = new Set(givenCodes);
  const exact: Match[] = [];
  const partial: Match[] = [];
  for (const rule of rules) {
    if (!inForce(rule, asOf)) continue;
    const { used, missing } = coverage(rule, given);
    if (used.length === 0) continue;
    (missing.length ? partial : exact).push(toMatch(rule, used, missing, asOf));
  }
  const byId = (a: Match, b: Match) => a.rule.ruleId.localeCompare(b.rule.ruleId);
  exact.sort(byId);
  partial.sort(byId);
  return { exact, partial, conflicts: conflictsOf(exact), plan: bestPlan(exact) };
}

function conflictsOf(exact: Match[]): Resolution['conflicts'] {
  const bySet = new Map<string, Match[]>();
  for (const match of exact) {
    const key = [...match.usedCourses].sort().join('+');
    bySet.set(key, [...(bySet.get(key) ?? []), match]);
  }
  return [...bySet]
    .filter(([, matches]) => new Set(matches.map((m) => JSON.stringify(m.rule.targets.map((t) => t.text)))).size > 1)
    .map(([key, matches]) => ({ courses: key.split('+'), ruleIds: matches.map((m) => m.rule.ruleId) }));
}

const EXHAUSTIVE_LIMIT = 22;

/**
 * The non-overlapping set of exact matches (each given course used at most once) with the most
 * transferred credit. Matches only interact through shared courses, so each group of overlapping
 * matches is solved on its own: exhaustively when small (always, in real data), greedily otherwise.
 */
export function bestPlan(matches: Match[]): Resolution['plan'] {
  const credited = matches.filter((m) => (m.targetCredits ?? 0) > 0);
  let optimal = true;
  const chosen: Match[] = [];
  for (const group of overlapGroups(credited)) {
    if (group.length <= EXHAUSTIVE_LIMIT) chosen.push(...exhaustive(group));
    else {
      optimal = false;
      chosen.push(...greedy(group));
    }
  }
  chosen.sort((a, b) => a.rule.ruleId.localeCompare(b.rule.ruleId));
  return {
    ruleIds: chosen.map((m) => m.rule.ruleId),
    totalCredits: Math.round(chosen.reduce((total, m) => total + (m.targetCredits ?? 0), 0) * 100) / 100,
    optimal,
  };
}

function overlapGroups(matches: Match[]): Match[][] {
  const groups: Match[][] = [];
  const remaining = [...matches];
  while (remaining.length) {
    const group = [remaining.shift()!];
    const courses = new Set(group[0]!.usedCourses);
    for (let grew = true; grew; ) {
      grew = false;
      for (let i = remaining.length - 1; i >= 0; i--) {
        if (remaining[i]!.usedCourses.some((c) => courses.has(c))) {
          const [match] = remaining.splice(i, 1);
          group.push(match!);
          match!.usedCourses.forEach((c) => courses.add(c));
          grew = true;
        }
      }
    }
    groups.push(group);
  }
  return groups;
}

function exhaustive(group: Match[]): Match[] {
  let best: Match[] = [];
  let bestCredits = -1;
  const visit = (index: number, used: Set<string>, picked: Match[], credits: number) => {
    if (index === group.length) {
      if (credits > bestCredits) [best, bestCredits] = [[...picked], credits];
      return;
    }
    const match = group[index]!;
    if (match.usedCourses.every((c) => !used.has(c))) {
      match.usedCourses.forEach((c) => used.add(c));
      picked.push(match);
      visit(index + 1, used, picked, credits + (match.targetCredits ?? 0));
      picked.pop();
      match.usedCourses.forEach((c) => used.delete(c));
    }
    visit(index + 1, used, picked, credits);
  };
  visit(0, new Set(), [], 0);
  return best;
}

function greedy(group: Match[]): Match[] {
  const used = new Set<string>();
  const picked: Match[] = [];
  for (const match of [...group].sort((a, b) => (b.targetCredits ?? 0) / b.usedCourses.length - (a.targetCredits ?? 0) / a.usedCourses.length)) {
    if (match.usedCourses.every((c) => !used.has(c))) {
      picked.push(match);
      match.usedCourses.forEach((c) => used.add(c));
    }
  }
  return picked;
}
