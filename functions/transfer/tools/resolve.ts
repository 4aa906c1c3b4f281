import { creditScaleOf } from '../../catalog/institutions.js';
import { bindCatalogTool } from '../../catalog/catalog-tool.js';
import { effectiveDate, institutionTimeZone } from '../../catalog/effective-date.js';
import { matchOutput } from '../resolve/match-output.js';
import { explainPlan } from '../resolve/plan-explanation.js';
import { readCompletedOn, readSourceCourses, studentFacts } from '../resolve/resolve-input.js';
import { resolveRules } from '../resolve/resolve.js';
import { catalogCacheFor } from '../../catalog/catalog-cache.js';
import { explainNoRules, institutionInput } from '../institution-input.js';
import { nearMissesFor } from '../resolve/near-misses.js';
import { catalogueCredits } from '../resolve/sending-credits.js';
import { indexedRules } from '../transfer-index-store.js';
import { RoundTrips } from '../transfer-store.js';
import { resolveContract } from '../contracts/resolve.js';

export const resolveTool = bindCatalogTool(resolveContract, async (args, ctx) => {
  const store = ctx.services.store;
  const [sender, receiver] = await Promise.all([institutionInput(store, args.sourceInstitution, 'sourceInstitution'), institutionInput(store, args.targetInstitution, 'targetInstitution')]);
  const { codes, normalized } = readSourceCourses(args.sourceCourses);
  const completedOn = readCompletedOn(args.completedOn, codes);
  const facts = studentFacts(args);
  const asOf = effectiveDate(args.asOfDate, ctx.now(), institutionTimeZone(receiver));
  const trips = new RoundTrips();
  const version = await catalogCacheFor(store).currentVersion();
  const rules = await indexedRules(store, sender, receiver, codes, trips, version);
  if (!rules.length) {
    const none = await explainNoRules(store, sender, receiver);
    if (none) throw none;
  }
  const sendingCredits = await catalogueCredits(store, sender, codes, rules, trips);
  const resolution = resolveRules(rules, codes, asOf, facts, { ...(completedOn ? { completedOn } : {}), sendingCredits });
  const covered = new Set(
    [...resolution.exact, ...resolution.partial, ...resolution.conditional, ...resolution.noCredit, ...resolution.individualAssessment].flatMap((m) => m.usedCourses),
  );
  const nearMisses = await nearMissesFor({
    sender,
    uncovered: codes.filter((code) => !covered.has(code)),
    rules,
    asOf,
    ...(completedOn ? { completedOn } : {}),
    readIndexed: (more: string[]) => indexedRules(store, sender, receiver, more, trips, version),
  });
  const exact = resolution.exact.map(matchOutput);
  const limits = resolution.plan.constraints.filter((c) => c.limitedPlan);
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
      // The receiver's own unit and BC's common scale, so "6 units at UVic" reads as the 12 credits it is.
      plan: { ...resolution.plan, normalizedCredits: Math.round(resolution.plan.totalCredits * creditScaleOf(receiver).factor * 100) / 100, creditScale: creditScaleOf(receiver) },
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
        ...limits.map((c) => ({ type: 'validation' as const, severity: 'medium' as const, message: `The plan counts less because the wording says: "${c.text}"` })),
        ...[...resolution.exact, ...resolution.partial].filter((m) => m.warnings.length).slice(0, 5).map((m) => ({ type: 'validation' as const, severity: 'low' as const, message: `${m.rule.rawDetail}: ${m.warnings[0]}` })),
      ],
      nextActions: [{ action: 'rule-details', priority: 'low', tool: 'tn_transfer_details', description: 'show the full text and history of a rule' }],
      assumptions: ['BC Transfer Guide rules as ingested; the receiving institution makes the final assessment'],
      reasoning: explainPlan(resolution),
      validityPeriod: 'long',
    },
  };
});
