import type { Store } from '../platform/store/dynamo-client.js';
import { DomainError } from '../platform/domain-error.js';
import { contentHash, deleteDraftItem, putAskRequestItem, putDraftItem, transitionAskRequestItem } from './ask-request-store.js';
import { AppendConditionFailed, appendEvents, type AppendPlan, type NewEvent } from './event-log-store.js';
import type { PendingDraft, SessionEvent, SessionRecord } from './session-model.js';
import { listPendingDrafts, readSession } from './session-store.js';

export interface LogDeps {
  store: Store;
  now: () => Date;
  retentionDays: number;
}

class StaleDraftList extends Error {}

export function assertActive(session: SessionRecord): void {
  if (session.status === 'ended') {
    throw new DomainError(
      'unprocessable',
      `Session ${session.sessionId} has ended; it takes no more messages.`,
      { reason: `ended at ${session.endedAt}` },
      'Start a new session with tn_session_start to keep going; the ended one can still be read (tn_session_history, tn_session_export).',
    );
  }
}

/** Stores a pending user message that is not sent (no quota, no provider call). */
export async function saveDraft(
  deps: LogDeps,
  args: { sessionId: string; message: string; clientEventId: string; deviceId: string | null },
): Promise<SessionEvent> {
  const { events } = await appendEvents(deps.store, {
    sessionId: args.sessionId,
    now: deps.now,
    retentionDays: deps.retentionDays,
    plan: (session) => {
      assertActive(session);
      return {
        events: [{ type: 'draft', role: 'user', content: args.message, deviceId: args.deviceId, clientEventId: args.clientEventId, refersTo: null }],
        items: ([draft], expiresAt) => [
          putAskRequestItem(
            deps.store,
            args.sessionId,
            {
              clientEventId: args.clientEventId,
              contentHash: contentHash(args.message),
              state: 'draft',
              deviceId: args.deviceId,
              draftEventId: draft!.eventId,
              draftSeq: draft!.seq,
              eventsEmitted: [draft!.eventId],
            },
            expiresAt,
          ),
          putDraftItem(
            deps.store,
            args.sessionId,
            { clientEventId: args.clientEventId, eventId: draft!.eventId, seq: draft!.seq, content: args.message, deviceId: args.deviceId, createdAt: draft!.createdAt },
            expiresAt,
          ),
        ],
      };
    },
  });
  return events[0]!;
}

/** The log entries and record changes that cancel these drafts, for an append plan. */
function cancellationOf(store: Store, sessionId: string, drafts: PendingDraft[], deviceId: string | null): Pick<AppendPlan, 'events' | 'items'> {
  return {
    events: drafts.map(
      (draft): NewEvent => ({ type: 'draft_cancelled', role: 'user', content: draft.content, deviceId, clientEventId: draft.clientEventId, refersTo: draft.eventId }),
    ),
    items: () =>
      drafts.flatMap((draft) => [
        transitionAskRequestItem(store, sessionId, draft.clientEventId, 'draft', { state: 'cancelled' }),
        deleteDraftItem(store, sessionId, draft.clientEventId),
      ]),
  };
}

/**
 * Cancels pending drafts (all, or those named) in one append. A draft sent or cancelled by another
 * device meanwhile makes the transaction fail as a whole; the list is read again and the rest cancelled.
 */
export async function cancelPendingDrafts(
  deps: LogDeps,
  args: { sessionId: string; clientEventIds?: string[]; deviceId: string | null },
): Promise<{ cancelled: PendingDraft[]; notPending: string[]; events: SessionEvent[] }> {
  for (let attempt = 1; ; attempt++) {
    const pending = await listPendingDrafts(deps.store, args.sessionId);
    const wanted = args.clientEventIds ? new Set(args.clientEventIds) : undefined;
    const targets = wanted ? pending.filter((draft) => wanted.has(draft.clientEventId)) : pending;
    const notPending = args.clientEventIds?.filter((id) => !targets.some((draft) => draft.clientEventId === id)) ?? [];
    if (!targets.length) return { cancelled: [], notPending, events: [] };
    try {
      const { events } = await appendEvents(deps.store, {
        sessionId: args.sessionId,
        now: deps.now,
        retentionDays: deps.retentionDays,
        plan: () => cancellationOf(deps.store, args.sessionId, targets, args.deviceId),
      });
      return { cancelled: targets, notPending, events };
    } catch (error) {
      if (!(error instanceof AppendConditionFailed) || attempt >= 5) throw error;
    }
  }
}

/** Ends the session: pending drafts are cancelled and a session_ended event closes the log. Idempotent. */
export async function endSession(deps: LogDeps, args: { sessionId: string; deviceId: string | null; reason?: string }): Promise<{ session: SessionRecord; events: SessionEvent[] }> {
  for (let attempt = 1; ; attempt++) {
    // The drafts and the session are read together; if the log moved since (a draft may have been
    // added), the list is stale and is read again rather than leaving that draft pending after the end.
    const [listedAt, pending] = await Promise.all([readSession(deps.store, args.sessionId), listPendingDrafts(deps.store, args.sessionId)]);
    let alreadyEnded: SessionRecord | undefined;
    try {
      const result = await appendEvents(deps.store, {
        sessionId: args.sessionId,
        now: deps.now,
        retentionDays: deps.retentionDays,
        initial: listedAt,
        plan: (session) => {
          if (session.status === 'ended') {
            alreadyEnded = session;
            return { events: [] };
          }
          if (session.lastSeq !== listedAt.lastSeq) throw new StaleDraftList();
          const cancellation = cancellationOf(deps.store, args.sessionId, pending, args.deviceId);
          return {
            events: [
              ...cancellation.events,
              { type: 'session_ended', role: 'user', content: args.reason ?? '', deviceId: args.deviceId, clientEventId: null, refersTo: null },
            ],
            items: cancellation.items,
            metaSet: { status: 'ended', endedAt: deps.now().toISOString() },
          };
        },
      });
      return alreadyEnded ? { session: alreadyEnded, events: [] } : result;
    } catch (error) {
      if (!(error instanceof AppendConditionFailed || error instanceof StaleDraftList) || attempt >= 20) throw error;
    }
  }
}
