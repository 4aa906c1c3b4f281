import type { Principal } from '../platform/auth/principal.js';
import type { Services } from '../platform/services.js';
import { ANONYMOUS_QUOTA_OWNER } from '../platform/store/keys.js';
import { consumeQuota, consumeQuotaItem, quotaWindow, refusal, releaseQuota, type ConsumeResult, type QuotaWindow } from '../platform/store/quota-counter.js';
import { DomainError } from '../platform/domain-error.js';
import { DAY_MS, PROMPT_QUOTA_KIND } from '../user/quota-usage.js';

export { PROMPT_QUOTA_KIND };

/** The day window a prompt taken at `at` counts in. */
export const promptWindowAt = (at: Date) => quotaWindow(DAY_MS, at);

export interface PromptReservation {
  owner: string;
  window: QuotaWindow;
}

/**
 * Takes one prompt of today's quota before the provider is called (the conditional-write primitive, so
 * concurrent asks can never pass the limit). Anonymous sessions share the operator's pool.
 */
export async function reservePrompt(services: Services, principal: Principal, now: Date, max: number): Promise<PromptReservation> {
  const reservation = promptReservation(principal, now);
  const result = await consumeQuota(services.store, { userId: reservation.owner, kind: PROMPT_QUOTA_KIND, max, window: reservation.window });
  if (!result.admitted) throw limitError(principal, result, now);
  return reservation;
}

/**
 * The same prompt taken inside the transaction that stores the question, so a new ask costs no write
 * of its own; `refused` builds the RATE_LIMITED error when the transaction failed on this item.
 */
export function promptInTransaction(services: Services, principal: Principal, now: Date, max: number) {
  const reservation = promptReservation(principal, now);
  const counter = { userId: reservation.owner, kind: PROMPT_QUOTA_KIND, max, window: reservation.window };
  return {
    reservation,
    item: consumeQuotaItem(services.store, counter),
    refused: async () => limitError(principal, await refusal(services.store, counter), now),
  };
}

function promptReservation(principal: Principal, now: Date): PromptReservation {
  return { owner: principal.kind === 'user' ? principal.userId : ANONYMOUS_QUOTA_OWNER, window: promptWindowAt(now) };
}

/** Today's prompt counter of a caller, for a charge taken in a transaction of the caller's own (a retried ask). */
export function promptCounter(principal: Principal, now: Date, max: number) {
  const reservation = promptReservation(principal, now);
  return { userId: reservation.owner, kind: PROMPT_QUOTA_KIND, max, window: reservation.window };
}

/** The RATE_LIMITED error for a counter that refused a prompt. */
export async function promptRefused(services: Services, principal: Principal, counter: ReturnType<typeof promptCounter>, now: Date): Promise<DomainError> {
  return limitError(principal, await refusal(services.store, counter), now);
}

/** How an ask's record names the prompt it holds: the owner and a time inside the window it counts in. */
export const chargeFields = (reservation: PromptReservation) => ({ chargedOwner: reservation.owner, chargedAt: reservation.window.startsAt.toISOString() });

function limitError(principal: Principal, result: ConsumeResult, now: Date): DomainError {
  return DomainError.limitReached(
    'Daily prompt limit exceeded',
    result,
    now,
    `${principal.kind === 'user' ? 'User has' : 'Anonymous sessions have'} used ${result.current}/${result.max} prompts today`,
    'Your message was not sent. Tell the user the daily limit is reached; retry after details.retryAfter seconds or upgrade the plan.',
  );
}

/** Gives the prompt back when the provider did not answer: a failed turn costs nothing. */
export async function releasePrompt(services: Services, reservation: PromptReservation): Promise<void> {
  await releaseQuota(services.store, { userId: reservation.owner, kind: PROMPT_QUOTA_KIND, window: reservation.window });
}
