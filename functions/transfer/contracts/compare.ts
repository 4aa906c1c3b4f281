import * as z from 'zod/v4';
import { effectiveDateInput } from '../../catalog/effective-date.js';
import { defineContract } from '../../mcp/tools/define-tool.js';
import { optionalField } from '../../mcp/tools/schema-helpers.js';
import { CompletedOnInput, SourceCoursesInput, StudentFactsInput } from '../resolve/resolve-input.js';
import { TRANSFER_TOOL } from './transfer-tool.js';
import { InstitutionInput } from './institution-input.js';

export const ReceiverSchema = z.object({
  institution: z.string().describe('Receiving institution slug, e.g. "sfu"'),
  name: z.string().nullable().describe('Its name, when Tutor Nexus knows it'),
  asOfDate: z.string().describe('The calendar date the rules were checked against there'),
  plannedCredits: z.number().describe('Credits of the best plan there, in its own unit (tn_transfer_resolve\'s plan.totalCredits)'),
  normalizedCredits: z.number().optional().describe('plannedCredits on BC\'s common scale, where a one-term course is 3 (UVic units × 2): what receivers are ranked by'),
  creditScale: z
    .object({ factor: z.number().describe('normalizedCredits = plannedCredits × factor'), unit: z.string().describe('What this receiver calls its credit, e.g. "units"'), rule: z.string().describe('The rule in words') })
    .optional()
    .describe('How this receiver\'s credit compares with the common scale'),
  optimal: z.boolean(),
  coursesTransferred: z.array(z.string()).describe('Given courses the plan uses'),
  coursesLost: z.array(z.string()).describe('Given courses that earn nothing there: no rule in force, only no-credit, partial or conditional rules, or used up by a better rule'),
  conditionalCourses: z.array(z.string()).describe('Given courses with a rule that would count once a condition holds'),
  partialCourses: z.array(z.string()).describe('Given courses that belong to a bundle missing other courses'),
  ruleIds: z.array(z.string()).describe('The planned rules; tn_transfer_resolve for this receiver shows them in full'),
});

export const compareContract = defineContract({
  ...TRANSFER_TOOL,
  name: 'transfer_compare',
  title: 'Compare where a set of courses transfers',
  description:
    'Resolves the same set of courses against every receiving institution Tutor Nexus has rules for (or the ones named). Returns the ' +
    'receivers ranked by the credits their best plan transfers on one scale (normalizedCredits: a one-term course = 3), saying per receiver which courses transfer, which are lost, and which ' +
    'would count under a condition or with more courses. Use it for "where do my Langara courses count the most?"; then tn_transfer_resolve for ' +
    'one receiver\'s details. Example: { "sourceInstitution": "langara", "sourceCourses": ["CPSC 1150", "MATH 1171", "ENGL 1127"] }.',
  input: z.strictObject({
    sourceInstitution: InstitutionInput('Sending'),
    sourceCourses: SourceCoursesInput,
    receivers: z.array(z.string().min(2).max(80)).max(40).optional().describe('Only these receiving institutions (slugs, codes or names), e.g. ["sfu", "UBCV"]; every receiver with rules when omitted'),
    asOfDate: optionalField(effectiveDateInput('Date the rules must be in force; default today')),
    completedOn: CompletedOnInput,
    ...StudentFactsInput,
  }),
  output: z.object({
    sourceInstitution: z.string(),
    receivers: z.array(ReceiverSchema).describe('Ranked: most normalizedCredits first (credits on one scale across receivers), then most courses transferred, then by slug'),
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
});
