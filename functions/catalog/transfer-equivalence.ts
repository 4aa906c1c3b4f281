import * as z from 'zod/v4';
import type { CourseBundle } from './catalog-store.js';

/**
 * How a transfer rule appears next to each course it involves: transfer ingestion stores the rules a
 * course sends and receives in the course's own partition, so its equivalents come with the course's
 * one Query, in both directions.
 */
export const EquivalenceSchema = z.object({
  ruleId: z.string(),
  direction: z.enum(['outgoing', 'incoming']).describe('outgoing: this course earns credit elsewhere; incoming: a course elsewhere earns credit here'),
  otherInstitution: z.string(),
  sourceCourses: z.array(z.string()).describe('Refs of the courses the rule needs, e.g. ["langara:CPSC 1150"]'),
  targets: z.array(
    z.object({
      kind: z.enum(['course', 'generic', 'elective', 'no-credit', 'individual-assessment', 'exemption', 'unparsed']),
      ref: z.string().optional(),
      text: z.string(),
      credits: z.number().nullable().optional(),
    }),
  ),
  effectiveStart: z.string(),
  effectiveEnd: z.string().nullable(),
  condition: z.string().nullable().optional(),
  evidence: z.array(z.object({ label: z.string(), url: z.string() })),
});
export type Equivalence = z.infer<typeof EquivalenceSchema>;

/** What of a stored transfer rule an equivalence shows (the rule's own model lives in the transfer domain). */
interface StoredRule {
  ruleId: string;
  senderInstitution: string;
  receiverInstitution: string;
  sourceCourses: { institution: string; code: string }[];
  targets: { kind: Equivalence['targets'][number]['kind']; institution?: string; code?: string; text: string; credits: number | null }[];
  effectiveStart: string;
  effectiveEnd: string | null;
  conditionText?: string | null;
  evidence: { label: string; url: string }[];
}

export function equivalencesOf(rules: CourseBundle['transferRules']): Equivalence[] {
  return rules
    .map(({ direction, rule }) => EquivalenceSchema.safeParse(equivalenceOf(rule as unknown as StoredRule, direction)))
    .filter((parsed) => parsed.success)
    .map((parsed) => parsed.data!);
}

function equivalenceOf(rule: StoredRule, direction: Equivalence['direction']): Equivalence {
  return {
    ruleId: rule.ruleId,
    direction,
    otherInstitution: direction === 'outgoing' ? rule.receiverInstitution : rule.senderInstitution,
    sourceCourses: rule.sourceCourses.map((c) => `${c.institution}:${c.code}`),
    targets: rule.targets.map((t) => ({ kind: t.kind, ...(t.code ? { ref: `${t.institution ?? rule.receiverInstitution}:${t.code}` } : {}), text: t.text, credits: t.credits })),
    effectiveStart: rule.effectiveStart,
    effectiveEnd: rule.effectiveEnd,
    condition: rule.conditionText,
    evidence: rule.evidence,
  };
}

export function inForce(equivalence: Equivalence, asOf: string): boolean {
  return equivalence.effectiveStart <= asOf && (equivalence.effectiveEnd === null || equivalence.effectiveEnd >= asOf);
}
