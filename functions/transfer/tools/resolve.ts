import * as z from 'zod/v4';
import { effectiveDate, effectiveDateInput, institutionTimeZone } from '../../shared/catalog/effective-date.js';
import { institutionId } from '../../shared/catalog/institutions.js';
import { optionalField } from '../../shared/tools/schema-helpers.js';
import { defineTool } from '../../shared/tools/define-tool.js';
import { TRANSFER_TOOL } from '../transfer-tool.js';
import { matchOutput, MatchSchema, RuleSummarySchema } from '../match-output.js';
import { explainPlan } from '../plan-explanation.js';
import { CompletedAtTargetInput, readSourceCourses, SourceCoursesInput, StudentFactsInput, studentFacts } from '../resolve-input.js';
import { resolveRules } from '../resolve.js';
import { catalogCacheFor } from '../../course/catalog-cache.js';
import { nearMissesFor } from '../near-misses.js';
import { indexedRules } from '../transfer-index.js';
import { listedRules, RoundTrips } from '../transfer-store.js';

const InstitutionInput = (role: string) => z.string().min(2).max(40).describe(`${role} institution: slug or BC Transfer Guide code, e.g. "langara" or "LANG"`);

export const resolveTool = defineTool({
  ...TRANSFER_TOOL,
  name: 'transfer_resolve',
  title: 'Resolve transfer credit for a set of courses',
  description:
    'Given the courses a student took at one institution (a set; order does not matter), returns what they earn at another ' +
    'from BC Transfer Guide rules in force at a date: exactMatches (rules fully covered), partialMatches (bundled rules with ' +
    'the missing courses named), nearMisses (codes with no rule in force: retired rules, similar codes), conflicts, and the plan ' +
    'that transfers the most credit without using a course twice. Use this for "what do I get at SFU for these Langara courses?". ' +
    'Example: { "sourceInstitution": "langara", "targetInstitution": "sfu", "sourceCourses": ["CPSC 1160", "CPSC 1181"] }.',
  input: z.strictObject({
    sourceInstitution: InstitutionInput('Sending'),
    targetInstitution: InstitutionInput('Receiving'),
    sourceCourses: SourceCoursesInput,
    asOfDate: optionalField(effectiveDateInput('Date the rules must be in force; default today')),
    completedAtTarget: CompletedAtTargetInput,
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
        optimal: z.boolean().describe('True when the plan is proven the best; false when the search stopped at its budget'),
        rules: z
          .array(z.object({ ruleId: z.string(), consumes: z.array(z.string()).describe('Given courses this rule uses up (a choice rule takes only what it needs)'), credits: z.number() }))
          .optional(),
        overlaps: z
          .array(z.object({ target: z.string(), ruleIds: z.array(z.string()), awardedBy: z.string().nullable().describe('The plan rule that awards it; null when none does') }))
          .optional()
          .describe('Specific receiving courses that several exact matches award: a student receives each once'),
      })
      .describe('Exact matches that transfer the most credit with each given course used once and each specific receiving course awarded once; among equal credit, specific courses before generic before elective, then newer rules'),
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
  async handler(args, ctx) {
    const sender = institutionId(args.sourceInstitution);
    const receiver = institutionId(args.targetInstitution);
    const { codes, normalized } = readSourceCourses(args.sourceCourses);
    const facts = studentFacts(args);
    const asOf = effectiveDate(args.asOfDate, ctx.now(), institutionTimeZone(receiver));
    const trips = new RoundTrips();
    const store = ctx.services.store;
    const version = await catalogCacheFor(store).currentVersion();
    const indexed = await indexedRules(store, sender, receiver, codes, trips, version);
    const rules = indexed ?? (await listedRules(store, sender, receiver, codes, trips));
    const resolution = resolveRules(rules, codes, asOf, facts);
    const covered = new Set(
      [...resolution.exact, ...resolution.partial, ...resolution.conditional, ...resolution.noCredit, ...resolution.individualAssessment].flatMap((m) => m.usedCourses),
    );
    const nearMisses = await nearMissesFor({
      store,
      sender,
      receiver,
      uncovered: codes.filter((code) => !covered.has(code)),
      rules,
      asOf,
      trips,
      ...(indexed ? { readIndexed: async (more: string[]) => (await indexedRules(store, sender, receiver, more, trips, version)) ?? [] } : {}),
    });
    const exact = resolution.exact.map(matchOutput);
    return {
      data: {
        sourceInstitution: sender,
        targetInstitution: receiver,
        asOfDate: asOf,
        exactMatches: exact,
        partialMatches: resolution.partial.map(matchOutput),
        conditionalMatches: resolution.conditional.map(matchOutput),
        noCreditMatches: resolution.noCredit.map(matchOutput),
        individualAssessmentMatches: resolution.individualAssessment.map(matchOutput),
        nearMisses,
        conflicts: resolution.conflicts,
        normalizedCourses: normalized.filter((n) => n.input.trim() !== n.code).map((n) => ({ input: n.input, code: `${sender}:${n.code}` })),
        plan: resolution.plan,
        roundTrips: trips.count,
      },
      hints: {
        confidence: [
          { name: 'courses-with-exact-rules', value: codes.length ? new Set(resolution.exact.flatMap((m) => m.usedCourses)).size / codes.length : 0 },
          { name: 'mean-match-confidence', value: exact.length ? exact.reduce((s, m) => s + m.confidence, 0) / exact.length : 0 },
        ],
        warnings: [
          ...(resolution.conflicts.length
            ? [{ type: 'conflict' as const, severity: 'medium' as const, message: 'Several rules in force at the same time award different credit for the same courses; both are shown.' }]
            : []),
          ...(resolution.conditional.length
            ? [{ type: 'validation' as const, severity: 'medium' as const, message: 'Some awards depend on conditions not known to hold; they are in conditionalMatches, not in the plan.', suggestedFix: 'Ask the student and pass completedAtTarget, program or grades.' }]
            : []),
          ...[...resolution.exact, ...resolution.partial].filter((m) => m.warnings.length).slice(0, 5).map((m) => ({ type: 'validation' as const, severity: 'low' as const, message: `${m.rule.rawDetail}: ${m.warnings[0]}` })),
        ],
        nextActions: [{ action: 'rule-details', priority: 'low', tool: 'tn_transfer_details', description: 'show the full text and history of a rule' }],
        assumptions: ['BC Transfer Guide rules as ingested; the receiving institution makes the final assessment'],
        reasoning: explainPlan(resolution),
        validityPeriod: 'long',
      },
    };
  },
});
