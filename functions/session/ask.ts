import { ulid } from 'ulid';
import { ToolError } from '../shared/tools/errors.js';
import type { ToolContext } from '../shared/tools/tool-context.js';
import {
  claimAnswering,
  contentHash,
  deleteDraftItem,
  getAskRequest,
  putAskRequestItem,
  releaseAnswering,
  transitionAskRequestItem,
  type AskRequest,
} from './ask-requests.js';
import { assertActive, saveDraft, type LogDeps } from './drafts.js';
import { AppendConditionFailed, appendEvents, readEvent } from './event-log.js';
import { releasePrompt, reservePrompt, type PromptReservation } from './prompt-quota.js';
import type { SessionEvent, SessionRecord } from './session-model.js';
import { answerQuestion, type AskOutcome } from './answer-question.js';
import { openSession } from './session-store.js';
import type { LanguageModelFactory, ModelTarget } from './tutor/language-model.js';
import { resolveModelTarget } from './tutor/model-target.js';

export interface AskInput {
  sessionId: string;
  message: string;
  clientEventId?: string;
  draft: boolean;
  deviceId: string | null;
}

/**
 * One ask, start to finish: idempotency by clientEventId, drafts, quota reserved before the provider
 * is called and released if it fails, the question kept whatever happens, the answer appended with
 * the next seq. Knows nothing of MCP: progress goes out through ctx.reportProgress.
 */
export async function askTutor(ctx: ToolContext, createModel: LanguageModelFactory, input: AskInput, retried = false): Promise<AskOutcome> {
  const store = ctx.services.store;
  const log: LogDeps = { store, now: ctx.now, retentionDays: ctx.services.config.tutor.retentionDays };
  const session = await openSession(store, input.sessionId, ctx.principal, ctx.now());
  const clientEventId = input.clientEventId ?? ulid();
  const hash = contentHash(input.message);
  const existing = input.clientEventId ? await getAskRequest(store, input.sessionId, clientEventId) : undefined;

  try {
    if (existing) {
      if (existing.contentHash !== hash) {
        throw new ToolError('CONFLICT', `clientEventId "${clientEventId}" was already used with a different message.`, {
          reason: 'same clientEventId, different content',
        });
      }
      if (existing.state === 'answered') return await replay(ctx, input.sessionId, existing);
      if (existing.state === 'cancelled') {
        throw new ToolError('CONFLICT', `The draft "${clientEventId}" was cancelled; it cannot be sent.`, { reason: 'draft cancelled' }, 'Send the message again with a new clientEventId.');
      }
      assertActive(session);
      if (existing.state === 'draft' && input.draft) return draftOutcome(existing, clientEventId);
      if (existing.state === 'draft') return await sendDraft(ctx, createModel, log, session, existing, input);
      return await retryAnswer(ctx, createModel, session, existing, input);
    }
    assertActive(session);
    if (input.draft) {
      const draft = await saveDraft(log, { sessionId: input.sessionId, message: input.message, clientEventId, deviceId: input.deviceId });
      return { response: '', eventsEmitted: [draft.eventId], status: 'draft', clientEventId, questionSeq: draft.seq, answerSeq: null, model: null, lookups: [] };
    }
    return await sendNew(ctx, createModel, log, input, clientEventId, hash);
  } catch (error) {
    // Another request with the same clientEventId moved first: decide again from what it wrote.
    if (error instanceof AppendConditionFailed && !retried) return askTutor(ctx, createModel, input, true);
    throw error;
  }
}

async function sendNew(ctx: ToolContext, createModel: LanguageModelFactory, log: LogDeps, input: AskInput, clientEventId: string, hash: string) {
  const target = await resolveModelTarget(ctx.services, ctx.principal);
  const reservation = await reservePrompt(ctx.services, ctx.principal, ctx.now());
  const leaseUntil = leaseEnd(ctx);
  let question: SessionEvent;
  let session: SessionRecord;
  try {
    const appended = await appendEvents(log.store, {
      ...log,
      sessionId: input.sessionId,
      plan: (current) => {
        assertActive(current);
        return {
          events: [{ type: 'user_message', role: 'user', content: input.message, deviceId: input.deviceId, clientEventId, refersTo: null }],
          items: ([event], expiresAt) => [
            putAskRequestItem(
              log.store,
              input.sessionId,
              { clientEventId, contentHash: hash, state: 'sent', deviceId: input.deviceId, userEventId: event!.eventId, userSeq: event!.seq, eventsEmitted: [event!.eventId], answeringUntil: leaseUntil },
              expiresAt,
            ),
          ],
        };
      },
    });
    question = appended.events[0]!;
    session = appended.session;
  } catch (error) {
    await releasePrompt(ctx.services, reservation);
    throw error;
  }
  return answerQuestion(ctx, createModel, { session, question, reservation, target, clientEventId, emittedBefore: [question.eventId], deviceId: input.deviceId });
}

async function sendDraft(ctx: ToolContext, createModel: LanguageModelFactory, log: LogDeps, session: SessionRecord, draft: AskRequest, input: AskInput) {
  const target = await resolveModelTarget(ctx.services, ctx.principal);
  const reservation = await reservePrompt(ctx.services, ctx.principal, ctx.now());
  const leaseUntil = leaseEnd(ctx);
  let question: SessionEvent;
  try {
    const appended = await appendEvents(log.store, {
      ...log,
      sessionId: session.sessionId,
      plan: (current) => {
        assertActive(current);
        return {
          events: [{ type: 'user_message', role: 'user', content: input.message, deviceId: input.deviceId, clientEventId: draft.clientEventId, refersTo: draft.draftEventId ?? null }],
          items: ([event]) => [
            transitionAskRequestItem(log.store, session.sessionId, draft.clientEventId, 'draft', {
              state: 'sent',
              userEventId: event!.eventId,
              userSeq: event!.seq,
              eventsEmitted: [...draft.eventsEmitted, event!.eventId],
              answeringUntil: leaseUntil,
            }),
            deleteDraftItem(log.store, session.sessionId, draft.clientEventId),
          ],
        };
      },
    });
    question = appended.events[0]!;
    session = appended.session;
  } catch (error) {
    await releasePrompt(ctx.services, reservation);
    throw error;
  }
  return answerQuestion(ctx, createModel, {
    session,
    question,
    reservation,
    target,
    clientEventId: draft.clientEventId,
    emittedBefore: [...draft.eventsEmitted, question.eventId],
    deviceId: input.deviceId,
  });
}

/** The question was stored but not answered (the provider failed, or the caller went away): answer it now. */
async function retryAnswer(ctx: ToolContext, createModel: LanguageModelFactory, session: SessionRecord, request: AskRequest, input: AskInput) {
  const store = ctx.services.store;
  if (!(await claimAnswering(store, session.sessionId, request.clientEventId, ctx.now(), leaseMs(ctx)))) {
    const until = request.answeringUntil ? Date.parse(request.answeringUntil) : ctx.now().getTime();
    throw new ToolError(
      'CONFLICT',
      `The message "${request.clientEventId}" is being answered by another request.`,
      { reason: 'answer in progress', retryAfter: Math.max(1, Math.ceil((until - ctx.now().getTime()) / 1000)) },
      'Wait details.retryAfter seconds, then call again with the same clientEventId to get the answer.',
    );
  }
  let target: ModelTarget;
  let reservation: PromptReservation;
  try {
    target = await resolveModelTarget(ctx.services, ctx.principal);
    reservation = await reservePrompt(ctx.services, ctx.principal, ctx.now());
  } catch (error) {
    await releaseAnswering(store, session.sessionId, request.clientEventId);
    throw error;
  }
  const question = await readEvent(store, session.sessionId, request.userSeq!);
  if (!question) throw new Error(`question seq ${request.userSeq} of a sent ask is missing`);
  return answerQuestion(ctx, createModel, {
    session,
    question,
    reservation,
    target,
    clientEventId: request.clientEventId,
    emittedBefore: request.eventsEmitted,
    deviceId: input.deviceId,
  });
}

async function replay(ctx: ToolContext, sessionId: string, request: AskRequest): Promise<AskOutcome> {
  const answerEvent = await readEvent(ctx.services.store, sessionId, request.answerSeq!);
  return {
    response: answerEvent?.content ?? '',
    eventsEmitted: request.eventsEmitted,
    status: 'replayed',
    clientEventId: request.clientEventId,
    questionSeq: request.userSeq!,
    answerSeq: request.answerSeq ?? null,
    model: null,
    lookups: [],
  };
}

function draftOutcome(request: AskRequest, clientEventId: string): AskOutcome {
  return { response: '', eventsEmitted: request.eventsEmitted, status: 'draft', clientEventId, questionSeq: request.draftSeq!, answerSeq: null, model: null, lookups: [] };
}

const leaseMs = (ctx: ToolContext) => ctx.services.config.tutor.llmTimeoutMs + 30_000;
const leaseEnd = (ctx: ToolContext) => new Date(ctx.now().getTime() + leaseMs(ctx)).toISOString();
