import type { Principal } from '../shared/auth/principal.js';
import type { Services } from '../shared/services.js';
import { ANONYMOUS_QUOTA_OWNER } from '../shared/store/keys.js';
import { consumeQuota, quotaWindow, releaseQuota, type QuotaWindow } from '../shared/store/quota-counter.js';
import { DomainError } from '../shared/domain-error.js';
import { DAY_MS, PROMPT_QUOTA_KIND } from '../user/quota-usage.js';

export interface PromptReservation {
  owner: string;
  window: QuotaWindow;
}

/**
 * Takes one prompt of today's quota before the provider is called (the conditional-write primitive, so
 * concurrent asks can never pass the limit). Anonymous sessions share the operator's pool.
 */
export async function reservePrompt(services: Services, principal: Principal, now: Date, max: number): Promise<PromptReservation> {
  const owner = principal.kind === 'user' ? principal.userId : ANONYMOUS_QUOTA_OWNER;
  const window = quotaWindow(DAY_MS, now);
  const result = await consumeQuota(services.store, { userId: owner, kind: PROMPT_QUOTA_KIND, max, window });
  if (!result.admitted) {
    throw DomainError.limitReached(
      'Daily prompt limit exceeded',
      result,
      now,
      `${principal.kind === 'user' ? 'User has' : 'Anonymous sessions have'} used ${result.current}/${max} prompts today`,
      'Your message was not sent. Tell the user the daily limit is reached; retry after details.retryAfter seconds or upgrade the plan.',
    );
  }
  return { owner, window };
}

/** Gives the prompt back when the provider did not answer: a failed turn costs nothing. */
export async function releasePrompt(services: Services, reservation: PromptReservation): Promise<void> {
  await releaseQuota(services.store, { userId: reservation.owner, kind: PROMPT_QUOTA_KIND, window: reservation.window });
}
