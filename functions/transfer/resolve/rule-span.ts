import type { TransferRule } from '../rule-model.js';

export function inForce(rule: { effectiveStart: string; effectiveEnd: string | null }, asOf: string): boolean {
  return rule.effectiveStart <= asOf && (rule.effectiveEnd === null || rule.effectiveEnd >= asOf);
}

/** The date a rule is checked on: when the last of the given courses it uses was completed (the resolve's date for courses without one). */
export function dateFor(codes: string[], asOf: string, completedOn?: Map<string, string>): string {
  return codes.map((code) => completedOn?.get(code) ?? asOf).sort().at(-1) ?? asOf;
}

/** The rule's sending side: courses always required, and an optional "any N of" choice. */
export function sendingSide(rule: TransferRule) {
  const codes = [...new Set(rule.sourceCourses.map((c) => c.code))];
  const choice = rule.sourceChoice;
  return { codes, required: choice ? codes.filter((code) => !choice.from.includes(code)) : codes, choice };
}
