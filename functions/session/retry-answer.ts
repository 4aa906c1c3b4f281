import { DomainError } from '../platform/domain-error.js';
import type { ToolContext } from '../mcp/tools/tool-context.js';
import { answerQuestion, type AskOutcome } from './answer-question.js';
import {
  answeringInThisProcess,
  chargeAnswering,
  claimAnswering,
  giveBackAnswering,
  leaseIsLive,
  LEASE_MS,
  type AskRequest,
} from './ask-request-store.js';
import type { CallerProfile } from './caller-profile.js';
import { readEvent } from './event-log-store.js';
import { chargeFields, promptCounter, promptRefused, promptWindowAt, PROMPT_QUOTA_KIND } from './prompt-quota.js';
import type { SessionRecord } from './session-model.js';
import type { LanguageModelFactory } from './tutor/language-model.js';
import { resolveModelTarget } from './tutor/model-target.js';

/** What a retry needs of the ask it continues. */
export interface RetryTurn {
  ctx: ToolContext;
  createModel: LanguageModelFactory;
  caller: CallerProfile;
  session: SessionRecord;
  deviceId: string | null;
}

/**
 * The question was stored but not answered: the provider failed, the caller went away, or the process
 * answering it died. Answer it now, on the prompt it already holds if it holds one (charged once).
 */
export async function retryAnswer(turn: RetryTurn, request: AskRequest): Promise<AskOutcome> {
  const { ctx, session } = turn;
  const store = ctx.services.store;
  const now = ctx.now();
  const inProgress = (until: number) =>
    new DomainError(
      'conflict',
      `The message "${request.clientEventId}" is being answered by another request.`,
      { reason: 'answer in progress', retryAfter: Math.max(1, Math.ceil((until - now.getTime()) / 1000)) },
      'Wait details.retryAfter seconds, then call again with the same clientEventId to get the answer.',
    );
  if (leaseIsLive(session.sessionId, request, now, ctx.services.config.soleServer === true)) throw inProgress(Date.parse(request.answeringUntil!));
  answeringInThisProcess.start(session.sessionId, request.clientEventId);
  let charge: Pick<AskRequest, 'chargedOwner' | 'chargedAt'> = { chargedOwner: request.chargedOwner, chargedAt: request.chargedAt };
  let claimed = false;
  let handedOver = false;
  try {
    if (!(await claimAnswering(store, session.sessionId, request, now))) throw inProgress(now.getTime() + LEASE_MS);
    claimed = true;
    const target = await resolveModelTarget(ctx.services, ctx.principal, turn.caller);
    if (!charge.chargedAt) {
      const counter = promptCounter(ctx.principal, now, turn.caller.promptLimit);
      if (!(await chargeAnswering(store, session.sessionId, request.clientEventId, counter, now))) throw await promptRefused(ctx.services, ctx.principal, counter, now);
      charge = chargeFields({ owner: counter.userId, window: counter.window });
    }
    const question = await readEvent(store, session.sessionId, request.userSeq!);
    if (!question) throw new Error(`question seq ${request.userSeq} of a sent ask is missing`);
    handedOver = true;
    return await answerQuestion(ctx, turn.createModel, {
      session,
      question,
      target,
      charge,
      clientEventId: request.clientEventId,
      emittedBefore: request.eventsEmitted,
      deviceId: turn.deviceId,
      responseLength: turn.caller.preferences.responseLength,
    });
  } catch (error) {
    // answerQuestion gives back what it holds itself; a failure before it gives back the lease and any prompt held.
    if (claimed && !handedOver) {
      await giveBackAnswering(store, session.sessionId, { clientEventId: request.clientEventId, ...charge }, PROMPT_QUOTA_KIND, promptWindowAt).catch(() => undefined);
    }
    throw error;
  } finally {
    answeringInThisProcess.end(session.sessionId, request.clientEventId);
  }
}
