import * as z from 'zod/v4';
import { catalogKeys } from '../platform/store/keys.js';

/**
 * How a transfer rule appears next to each course it involves (written by transfer ingestion into
 * the course's partition as a transfer listing, catalogKeys.courseTransfer), so equivalents of a
 * course are one Query away, in both directions.
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

export function equivalencesOf(extras: Record<string, unknown>[]): Equivalence[] {
  return extras
    .filter((item) => String(item.SK).startsWith(catalogKeys.transferListingPrefix))
    .map((item) => EquivalenceSchema.safeParse(item.equivalence))
    .filter((parsed) => parsed.success)
    .map((parsed) => parsed.data!);
}

export function inForce(equivalence: Equivalence, asOf: string): boolean {
  return equivalence.effectiveStart <= asOf && (equivalence.effectiveEnd === null || equivalence.effectiveEnd >= asOf);
}
