import { bindCatalogTool } from '../../catalog/catalog-tool.js';
import { ToolError } from '../../mcp/tools/errors.js';
import { ruleSummary } from '../resolve/match-output.js';
import { currentReading } from '../rule-text/rule-reread.js';
import { getRule, pairRulesForCourse } from '../transfer-store.js';
import { detailsContract } from '../contracts/details.js';

export const detailsTool = bindCatalogTool(detailsContract, async (args, ctx) => {
  const found = await getRule(ctx.services.store, args.ruleId);
  if (!found) throw ToolError.notFound(`No transfer rule ${args.ruleId}.`, ['Find rules with tn_transfer_search or tn_transfer_resolve.']);
  // A rule stored by an older parser is shown as the current parser reads it (what tn_transfer_resolve uses).
  const rule = currentReading(found.rule);
  const sameCourses = (codes: string[]) => [...codes].sort().join('+') === rule.sourceCourses.map((c) => c.code).sort().join('+');
  const firstCode = [...rule.sourceCourses.map((c) => c.code)][0] ?? '';
  const history = (await pairRulesForCourse(ctx.services.store, rule.senderInstitution, rule.receiverInstitution, firstCode))
    .filter((other) => other.ruleId !== rule.ruleId && sameCourses(other.sourceCourses.map((c) => c.code)))
    .sort((a, b) => a.effectiveStart.localeCompare(b.effectiveStart))
    .map(ruleSummary);
  return {
    data: { rule, status: found.status === 'retired' ? ('retired' as const) : ('active' as const), history },
    hints: {
      confidence: [
        { name: 'fully-parsed', value: rule.fullyParsed ? 1 : 0.5 },
        { name: 'active', value: found.status === 'active' ? 1 : 0.3 },
      ],
      relatedResources: rule.evidence.map((e) => ({ type: 'evidence', id: e.url, label: e.label, relevance: 1 })),
      validityPeriod: 'long',
    },
  };
});
