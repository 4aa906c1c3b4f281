import * as z from 'zod/v4';
import { defineContract } from '../../mcp/tools/define-tool.js';
import { PlanLimitsSchema, PlanSchema } from '../plans.js';

export const subscriptionContract = defineContract({
  name: 'user_subscription',
  domain: 'user',
  title: 'Get subscription status',
  description:
    'Returns the user\'s plan (free, pro or institution), its status, its limits (prompts per day, BYOK credentials) and the ' +
    'renewal date. Use this when the user asks what their plan includes or why a limit applies. Example: "am I on the free plan?"',
  version: '1.0.0',
  input: z.strictObject({}),
  output: z.object({
    plan: PlanSchema,
    status: z.enum(['active', 'past_due', 'cancelled']),
    limits: PlanLimitsSchema,
    since: z.iso.datetime().nullable().describe('When the current plan started; null for the default free plan'),
    renewsAt: z.iso.datetime().nullable().describe('Next renewal; null for the free plan'),
  }),
  category: 'query',
  permissions: ['subscription:read'],
  access: 'user',
  responseTime: 'fast',
  cacheable: false,
  idempotent: true,
  tags: ['subscription', 'limits', 'settings'],
  examples: [{ description: 'Plan and limits', input: {}, expect: 'success' }],
});
