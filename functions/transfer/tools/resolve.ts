import { bindCatalogTool } from '../../course/course-lookup.js';
import { effectiveDate, institutionTimeZone } from '../../shared/catalog/effective-date.js';
import { institutionId } from '../../shared/catalog/institutions.js';
import { matchOutput } from '../match-output.js';
import { explainPlan } from '../plan-explanation.js';
import { readSourceCourses, studentFacts } from '../resolve-input.js';
import { resolveRules } from '../resolve.js';
import { catalogCacheFor } from '../../course/catalog-cache.js';
import { nearMissesFor } from '../near-misses.js';
import { indexedRules } from '../transfer-index-store.js';
import { listedRules, RoundTrips } from '../transfer-store.js';
import { resolveContract } from '../contracts/resolve.js';

export const resolveTool = bindCatalogTool(resolveContract, async (args, ctx) => {
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
});
