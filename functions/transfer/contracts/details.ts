import * as z from 'zod/v4';
import { defineContract } from '../../mcp/tools/define-tool.js';
import { TRANSFER_TOOL } from './transfer-tool.js';
import { RuleSummarySchema } from '../resolve/match-output.js';
import { TransferRuleSchema } from '../rule-model.js';

export const detailsContract = defineContract({
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
});
