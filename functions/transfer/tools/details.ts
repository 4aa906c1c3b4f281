import * as z from 'zod/v4';
import { defineTool } from '../../shared/tools/define-tool.js';
import { TRANSFER_TOOL } from '../transfer-tool.js';
import { ToolError } from '../../shared/tools/errors.js';
import { ruleSummary, RuleSummarySchema } from '../match-output.js';
import { TransferRuleSchema } from '../rule-model.js';
import { getRule, pairRulesForCourse } from '../transfer-store.js';

export const detailsTool = defineTool({
  ...TRANSFER_TOOL,
  name: 'transfer_details',
  title: 'Transfer rule details',
  description:
    'Returns one transfer rule by ruleId: the credit expression as published, its parsed form (targets, credits, generic and ' +
    'elective credit, exemptions, designations, condition), effective dates, evidence links, and the history of earlier or later ' +
    'rules for the same courses. Use this after tn_transfer_resolve or tn_transfer_search to show a student the exact wording. ' +
    'Example: { "ruleId": "bctg-7b9a46ed335920cba0e6f62a" }.',
  input: z.strictObject({ ruleId: z.string().regex(/^[A-Za-z0-9_-]{4,80}$/).describe('Rule id from tn_transfer_resolve or tn_transfer_search') }),
  output: z.object({
    rule: TransferRuleSchema,
    status: z.enum(['active', 'retired']).describe('retired when the source no longer lists it'),
    history: z.array(RuleSummarySchema).describe('Other rules for the same sending courses and receiver, oldest first'),
  }),
  category: 'query',
  responseTime: 'fast',
  tags: ['transfer'],
  examples: [{ description: 'An unknown rule is NOT_FOUND', input: { ruleId: 'bctg-000000000000000000000000' }, expect: 'NOT_FOUND' }],
  async handler(args, ctx) {
    const found = await getRule(ctx.services.store, args.ruleId);
    if (!found) throw ToolError.notFound(`No transfer rule ${args.ruleId}.`, ['Find rules with tn_transfer_search or tn_transfer_resolve.']);
    const { rule } = found;
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
  },
});
