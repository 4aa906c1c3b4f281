import { creditScaleOf, type CreditScale } from '../../catalog/institutions.js';
import type { StudentFacts } from '../rule-text/conditions.js';
import { resolveRules, type ResolveOptions } from './resolve.js';
import type { TransferRule } from '../rule-model.js';

export interface ReceiverOutcome {
  institution: string;
  asOfDate: string;
  plannedCredits: number;
  /** plannedCredits on BC's common scale (a one-term course = 3), the measure receivers are ranked by. */
  normalizedCredits: number;
  creditScale: CreditScale;
  optimal: boolean;
  coursesTransferred: string[];
  coursesLost: string[];
  conditionalCourses: string[];
  partialCourses: string[];
  ruleIds: string[];
}

/**
 * The same course set planned at every receiver the rules name, ranked by planned credit on BC's
 * common scale (UVic's units count double: 1.5 units is a one-term course), then by courses
 * transferred, then by slug (so the ranking never depends on the order rules were read in).
 */
export function compareReceivers(args: { rules: TransferRule[]; codes: string[]; facts: StudentFacts; asOfFor: (receiver: string) => string; options?: ResolveOptions }): ReceiverOutcome[] {
  const byReceiver = new Map<string, TransferRule[]>();
  for (const rule of args.rules) byReceiver.set(rule.receiverInstitution, [...(byReceiver.get(rule.receiverInstitution) ?? []), rule]);
  const outcomes = [...byReceiver].map(([institution, rules]): ReceiverOutcome => {
    const asOfDate = args.asOfFor(institution);
    // Facts about prior credit name one receiver's courses; comparing receivers uses only program and grades.
    const resolution = resolveRules(rules, args.codes, asOfDate, { ...args.facts, completedAtTarget: new Set() }, args.options);
    const creditScale = creditScaleOf(institution);
    const transferred = new Set(resolution.plan.rules.flatMap((r) => r.consumes));
    const usedBy = (matches: typeof resolution.exact) => new Set(matches.flatMap((m) => m.usedCourses));
    const conditional = usedBy(resolution.conditional);
    const partial = usedBy(resolution.partial);
    return {
      institution,
      asOfDate,
      plannedCredits: resolution.plan.totalCredits,
      normalizedCredits: Math.round(resolution.plan.totalCredits * creditScale.factor * 100) / 100,
      creditScale,
      optimal: resolution.plan.optimal,
      coursesTransferred: args.codes.filter((code) => transferred.has(code)),
      coursesLost: args.codes.filter((code) => !transferred.has(code)),
      conditionalCourses: args.codes.filter((code) => conditional.has(code) && !transferred.has(code)),
      partialCourses: args.codes.filter((code) => partial.has(code) && !transferred.has(code)),
      ruleIds: resolution.plan.ruleIds,
    };
  });
  return outcomes
    .filter((outcome) => outcome.plannedCredits > 0 || outcome.conditionalCourses.length || outcome.partialCourses.length)
    .sort((a, b) => b.normalizedCredits - a.normalizedCredits || b.coursesTransferred.length - a.coursesTransferred.length || a.institution.localeCompare(b.institution));
}
