import * as z from 'zod/v4';
import { effectiveDate, effectiveDateInput, institutionTimeZone } from '../../shared/catalog/effective-date.js';
import { findInstitution, institutionId } from '../../shared/catalog/institutions.js';
import { defineTool } from '../../shared/tools/define-tool.js';
import { optionalField } from '../../shared/tools/schema-helpers.js';
import { compareReceivers } from '../receiver-comparison.js';
import { readSourceCourses, SourceCoursesInput, StudentFactsInput, studentFacts } from '../resolve-input.js';
import { TRANSFER_TOOL } from '../transfer-tool.js';
import { getRules, outgoingRuleIds, RoundTrips } from '../transfer-store.js';

const ReceiverSchema = z.object({
  institution: z.string().describe('Receiving institution slug, e.g. "sfu"'),
  name: z.string().nullable().describe('Its name, when Tutor Nexus knows it'),
  asOfDate: z.string().describe('The calendar date the rules were checked against there'),
  plannedCredits: z.number().describe('Credits of the best plan there (tn_transfer_resolve\'s plan.totalCredits)'),
  optimal: z.boolean(),
  coursesTransferred: z.array(z.string()).describe('Given courses the plan uses'),
  coursesLost: z.array(z.string()).describe('Given courses that earn nothing there: no rule in force, only no-credit, partial or conditional rules, or used up by a better rule'),
  conditionalCourses: z.array(z.string()).describe('Given courses with a rule that would count once a condition holds'),
  partialCourses: z.array(z.string()).describe('Given courses that belong to a bundle missing other courses'),
  ruleIds: z.array(z.string()).describe('The planned rules; tn_transfer_resolve for this receiver shows them in full'),
});

export const compareTool = defineTool({
  ...TRANSFER_TOOL,
  name: 'transfer_compare',
  title: 'Compare where a set of courses transfers',
  description:
    'Resolves the same set of courses against every receiving institution Tutor Nexus has rules for (or the ones named). Returns the ' +
    'receivers ranked by the credits their best plan transfers, saying per receiver which courses transfer, which are lost, and which ' +
    'would count under a condition or with more courses. Use it for "where do my Langara courses count the most?"; then tn_transfer_resolve for ' +
    'one receiver\'s details. Example: { "sourceInstitution": "langara", "sourceCourses": ["CPSC 1150", "MATH 1171", "ENGL 1127"] }.',
  input: z.strictObject({
    sourceInstitution: z.string().min(2).max(40).describe('Sending institution: slug or BC Transfer Guide code, e.g. "langara" or "LANG"'),
    sourceCourses: SourceCoursesInput,
    receivers: z.array(z.string().min(2).max(40)).max(40).optional().describe('Only these receiving institutions, e.g. ["sfu", "UBCV"]; every receiver with rules when omitted'),
    asOfDate: optionalField(effectiveDateInput('Date the rules must be in force; default today')),
    ...StudentFactsInput,
  }),
  output: z.object({
    sourceInstitution: z.string(),
    receivers: z.array(ReceiverSchema).describe('Ranked: most planned credits first, then most courses transferred, then by slug'),
    normalizedCourses: z.array(z.object({ input: z.string(), code: z.string() })).describe('Inputs read as a different code'),
    roundTrips: z.number().int().describe('Store round trips this answer took'),
  }),
  category: 'analysis',
  responseTime: 'medium',
  tags: ['transfer'],
  examples: [
    { description: 'Langara computing and math courses, every receiver', input: { sourceInstitution: 'langara', sourceCourses: ['CPSC 1150', 'MATH 1171'] }, expect: 'success' },
    { description: 'Only SFU and UBC Vancouver', input: { sourceInstitution: 'LANG', sourceCourses: ['CPSC 1150'], receivers: ['sfu', 'UBCV'] }, expect: 'success' },
  ],
  async handler(args, ctx) {
    const sender = institutionId(args.sourceInstitution);
    const { codes, normalized } = readSourceCourses(args.sourceCourses);
    const only = args.receivers ? new Set(args.receivers.map(institutionId)) : undefined;
    const trips = new RoundTrips();
    const listed = (await Promise.all(codes.map((code) => outgoingRuleIds(ctx.services.store, sender, code, trips)))).flat().filter((entry) => !only || only.has(entry.receiver));
    const rules = await getRules(ctx.services.store, listed.map((entry) => entry.ruleId), trips);
    const receivers = compareReceivers({
      rules,
      codes,
      facts: studentFacts(args),
      asOfFor: (receiver) => effectiveDate(args.asOfDate, ctx.now(), institutionTimeZone(receiver)),
    }).map((entry) => {
      const refs = (codes: string[]) => codes.map((code) => `${sender}:${code}`);
      return {
        ...entry,
        name: findInstitution(entry.institution)?.name ?? null,
        coursesTransferred: refs(entry.coursesTransferred),
        coursesLost: refs(entry.coursesLost),
        conditionalCourses: refs(entry.conditionalCourses),
        partialCourses: refs(entry.partialCourses),
      };
    });
    const best = receivers[0];
    return {
      data: {
        sourceInstitution: sender,
        receivers,
        normalizedCourses: normalized.filter((n) => n.input.trim() !== n.code).map((n) => ({ input: n.input, code: `${sender}:${n.code}` })),
        roundTrips: trips.count,
      },
      hints: {
        confidence: [
          { name: 'receivers-with-rules', value: receivers.length ? 1 : 0 },
          { name: 'share-transferred-at-best', value: best && codes.length ? best.coursesTransferred.length / codes.length : 0 },
        ],
        nextActions: best
          ? [{ action: 'resolve-best', priority: 'high', tool: 'tn_transfer_resolve', description: `see the plan at ${best.institution} in full`, data: { sourceInstitution: sender, targetInstitution: best.institution, sourceCourses: codes } }]
          : [],
        assumptions: ['BC Transfer Guide rules as ingested; receivers without rules for any of these courses are not listed; each receiver makes the final assessment'],
        reasoning: best
          ? receivers.slice(0, 5).map((r) => `${r.institution}: ${r.plannedCredits} credits from ${r.coursesTransferred.length} of ${codes.length} courses${r.coursesLost.length ? `, loses ${r.coursesLost.join(', ')}` : ''}`).join('; ')
          : 'No receiver has rules for these courses.',
        validityPeriod: 'long',
      },
    };
  },
});
