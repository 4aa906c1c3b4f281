import * as z from 'zod/v4';
import { defineContract } from '../../mcp/tools/define-tool.js';
import { QuotaUsageSchema } from '../quota-usage.js';

export const quotaContract = defineContract({
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
});
