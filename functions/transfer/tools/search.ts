import { bindCatalogTool } from '../../catalog/catalog-tool.js';
import { effectiveDate, institutionTimeZone } from '../../catalog/effective-date.js';
import { courseCodeInput } from '../resolve/resolve-input.js';
import { ToolError } from '../../mcp/tools/errors.js';
import { awardedKeys, targetCourseInput } from '../award-forms.js';
import { institutionInput } from '../institution-input.js';
import { currentReading } from '../rule-text/rule-reread.js';
import { ruleSummary } from '../resolve/match-output.js';
import { inForce } from '../resolve/resolve.js';
import type { Store } from '../../platform/store/dynamo-client.js';
import { catalogKeys } from '../../platform/store/keys.js';
import type { TransferRule } from '../rule-model.js';
import { getRules, pairRules, RoundTrips, rulesAwarding, type PairPage } from '../transfer-store.js';
import { searchContract } from '../contracts/search.js';

export const searchTool = bindCatalogTool(searchContract, async (args, ctx) => {
  const store = ctx.services.store;
  const [sender, receiver] = await Promise.all([
    args.sourceInstitution === undefined ? undefined : institutionInput(store, args.sourceInstitution, 'sourceInstitution'),
    institutionInput(store, args.targetInstitution, 'targetInstitution'),
  ]);
  const code = args.course ? courseCodeInput(args.course, 'course') : undefined;
  const target = args.targetCourse ? targetCourseInput(args.targetCourse, 'targetCourse') : undefined;
  if (!sender && !target) {
    throw ToolError.badRequest('sourceInstitution is required unless targetCourse is given.', [{ field: 'sourceInstitution', message: 'required without targetCourse' }]);
  }
  const prefix = code ? catalogKeys.pairCoursePrefix(code) : args.subject ? catalogKeys.pairSubjectPrefix(args.subject.toUpperCase()) : undefined;
  const asOf = args.asOfDate === undefined ? undefined : effectiveDate(args.asOfDate, ctx.now(), institutionTimeZone(receiver));
  const scope = { tool: ctx.toolName, query: [sender, receiver, prefix, asOf, target] };
  const startKey = args.cursor ? ctx.services.cursors.decode<Record<string, unknown>>(scope, args.cursor) : undefined;
  const page = target
    ? await awardingPage(store, { receiver, code: target, sender, limit: args.limit, startKey })
    : await pairRules(store, { sender: sender!, receiver, prefix, limit: args.limit, startKey });
  const sendingMatches = (r: TransferRule) => !target || !prefix || r.sourceCourses.some((c) => (code ? c.code === code : c.code.startsWith(prefix)));
  const rules = page.rules.filter((r) => (!asOf || inForce(r, asOf)) && sendingMatches(r));
  return {
    data: {
      items: rules.map((rule) => ({ ...ruleSummary(rule), ...(target ? { awardedAs: awardedKeys(currentReading(rule)).get(target) ?? ['target' as const] } : {}) })),
      ...(page.lastKey ? { nextCursor: ctx.services.cursors.encode(scope, page.lastKey) } : {}),
      hasMore: Boolean(page.lastKey),
    },
    hints: {
      confidence: [
        { name: 'rules-found', value: rules.length ? 1 : 0 },
        { name: 'typed-targets', value: rules.length ? rules.filter((r) => r.fullyParsed).length / rules.length : 0 },
      ],
      nextActions: [{ action: 'resolve', priority: 'medium', tool: 'tn_transfer_resolve', description: 'resolve a student\'s set of courses' }],
      assumptions: ['A page may hold fewer items than the limit when rules outside asOfDate or the filters are left out; follow nextCursor'],
      validityPeriod: 'long',
    },
  };
});

/** A page of the rules awarding one receiving course, read in full (one Query and one BatchGetItem). */
async function awardingPage(store: Store, args: Parameters<typeof rulesAwarding>[1]): Promise<PairPage> {
  const page = await rulesAwarding(store, args);
  const rules = await getRules(store, page.ruleIds, new RoundTrips());
  const order = new Map(page.ruleIds.map((id, index) => [id, index]));
  return { rules: rules.sort((a, b) => order.get(a.ruleId)! - order.get(b.ruleId)!), ...(page.lastKey ? { lastKey: page.lastKey } : {}) };
}
