import * as z from 'zod/v4';
import type { AppConfig } from '../platform/config.js';
import type { Store } from '../platform/store/dynamo-client.js';
import { getSubscriptionItem, putSubscription } from './user-store.js';

export const PLANS = ['free', 'pro', 'institution'] as const;
export const PlanSchema = z.enum(PLANS);
export type Plan = z.infer<typeof PlanSchema>;

export const PlanLimitsSchema = z.object({
  promptsPerDay: z.number().int().describe('Tutor prompts a user may send per UTC day'),
  maxByokCredentials: z.number().int().describe('BYOK credentials a user may store'),
});
export type PlanLimits = z.infer<typeof PlanLimitsSchema>;

/** The free plan's prompt limit is the operator's (TN_PROMPTS_PER_DAY); paid plans scale from it. */
export function planLimits(plan: Plan, config: Pick<AppConfig, 'promptsPerDay'>): PlanLimits {
  switch (plan) {
    case 'free':
      return { promptsPerDay: config.promptsPerDay, maxByokCredentials: 5 };
    case 'pro':
      return { promptsPerDay: Math.max(1000, config.promptsPerDay * 10), maxByokCredentials: 20 };
    case 'institution':
      return { promptsPerDay: Math.max(5000, config.promptsPerDay * 50), maxByokCredentials: 50 };
  }
}

export interface SubscriptionRecord {
  plan: Plan;
  status: 'active' | 'past_due' | 'cancelled';
  since: string | null;
  renewsAt: string | null;
}

const FREE: SubscriptionRecord = { plan: 'free', status: 'active', since: null, renewsAt: null };

export async function getSubscription(store: Store, userId: string): Promise<SubscriptionRecord> {
  return subscriptionFromItem(await getSubscriptionItem(store, userId));
}

/** The stored subscription; no item means the free plan. */
export function subscriptionFromItem(item: Record<string, unknown> | undefined): SubscriptionRecord {
  if (!item) return FREE;
  return {
    plan: PlanSchema.catch('free').parse(item.plan),
    status: item.status === 'past_due' || item.status === 'cancelled' ? item.status : 'active',
    since: typeof item.since === 'string' ? item.since : null,
    renewsAt: typeof item.renewsAt === 'string' ? item.renewsAt : null,
  };
}

/** Used by the operator CLI; there is no tool that lets a user change their own plan. */
export async function setPlan(store: Store, args: { userId: string; plan: Plan; now: Date; renewsAt?: Date }): Promise<SubscriptionRecord> {
  const renewsAt = args.plan === 'free' ? null : (args.renewsAt ?? new Date(args.now.getTime() + 30 * 86_400_000)).toISOString();
  const record: SubscriptionRecord = { plan: args.plan, status: 'active', since: args.now.toISOString(), renewsAt };
  await putSubscription(store, args.userId, { ...record });
  return record;
}
