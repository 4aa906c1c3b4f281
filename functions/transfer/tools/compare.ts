import { bindCatalogTool } from '../../catalog/catalog-tool.js';
import { catalogCacheFor } from '../../catalog/catalog-cache.js';
import { effectiveDate, institutionTimeZone } from '../../catalog/effective-date.js';
import { findInstitution } from '../../catalog/institutions.js';
import { explainNoRules, institutionInput } from '../institution-input.js';
import { compareReceivers } from '../resolve/receiver-comparison.js';
import { readCompletedOn, readSourceCourses, studentFacts } from '../resolve/resolve-input.js';
import { catalogueCredits } from '../resolve/sending-credits.js';
import { indexedRules } from '../transfer-index-store.js';
import { RoundTrips } from '../transfer-store.js';
import { compareContract } from '../contracts/compare.js';

export const compareTool = bindCatalogTool(compareContract, async (args, ctx) => {
  const store = ctx.services.store;
  const sender = await institutionInput(store, args.sourceInstitution, 'sourceInstitution');
  const { codes, normalized } = readSourceCourses(args.sourceCourses);
  const completedOn = readCompletedOn(args.completedOn, codes);
  const only = args.receivers ? new Set(await Promise.all(args.receivers.map((r, i) => institutionInput(store, r, `receivers.${i}`)))) : undefined;
  const trips = new RoundTrips();
  const version = await catalogCacheFor(store).currentVersion();
  const rules = (await indexedRules(store, sender, undefined, codes, trips, version)).filter((rule) => !only || only.has(rule.receiverInstitution));
  if (!rules.length) {
    const none = await explainNoRules(store, sender);
    if (none) throw none;
  }
  const sendingCredits = await catalogueCredits(store, sender, codes, rules, trips);
  const receivers = compareReceivers({
    rules,
    codes,
    facts: studentFacts(args),
    asOfFor: (receiver) => effectiveDate(args.asOfDate, ctx.now(), institutionTimeZone(receiver)),
    options: { ...(completedOn ? { completedOn } : {}), sendingCredits },
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
        ? receivers.slice(0, 5).map((r) => `${r.institution}: ${r.plannedCredits} ${r.creditScale.unit}${r.creditScale.factor !== 1 ? ` (${r.normalizedCredits} on the common scale)` : ''} from ${r.coursesTransferred.length} of ${codes.length} courses${r.coursesLost.length ? `, loses ${r.coursesLost.join(', ')}` : ''}`).join('; ')
        : 'No receiver has rules for these courses.',
      validityPeriod: 'long',
    },
  };
});
