import type { Store } from '../platform/store/dynamo-client.js';
import { DomainError } from '../platform/domain-error.js';
import type { ToolContext } from '../mcp/tools/tool-context.js';
import type { Preferences } from '../user/preferences.js';
import { giveBackAnswering, LEASE_RENEW_MS, renewAnswering, transitionAskRequestItem, type AskRequest } from './ask-request-store.js';
import { appendEvents, readEventsAfter } from './event-log-store.js';
import { promptWindowAt, PROMPT_QUOTA_KIND } from './prompt-quota.js';
import type { SessionEvent, SessionRecord } from './session-model.js';
import type { LanguageModelFactory, ModelTarget } from './tutor/language-model.js';
import { runTutorTurn } from './tutor/run-turn.js';
import { buildTutorPrompt } from './tutor/tutor-prompt.js';
import { tutorLookupTools, type LookupLog } from './tutor/tutor-tools.js';

export interface AskOutcome {
  response: string;
  eventsEmitted: string[];
  status: 'answered' | 'draft' | 'replayed';
  clientEventId: string;
  questionSeq: number;
  answerSeq: number | null;
  model: { source: ModelTarget['source']; provider: string; model: string } | null;
  lookups: string[];
}

/** History read for one prompt at most; older turns live on in the running summary. */
const HISTORY_WINDOW = 400;

/**
 * Asks the model about a stored question and appends its answer with the next seq, renewing the
 * answering lease as it goes. If the model fails or the answer cannot be stored, the prompt and the
 * lease are given back together; the question stays in the log. If even that fails (the table is
 * down), both stay on the ask's record: its retry answers on the prompt already taken.
 */
export async function answerQuestion(
  ctx: ToolContext,
  createModel: LanguageModelFactory,
  args: {
    session: SessionRecord;
    question: SessionEvent;
    /** The prompt this ask holds, as its record names it. */
    charge: Pick<AskRequest, 'chargedOwner' | 'chargedAt'>;
    target: ModelTarget;
    clientEventId: string;
    emittedBefore: string[];
    deviceId: string | null;
    responseLength: Preferences['responseLength'];
    /** The history before this question, already being read (when its seq was the one expected). */
    prefetchedHistory?: Promise<SessionEvent[]>;
  },
): Promise<AskOutcome> {
  const { services } = ctx;
  const { session } = args;
  // Nothing reached the log: the prompt is not charged and the ask can be repeated at once.
  const giveBack = () =>
    giveBackAnswering(services.store, session.sessionId, { clientEventId: args.clientEventId, ...args.charge }, PROMPT_QUOTA_KIND, promptWindowAt).catch((error: unknown) =>
      ctx.logger.warn('the prompt and lease of a failed answer stay on its record', { error: error instanceof Error ? error.message : String(error) }),
    );
  const renewal = setInterval(() => {
    renewAnswering(services.store, session.sessionId, args.clientEventId, ctx.now()).catch(() => undefined);
  }, LEASE_RENEW_MS);
  renewal.unref();
  try {
    return await answerAndStore(ctx, createModel, args, giveBack);
  } finally {
    clearInterval(renewal);
  }
}

type AnswerArgs = Parameters<typeof answerQuestion>[2];

async function answerAndStore(ctx: ToolContext, createModel: LanguageModelFactory, args: AnswerArgs, giveBack: () => Promise<unknown>): Promise<AskOutcome> {
  const { services } = ctx;
  const { session, question } = args;
  const lookups: LookupLog = { started: 0, calls: [] };
  let text: string;
  let prompt: ReturnType<typeof buildTutorPrompt>;
  try {
    const history = await (args.prefetchedHistory ?? historyBefore(services.store, session, question.seq));
    prompt = buildTutorPrompt({ session, history, question: question.content, responseLength: args.responseLength, maxToolCalls: services.config.tutor.maxToolCalls });
    let streamed = 0;
    const turn = await runTutorTurn({
      model: await createModel(args.target),
      target: args.target,
      instructions: prompt.instructions,
      messages: prompt.messages,
      tools: await tutorLookupTools(ctx, services.config.tutor.maxToolCalls, lookups),
      maxToolCalls: services.config.tutor.maxToolCalls,
      timeoutMs: services.config.tutor.llmTimeoutMs,
      signal: ctx.signal,
      onDelta: ctx.reportProgress
        ? async (delta) => {
            streamed += delta.length;
            // A notification that cannot be delivered (the stream went away) must not lose the answer:
            // it is still stored, and the device finds it with sync_status or by repeating the ask.
            await ctx.reportProgress!({ progress: streamed, message: delta }).catch(() => undefined);
          }
        : undefined,
    });
    text = turn.text;
  } catch (error) {
    await giveBack();
    throw error;
  }

  let events: SessionEvent[];
  try {
    ({ events } = await appendEvents(services.store, {
      now: ctx.now,
      retentionDays: services.config.tutor.retentionDays,
      sessionId: session.sessionId,
      initial: session,
      // An answer already paid for is recorded even if the session ended while it was being written.
      plan: () => ({
        events: [{ type: 'assistant_message', role: 'assistant', content: text, deviceId: args.deviceId, clientEventId: args.clientEventId, refersTo: question.eventId }],
        items: ([event]) => [
          transitionAskRequestItem(services.store, session.sessionId, args.clientEventId, 'sent', {
            state: 'answered',
            answerEventId: event!.eventId,
            answerSeq: event!.seq,
            eventsEmitted: [...args.emittedBefore, event!.eventId],
          }),
        ],
        metaSet: prompt.summary && prompt.summary !== session.summary ? { summary: prompt.summary } : undefined,
      }),
    }));
  } catch (error) {
    // The answer was produced but could not be stored.
    await giveBack();
    ctx.logger.error('answer could not be stored', { error: error instanceof Error ? error.message : String(error) });
    throw new DomainError(
      'unavailable',
      'The answer could not be saved.',
      { reason: 'storing the answer failed', retryAfter: 2 },
      'Your message is saved. Retry tn_session_ask with the same clientEventId: it is answered without charging a second prompt.',
    );
  }
  const answerEvent = events[0]!;
  return {
    response: text,
    eventsEmitted: [...args.emittedBefore, answerEvent.eventId],
    status: 'answered',
    clientEventId: args.clientEventId,
    questionSeq: question.seq,
    answerSeq: answerEvent.seq,
    model: { source: args.target.source, provider: args.target.provider, model: args.target.model },
    lookups: lookups.calls.map((call) => call.tool),
  };
}

/** The events the prompt may use before a question: after the running summary, at most HISTORY_WINDOW. */
export async function historyBefore(store: Store, session: SessionRecord, questionSeq: number): Promise<SessionEvent[]> {
  const from = historyStart(session, questionSeq);
  const count = questionSeq - 1 - from;
  if (count <= 0) return [];
  return (await readEventsAfter(store, session.sessionId, from, count)).events;
}



/** The same history taken from events already read, when they reach back far enough; else undefined. */
export function historyFromRecent(session: SessionRecord, recent: SessionEvent[], questionSeq: number): SessionEvent[] | undefined {
  const from = historyStart(session, questionSeq);
  const history = recent.filter((event) => event.seq > from && event.seq < questionSeq);
  return history.length === questionSeq - 1 - from ? history : undefined;
}

function historyStart(session: SessionRecord, questionSeq: number): number {
  return Math.max(session.summary?.throughSeq ?? 0, questionSeq - 1 - HISTORY_WINDOW);
}
