import { bindTool } from '../../mcp/tools/define-tool.js';
import { requireUserId } from '../../mcp/tools/tool-context.js';
import { getSubscription, planLimits } from '../plans.js';
import { subscriptionContract } from '../contracts/subscription.js';

export const subscriptionTool = bindTool(subscriptionContract, async (_args, ctx) => {
  const subscription = await getSubscription(ctx.services.store, requireUserId(ctx));
  return {
    data: { ...subscription, limits: planLimits(subscription.plan, ctx.services.config) },
    hints: {
      confidence: [{ name: 'stored-record', value: subscription.since ? 1 : 0.8 }],
      assumptions: subscription.since ? [] : ['No subscription record: the user is on the default free plan'],
      nextActions: [{ action: 'check-usage', priority: 'low', tool: 'tn_user_quota', description: 'see how much of the limits is used' }],
      validityPeriod: 'long',
    },
  };
});
