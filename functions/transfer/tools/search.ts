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
import { pairRules, rulesAwarding, type PairPage } from '../transfer-store.js';
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

/** A page of the rules that can award one receiving course, from its own adjacency items (one Query). */
async function awardingPage(store: Store, args: { receiver: string; code: string; sender?: string; limit: number; startKey?: Record<string, unknown> }): Promise<PairPage> {
  const after = typeof args.startKey?.after === 'string' ? args.startKey.after : undefined;
  const page = await rulesAwarding(store, { receiver: args.receiver, code: args.code, ...(args.sender ? { sender: args.sender } : {}), limit: args.limit, ...(after ? { after } : {}) });
  return { rules: page.rules, ...(page.last ? { lastKey: { after: page.last } } : {}) };
}
