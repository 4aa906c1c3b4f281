import * as z from 'zod/v4';
import type { Services } from '../platform/services.js';
import { listCounters, quotaWindow } from '../platform/store/quota-counter.js';
import type { AnyToolDefinition } from '../mcp/tools/define-tool.js';
import { getSubscription, planLimits, PlanSchema } from './plans.js';

export const PROMPT_QUOTA_KIND = 'prompts';
export const DAY_MS = 86_400_000;

const WindowUsageSchema = z.object({
  current: z.number().int(),
  max: z.number().int(),
  remaining: z.number().int(),
  window: z.string().describe('"day" (UTC), "minute", …'),
  resetsAt: z.iso.datetime(),
});

export const QuotaUsageSchema = z.object({
  plan: PlanSchema,
  prompts: WindowUsageSchema,
  rateLimits: z.array(WindowUsageSchema.extend({ tool: z.string() })),
});
export type QuotaUsage = z.infer<typeof QuotaUsageSchema>;

/** Reads every counter of the user in one Query and lays it over the limits that apply now. */
export async function quotaUsage(services: Services, tools: AnyToolDefinition[], userId: string, now: Date): Promise<QuotaUsage> {
  const [subscription, counters] = await Promise.all([getSubscription(services.store, userId), listCounters(services.store, userId)]);
  const countOf = (kind: string, windowKey: string) =>
    counters.find((c) => c.kind === kind && c.windowEndsAt === windowKey)?.count ?? 0;

  const usage = (kind: string, max: number, windowMs: number) => {
    const window = quotaWindow(windowMs, now);
    const current = countOf(kind, window.endsAt.toISOString());
    return { current, max, remaining: Math.max(0, max - current), window: window.label, resetsAt: window.endsAt.toISOString() };
  };

  return {
    plan: subscription.plan,
    prompts: usage(PROMPT_QUOTA_KIND, planLimits(subscription.plan, services.config).promptsPerDay, DAY_MS),
    rateLimits: tools
      .filter((tool) => tool.rateLimit)
      .map((tool) => ({ tool: `${services.config.toolPrefix}${tool.name}`, ...usage(`tool:${tool.name}`, tool.rateLimit!.maxCalls, tool.rateLimit!.windowMs) })),
  };
}
