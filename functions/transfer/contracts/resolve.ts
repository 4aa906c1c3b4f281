import * as z from 'zod/v4';
import { effectiveDateInput } from '../../catalog/effective-date.js';
import { optionalField } from '../../mcp/tools/schema-helpers.js';
import { defineContract } from '../../mcp/tools/define-tool.js';
import { TRANSFER_TOOL } from './transfer-tool.js';
import { InstitutionInput } from './institution-input.js';

import { MatchSchema, RuleSummarySchema } from '../resolve/match-output.js';
import { CompletedAtTargetInput, CompletedOnInput, SourceCoursesInput, StudentFactsInput } from '../resolve/resolve-input.js';
import { PlanConstraintSchema } from './plan-schema.js';


export const resolveContract = defineContract({
  ...TRANSFER_TOOL,
  name: 'transfer_resolve',
  title: 'Resolve transfer credit for a set of courses',
  description:
    'Given the courses a student took at one institution (a set; order does not matter), returns what they earn at another ' +
    'from BC Transfer Guide rules in force at a date: exactMatches (rules fully covered), partialMatches (bundled rules with ' +
    'the missing courses named), conditionalMatches (awards that hold only under a condition, with what would make it hold), ' +
    'nearMisses (no rule in force: retired rules, similar codes), conflicts, and the plan that transfers the most credit ' +
    'without using a course twice and within every limit the rows\' wording sets (only one of, precludes, caps). program, ' +
    'completedAtTarget and grades select awards that depend on them; completedOn resolves each course against the rules in force ' +
    'when it was completed. Use this for "what do I get at SFU for these Langara courses?". ' +
    'Example: { "sourceInstitution": "langara", "targetInstitution": "sfu", "sourceCourses": ["CPSC 1160", "CPSC 1181"] }.',
  input: z.strictObject({
    sourceInstitution: InstitutionInput('Sending'),
    targetInstitution: InstitutionInput('Receiving'),
    sourceCourses: SourceCoursesInput,
    asOfDate: optionalField(effectiveDateInput('Date the rules must be in force; default today')),
    completedAtTarget: CompletedAtTargetInput,
    completedOn: CompletedOnInput,
    ...StudentFactsInput,
  }),
  output: z.object({
    sourceInstitution: z.string(),
    targetInstitution: z.string(),
    asOfDate: z.string().describe('The calendar date the rules were checked against (YYYY-MM-DD), in the receiving institution\'s time zone'),
    exactMatches: z.array(MatchSchema).describe('Credit rules the given courses fully cover, with no condition left that is not known to hold'),
    partialMatches: z.array(MatchSchema),
    conditionalMatches: z
      .array(MatchSchema)
      .optional()
      .describe('Covered rules whose award depends on a condition not known to hold (see each conditions[].wouldHoldIf); never counted in the plan'),
    noCreditMatches: z.array(MatchSchema).optional().describe('Covered rules that award no credit'),
    individualAssessmentMatches: z.array(MatchSchema).optional().describe('Covered rules the receiver assesses individually'),
    nearMisses: z.array(
      z.object({
        course: z.string(),
        reason: z.enum(['not-in-force', 'similar-code', 'no-rule']),
        suggestions: z.array(RuleSummarySchema),
        confidence: z.number().min(0).max(1),
      }),
    ),
    conflicts: z.array(z.object({ courses: z.array(z.string()), ruleIds: z.array(z.string()) })),
    normalizedCourses: z
      .array(z.object({ input: z.string(), code: z.string() }))
      .describe('Inputs read as a different code (e.g. "CPSC1160" as "CPSC 1160"); tell the student when this matters'),
    plan: z
      .object({
        ruleIds: z.array(z.string()),
        totalCredits: z.number(),
        normalizedCredits: z.number().optional().describe('On the common scale (one-term course = 3)'),
        creditScale: z.object({ factor: z.number(), unit: z.string(), rule: z.string() }).optional(),
        optimal: z.boolean().describe('True when the plan is proven the best; false when the search stopped at its budget'),
        rules: z
          .array(
            z.object({
              ruleId: z.string(),
              consumes: z.array(z.string()).describe('Given courses this rule uses up (a choice rule takes only what it needs)'),
              credits: z.number(),
              awards: z.array(z.string()).optional().describe('What the plan takes from the rule, as published, when it is not its main award'),
              basis: z
                .enum(['main', 'alternative', 'conditional', 'partial', 'situational'])
                .optional()
                .describe('alternative: one the wording offers instead; conditional: an award under a condition that holds; partial: what part of a bundle earns; situational: either of two awards applies'),
            }),
          )
          .optional(),
        overlaps: z
          .array(z.object({ target: z.string(), ruleIds: z.array(z.string()), awardedBy: z.string().nullable().describe('The plan rule that awards it; null when none does') }))
          .optional()
          .describe('Specific receiving courses that several exact matches award: a student receives each once'),
        constraints: z.array(PlanConstraintSchema).optional().describe('Limits the wording of the rules puts on the plan: the plan respects every one'),
      })
      .describe(
        'Exact matches that transfer the most credit with each given course used once, each specific receiving course awarded once (more only where the wording lets it be taken more than once), and every limit the wording sets respected (plan.constraints); among equal credit, specific courses before generic before elective, then newer rules',
      ),
    roundTrips: z.number().int().describe('Store round trips this answer took'),
  }),
  category: 'analysis',
  responseTime: 'medium',
  tags: ['transfer'],
  examples: [
    { description: 'Langara CPSC 1160 and 1181 to SFU', input: { sourceInstitution: 'langara', targetInstitution: 'sfu', sourceCourses: ['CPSC 1160', 'CPSC 1181'] }, expect: 'success' },
    { description: 'Only one course of a bundle: partial match', input: { sourceInstitution: 'LANG', targetInstitution: 'SFU', sourceCourses: ['CPSC1160'] }, expect: 'success' },
    { description: 'A malformed course code is refused', input: { sourceInstitution: 'langara', targetInstitution: 'sfu', sourceCourses: ['not a course'] }, expect: 'BAD_REQUEST' },
  ],
});
