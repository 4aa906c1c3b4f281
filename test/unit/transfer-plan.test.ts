import { describe, expect, it } from 'vitest';
import type { StudentFacts } from '../../functions/transfer/rule-text/conditions.js';
import { resolveRules } from '../../functions/transfer/resolve/resolve.js';
import { rulesFor } from '../support/transfer-rules.js';

const facts = (completedAtTarget: string[] = [], program?: string, grades: Record<string, string> = {}): StudentFacts => ({
  completedAtTarget: new Set(completedAtTarget),
  program,
  grades: new Map(Object.entries(grades)),
});
const resolve = (sender: string, receiver: string, codes: string[], asOf: string, studentFacts?: StudentFacts) =>
  resolveRules(rulesFor(sender, receiver, codes), codes, asOf, studentFacts);

/** Regressions of issue 12, each on the real row that showed it. */
describe('transfer plan on real BC Transfer Guide rows', () => {
  it('awards a specific receiving course once: LANG HIST 1115 + HIST 1130 → SFU', () => {
    const { plan, exact } = resolve('langara', 'sfu', ['HIST 1115', 'HIST 1130'], '2023-01-01');
    expect(exact.filter((m) => m.rule.targets.some((t) => t.code === 'HIST 225'))).toHaveLength(3);
    expect(plan.totalCredits).toBe(6);
    expect(plan.rules).toEqual([expect.objectContaining({ consumes: ['HIST 1115', 'HIST 1130'], credits: 6 })]);
    const overlap = plan.overlaps.find((o) => o.target === 'sfu:HIST 225')!;
    expect(overlap.ruleIds).toHaveLength(3);
    expect(overlap.awardedBy).toBe(plan.ruleIds[0]);
  });

  it('takes only what a choice rule needs: "Any 2 of" four given ENGL courses → UBC consumes two', () => {
    const codes = ['ENGL 2236', 'ENGL 2246', 'ENGL 2256', 'ENGL 2266'];
    const { plan } = resolve('langara', 'ubc', codes, '2020-01-01');
    const choice = plan.rules.find((r) => r.credits === 6)!;
    expect(choice.consumes).toHaveLength(2);
    expect(new Set(plan.rules.flatMap((r) => r.consumes)).size).toBe(plan.rules.flatMap((r) => r.consumes).length);
  });

  it('prefers the specific bundle over generic credit at equal credit: ALEX CHEM 101 + 102 → UBCV', () => {
    const { plan, exact } = resolve('alexander', 'ubc', ['CHEM 101', 'CHEM 102'], '2025-06-01');
    const bundle = exact.find((m) => m.usedCourses.length === 2)!;
    expect(bundle.rule.targets.map((t) => t.code)).toEqual(['CHEM 121', 'CHEM 123']);
    expect(plan).toMatchObject({ ruleIds: [bundle.rule.ruleId], totalCredits: 8, optimal: true });
  });

  it('keeps a conditional award out of the plan until the condition is known to hold: LANG POLI 1250 → SFU', () => {
    const unknown = resolve('langara', 'sfu', ['POLI 1250'], '2010-01-01');
    const conditional = unknown.conditional.find((m) => m.rule.rawDetail.includes('if SFU POL 231 already obtained'))!;
    expect(conditional.conditions[0]).toMatchObject({ type: 'prior-credit', courses: ['POL 231'], status: 'unknown' });
    expect(conditional.conditions[0]!.wouldHoldIf).toContain('POL 231');
    expect(unknown.exact.some((m) => m.rule.ruleId === conditional.rule.ruleId)).toBe(false);
    expect(unknown.plan.ruleIds).not.toContain(conditional.rule.ruleId);
    expect(unknown.plan.totalCredits).toBe(3);

    // The student already has SFU POL 231: the condition holds, and POL 231 cannot be awarded again.
    const known = resolve('langara', 'sfu', ['POLI 1250'], '2010-01-01', facts(['POL 231']));
    expect(known.plan.ruleIds).toEqual([conditional.rule.ruleId]);
    expect(known.exact.find((m) => m.rule.ruleId === conditional.rule.ruleId)!.conditions[0]!.status).toBe('holds');
  });

  it('types an "if" that follows an alternative as a condition of that alternative: LANG ASIA 2215 → SFU', () => {
    const { exact, conditional, plan } = resolve('langara', 'sfu', ['ASIA 2215'], '2023-01-01');
    expect(conditional).toEqual([]);
    const match = exact[0]!;
    expect(match.conditions).toEqual([expect.objectContaining({ type: 'prior-credit', appliesTo: 'SFU ASC 2XX (3)', courses: ['ASC 202'] })]);
    expect(plan.totalCredits).toBe(3);
  });

  it('flags an award larger than what is sent and leaves an implausible one out of the plan: LANG PHYS 1125 or 1225 = 8', () => {
    const { exact, plan } = resolve('langara', 'sfu', ['PHYS 1125', 'PHYS 1225'], '2010-01-01');
    const typo = exact.find((m) => m.rule.rawDetail.startsWith('LANG PHYS 1125 (4) or LANG PHYS 1225 (4)'))!;
    expect(typo.warnings[0]).toMatch(/awards 8 credits for 4 credits sent/);
    expect(typo.confidenceFactors.plausibility).toBeLessThan(0.5);
    expect(plan.ruleIds).not.toContain(typo.rule.ruleId);
    expect(plan.totalCredits).toBeLessThanOrEqual(8);
  });

  it('lists no-credit and individual-assessment rules apart from exact matches', () => {
    const { exact, individualAssessment, plan } = resolve('langara', 'sfu', ['AHIS 1119'], '2000-01-01');
    expect(individualAssessment.length).toBeGreaterThan(0);
    expect(exact.every((m) => m.rule.kind === 'credit')).toBe(true);
    expect(plan.ruleIds).toEqual([]);
  });

  it('names only the courses still missing from a partial choice, and counts completeness of what it needs', () => {
    const { partial } = resolve('langara', 'ubc', ['ENGL 2236'], '2020-01-01');
    const choice = partial.find((m) => m.rule.sourceChoice?.count === 2)!;
    expect(choice.missingCourses).toEqual(['1 more of ENGL 2246, ENGL 2256, ENGL 2266']);
    expect(choice.confidenceFactors.completeness).toBe(0.5);
  });

  it('does not lower the confidence of a long-standing rule that is still in force', () => {
    const { exact } = resolve('langara', 'sfu', ['HIST 1130'], '2023-01-01');
    const old = exact.find((m) => m.rule.effectiveStart === '1999-05-01')!;
    expect(old.confidenceFactors.age).toBe(1);
    expect(old.confidence).toBeGreaterThan(0.8);
  });
});
