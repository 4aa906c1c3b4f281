import { bindTool } from '../../mcp/tools/define-tool.js';
import { requireUserId } from '../../mcp/tools/tool-context.js';
import { quotaUsage } from '../quota-usage.js';
import { quotaContract } from '../contracts/quota.js';

export const quotaTool = bindTool(quotaContract, async (_args, ctx) => {
  const usage = await quotaUsage(ctx.services, ctx.registry.getAll(), requireUserId(ctx), ctx.now());
  const remainingShare = usage.prompts.max === 0 ? 0 : usage.prompts.remaining / usage.prompts.max;
  return {
    data: usage,
    hints: {
      confidence: [{ name: 'consistent-read', value: 1 }],
      nextActions:
        remainingShare < 0.1
          ? [{ action: 'consider-upgrade', priority: 'medium', tool: 'tn_user_subscription', description: 'check the plan and its limits' }]
          : [],
      riskFactors:
        remainingShare < 0.1
          ? [{ type: 'user-experience', severity: 'medium', description: 'Prompt quota nearly used up', probability: 1 - remainingShare, impact: 0.6 }]
          : [],
      validityPeriod: 'short',
    },
  };
});
