import * as z from 'zod/v4';
import { defineTool } from '../../shared/tools/define-tool.js';
import { requireUserId } from '../../shared/tools/tool-context.js';
import { quotaUsage, QuotaUsageSchema } from '../quota-usage.js';

export const quotaTool = defineTool({
  name: 'user_quota',
  domain: 'user',
  title: 'Get quota usage',
  description:
    'Shows how much of the user\'s quota is used in the current windows: tutor prompts per UTC day and the per-tool rate limits, ' +
    'each with current, max, window and resetsAt. Use this when the user asks how many questions they have left, or after a ' +
    'RATE_LIMITED error to tell them when it resets. Returns { plan, prompts, rateLimits }.',
  version: '1.0.0',
  input: z.strictObject({}),
  output: QuotaUsageSchema,
  category: 'query',
  permissions: ['quota:read'],
  access: 'user',
  responseTime: 'fast',
  cacheable: false,
  idempotent: true,
  tags: ['quota', 'limits', 'settings'],
  examples: [{ description: 'Current usage', input: {}, expect: 'success' }],
  async handler(_args, ctx) {
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
  },
});
