import * as z from 'zod/v4';
import { TransferConditionSchema } from '../rule-text/conditions.js';
import { TransferTargetSchema, type TransferRule } from '../rule-model.js';
import type { Match } from './resolve.js';

export const MatchSchema = z.object({
  ruleId: z.string().describe('Pass to tn_transfer_details for the full rule and its history'),
  sourceCourses: z.array(z.object({ ref: z.string(), credits: z.number().nullable() })).describe('Every course the rule needs'),
  usedCourses: z.array(z.string()).describe('Given courses this rule uses'),
  missingCourses: z.array(z.string()).describe('Courses still needed (partial matches); empty for exact matches'),
  targets: z.array(TransferTargetSchema).describe('What is awarded: specific courses, generic credit (CPSC 1XX), electives, no credit, exemptions'),
  targetKinds: z.array(z.string()),
  sourceCredits: z.number().nullable(),
  targetCredits: z.number().nullable().describe('Credits awarded (may differ from the source credits: credit conversion)'),
  condition: z.string().nullable(),
  effectiveStart: z.string(),
  effectiveEnd: z.string().nullable(),
  evidence: z.array(z.object({ label: z.string(), url: z.string() })),
  confidence: z.number().min(0).max(1),
  confidenceFactors: z.object({
    provenance: z.number(),
    age: z.number().describe('1 for a rule in force a year or more; lower while a new rule may still be revised'),
    parse: z.number(),
    completeness: z.number().describe('Share of what the rule needs that was given (partial matches)'),
    plausibility: z.number().optional().describe('Below 1 when the rule awards more credit than it takes in'),
  }),
  conditions: z
    .array(
      TransferConditionSchema.extend({
        status: z.enum(['holds', 'fails', 'unknown']).describe('Whether the condition holds for what the call said about the student'),
        wouldHoldIf: z.string().describe('What would make it hold'),
      }),
    )
    .optional()
    .describe('Typed conditions of the award, evaluated against completedAtTarget, program and grades'),
  warnings: z.array(z.string()).optional().describe('Plausibility problems, e.g. an award larger than what is sent'),
  award: z
    .object({
      basis: z
        .enum(['conditional', 'partial', 'situational'])
        .describe('conditional: an award the wording gives under a condition that holds; partial: what part of a bundle earns; situational: one of two awards whose conditions are each other\'s opposite applies, so the smaller credit is certain'),
      targets: z.array(z.object({ text: z.string(), kind: z.string(), code: z.string().optional(), credits: z.number().nullable() })).describe('What is awarded (situational: the awards either of which applies)'),
      credits: z.number().nullable().describe('Credits this award gives (targetCredits)'),
      because: z.string().describe('The wording that gives it'),
    })
    .optional()
    .describe('The award that applies when it is not `targets`: e.g. "SFU CMPT 104 (2)" for a student who already has SFU CMPT 102'),
  checkedOn: z.string().optional().describe('The date the rule was checked in force on: when the courses it uses were completed (completedOn), else asOfDate'),
});
export type MatchOutput = z.infer<typeof MatchSchema>;

export function matchOutput(match: Match): MatchOutput {
  const rule = match.rule;
  return {
    ruleId: rule.ruleId,
    sourceCourses: rule.sourceCourses.map((c) => ({ ref: `${c.institution}:${c.code}`, credits: c.credits })),
    usedCourses: match.usedCourses.map((code) => `${rule.senderInstitution}:${code}`),
    missingCourses: match.missingCourses.map((code) => (/^[A-Z]{2,5} \w+$/.test(code) ? `${rule.senderInstitution}:${code}` : code)),
    targets: rule.targets,
    targetKinds: [...new Set(rule.targets.map((t) => t.kind))],
    sourceCredits: match.sourceCredits,
    targetCredits: match.targetCredits,
    condition: rule.conditionText,
    effectiveStart: rule.effectiveStart,
    effectiveEnd: rule.effectiveEnd,
    evidence: rule.evidence,
    confidence: match.confidence,
    confidenceFactors: match.confidenceFactors,
    conditions: match.conditions,
    warnings: match.warnings,
    ...(match.award
      ? {
          award: {
            basis: match.award.basis,
            targets: match.award.outcomes.flatMap((o) => o.targets).map((t) => ({ text: t.text, kind: t.kind, ...(t.code ? { code: t.code } : {}), credits: t.credits })),
            credits: match.award.credits,
            because: match.award.outcomes.map((o) => o.text).join(' | '),
          },
        }
      : {}),
    checkedOn: match.checkedOn,
  };
}

export const RuleSummarySchema = z.object({
  ruleId: z.string(),
  sourceCourses: z.array(z.string()),
  targets: z.array(z.string()).describe('Target expressions as published'),
  kind: z.string(),
  effectiveStart: z.string(),
  effectiveEnd: z.string().nullable(),
  condition: z.string().nullable(),
});

export type RuleSummary = z.infer<typeof RuleSummarySchema>;

export function ruleSummary(rule: TransferRule): RuleSummary {
  return {
    ruleId: rule.ruleId,
    sourceCourses: rule.sourceCourses.map((c) => `${c.institution}:${c.code}`),
    targets: rule.targets.map((t) => t.text),
    kind: rule.kind,
    effectiveStart: rule.effectiveStart,
    effectiveEnd: rule.effectiveEnd,
    condition: rule.conditionText,
  };
}
