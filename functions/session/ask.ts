import { ulid } from 'ulid';
import { DomainError } from '../platform/domain-error.js';
import type { ToolContext } from '../mcp/tools/tool-context.js';
import {
  answeringInThisProcess,
  contentHash,
  deleteDraftItem,
  getAskRequest,
  leaseUntil,
  putAskRequestItem,
  THIS_PROCESS,
  transitionAskRequestItem,
  type AskRequest,
} from './ask-request-store.js';
import { assertActive, saveDraft, type LogDeps } from './drafts.js';
import { AppendConditionFailed, appendEvents, readEvent, readSessionAndLatestEvents, type TransactItem } from './event-log-store.js';
import { loadCallerProfile, type CallerProfile } from './caller-profile.js';
import {
  chargeFields,
  promptInTransaction,
  releasePrompt,
  reservePrompt,
  type PromptReservation,
} from './prompt-quota.js';
import type { SessionEvent, SessionRecord } from './session-model.js';
import { answerQuestion, historyBefore, historyFromRecent, type AskOutcome } from './answer-question.js';
import { retryAnswer } from './retry-answer.js';
import { openableBy } from './session-store.js';
import type { LanguageModelFactory, ModelTarget } from './tutor/language-model.js';
import { resolveModelTarget } from './tutor/model-target.js';

export interface AskInput {
  sessionId: string;
  message: string;
  clientEventId?: string;
  draft: boolean;
  deviceId: string | null;
}

/** Everything one ask carries through its steps. */
interface Turn {
  ctx: ToolContext;
  createModel: LanguageModelFactory;
  log: LogDeps;
  caller: CallerProfile;
  session: SessionRecord;
  /** The latest events, read with the session: the prompt history when the question gets the next seq. */
  recent: SessionEvent[];
  input: AskInput;
}

/** Events read with the session; enough for most prompts (older turns live on in the summary). */
const RECENT_EVENTS = 80;

/**
 * One ask, start to finish: idempotency by clientEventId, drafts, quota reserved before the provider
 * is called and released if it fails, the question kept whatever happens, the answer appended with
 * the next seq. Knows nothing of MCP: progress goes out through ctx.reportProgress.
 */
export async function askTutor(ctx: ToolContext, createModel: LanguageModelFactory, input: AskInput, retried = false): Promise<AskOutcome> {
  const store = ctx.services.store;
  const log: LogDeps = { store, now: ctx.now, retentionDays: ctx.services.config.tutor.retentionDays };
  const clientEventId = input.clientEventId ?? ulid();
  const hash = contentHash(input.message);
  // Independent reads in one round trip's time: the session with its latest events, and the caller.
  // A first attempt takes the clientEventId to be new: the write's condition says when it is not, and
  // the retry reads its idempotency record.
  const [opened, existing, caller] = await Promise.all([
    readSessionAndLatestEvents(store, input.sessionId, RECENT_EVENTS),
    input.clientEventId && retried ? getAskRequest(store, input.sessionId, clientEventId) : Promise.resolve(undefined),
    loadCallerProfile(ctx.services, ctx.principal),
  ]);
  const session = openableBy(opened.session, ctx.principal, ctx.now());
  // On an ended session a known clientEventId still decides the answer (a replay, a cancelled draft).
  if (input.clientEventId && !retried && session.status === 'ended') return askTutor(ctx, createModel, input, true);
  const turn: Turn = { ctx, createModel, log, caller, session, recent: opened.events, input };

  try {
    if (existing) {
      if (existing.contentHash !== hash) {
        throw new DomainError('conflict', `clientEventId "${clientEventId}" was already used with a different message.`, {
          reason: 'same clientEventId, different content',
        });
      }
      if (existing.state === 'answered') return await replay(ctx, input.sessionId, existing);
      if (existing.state === 'cancelled') {
        throw new DomainError('conflict', `The draft "${clientEventId}" was cancelled; it cannot be sent.`, { reason: 'draft cancelled' }, 'Send the message again with a new clientEventId.');
      }
      assertActive(session);
      if (existing.state === 'draft' && input.draft) return draftOutcome(existing, clientEventId);
      if (existing.state === 'draft') {
        return await sendQuestion(turn, {
          clientEventId,
          refersTo: existing.draftEventId ?? null,
          emittedBefore: existing.eventsEmitted,
          requestItems: (event, _expiresAt, lease) => [
            transitionAskRequestItem(store, session.sessionId, clientEventId, 'draft', {
              state: 'sent',
              userEventId: event.eventId,
              userSeq: event.seq,
              eventsEmitted: [...existing.eventsEmitted, event.eventId],
              ...lease,
            }),
            deleteDraftItem(store, session.sessionId, clientEventId),
          ],
        });
      }
      if (input.draft) {
        throw new DomainError(
          'conflict',
          `The message "${clientEventId}" was already sent; it cannot become a draft.`,
          { reason: 'already sent' },
          'Call tn_session_ask again with draft false (or omitted) and the same clientEventId to get its answer.',
        );
      }
      return await retryAnswer({ ...turn, deviceId: input.deviceId }, existing);
    }
    assertActive(session);
    if (input.draft) {
      const draft = await saveDraft(log, { sessionId: input.sessionId, message: input.message, clientEventId, deviceId: input.deviceId });
      return { response: '', eventsEmitted: [draft.eventId], status: 'draft', clientEventId, questionSeq: draft.seq, answerSeq: null, model: null, lookups: [] };
    }
    return await sendQuestion(turn, {
      clientEventId,
      refersTo: null,
      emittedBefore: [],
      promptInTransaction: true,
      requestItems: (event, expiresAt, lease) => [
        putAskRequestItem(
          store,
          input.sessionId,
          { clientEventId, contentHash: hash, state: 'sent', deviceId: input.deviceId, userEventId: event.eventId, userSeq: event.seq, eventsEmitted: [event.eventId], ...lease },
          expiresAt,
        ),
      ],
    });
  } catch (error) {
    // Another request with the same clientEventId moved first: decide again from what it wrote.
    if (error instanceof AppendConditionFailed && !retried) return askTutor(ctx, createModel, input, true);
    throw error;
  }
}

/**
 * Which model answers and one prompt of quota, resolved together: if the model cannot be resolved
 * (no key, decryption failed) the prompt is given back at once.
 */
async function prepareModelAndQuota(turn: Turn): Promise<{ target: ModelTarget; reservation: PromptReservation }> {
  const { ctx, caller } = turn;
  const [target, reservation] = await Promise.allSettled([
    resolveModelTarget(ctx.services, ctx.principal, caller),
    reservePrompt(ctx.services, ctx.principal, ctx.now(), caller.promptLimit),
  ]);
  if (target.status === 'rejected') {
    if (reservation.status === 'fulfilled') await releasePrompt(ctx.services, reservation.value);
    throw target.reason;
  }
  if (reservation.status === 'rejected') throw reservation.reason;
  return { target: target.value, reservation: reservation.value };
}

/** What a sent ask's record holds while it is answered: the lease and the prompt it paid with. */
type AnsweringFields = Pick<AskRequest, 'answeringUntil' | 'answeringBy' | 'chargedOwner' | 'chargedAt'>;

/** Appends the student's message (a new ask, or a draft being sent) and has it answered. */
async function sendQuestion(
  turn: Turn,
  args: {
    clientEventId: string;
    refersTo: string | null;
    emittedBefore: string[];
    requestItems: (question: SessionEvent, expiresAt: string, lease: AnsweringFields) => TransactItem[];
    /** A new ask takes its prompt in the question's own transaction; a draft being sent reserves it first. */
    promptInTransaction?: boolean;
  },
): Promise<AskOutcome> {
  const { ctx, log, input } = turn;
  const prompt = args.promptInTransaction ? promptInTransaction(ctx.services, ctx.principal, ctx.now(), turn.caller.promptLimit) : undefined;
  const { target, reservation } = prompt
    ? { target: await resolveModelTarget(ctx.services, ctx.principal, turn.caller), reservation: prompt.reservation }
    : await prepareModelAndQuota(turn);
  const lease: AnsweringFields = { answeringUntil: leaseUntil(ctx.now()), answeringBy: THIS_PROCESS, ...chargeFields(reservation) };
  // The question most likely gets the next seq: its history is then in the events read with the session.
  const expectedSeq = turn.session.lastSeq + 1;
  const recentHistory = historyFromRecent(turn.session, turn.recent, expectedSeq);
  const history = recentHistory ? Promise.resolve(recentHistory) : historyBefore(ctx.services.store, turn.session, expectedSeq);
  history.catch(() => undefined);
  let appended: { session: SessionRecord; events: SessionEvent[] };
  let requestItemCount = 0;
  answeringInThisProcess.start(input.sessionId, args.clientEventId);
  try {
    appended = await appendEvents(log.store, {
      ...log,
      sessionId: input.sessionId,
      initial: turn.session,
      plan: (current) => {
        assertActive(current);
        return {
          events: [{ type: 'user_message', role: 'user', content: input.message, deviceId: input.deviceId, clientEventId: args.clientEventId, refersTo: args.refersTo }],
          items: ([event], expiresAt) => {
            const items = args.requestItems(event!, expiresAt, lease);
            requestItemCount = items.length;
            return prompt ? [...items, prompt.item] : items;
          },
        };
      },
    });
  } catch (error) {
    answeringInThisProcess.end(input.sessionId, args.clientEventId);
    if (!prompt) await releasePrompt(ctx.services, reservation);
    // Nothing was written: the quota refused the prompt, so the question was not stored either.
    else if (error instanceof AppendConditionFailed && error.itemIndex === requestItemCount) throw await prompt.refused();
    throw error;
  }
  const question = appended.events[0]!;
  try {
    return await answerQuestion(ctx, turn.createModel, {
      session: appended.session,
      question,
      charge: lease,
      target,
      clientEventId: args.clientEventId,
      emittedBefore: [...args.emittedBefore, question.eventId],
      deviceId: input.deviceId,
      responseLength: turn.caller.preferences.responseLength,
      prefetchedHistory: question.seq === expectedSeq ? history : undefined,
    });
  } finally {
    answeringInThisProcess.end(input.sessionId, args.clientEventId);
  }
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
