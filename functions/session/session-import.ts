import { createHash } from 'node:crypto';
import type { Store } from '../platform/store/dynamo-client.js';
import { ENTITY, sessionKeys } from '../platform/store/keys.js';
import { DomainError } from '../platform/domain-error.js';
import { contentHash, type AskRequest } from './ask-request-store.js';
import { readAllEvents } from './event-log-store.js';
import { effectiveExpiry, epochSeconds, expiryAfter, itemsExpiryFor, previewFrom, type SessionEvent, type SessionRecord } from './session-model.js';
import { deletePartition, putImportedSession, putSessionItems, readSession } from './session-store.js';
import type { SessionSnapshot } from './snapshot.js';

export interface ImportResult {
  status: 'imported' | 'already-present';
  sessionId: string;
  latestSeq: number;
  expiresAt: string;
}

/**
 * Writes a verified snapshot as the caller's session. Importing the same snapshot again (or one the
 * server already holds every event of) changes nothing; a session that diverged from it is CONFLICT.
 *
 * Which id (ADR 0029): the snapshot's own when the caller proves they owned it (the proof their export
 * carries) or holds it now, so devices that know the id keep working. Otherwise an id of the caller's
 * own, derived from the caller and the original, whether or not anyone holds the original: the answer
 * says nothing about other people's sessions, and since an import never takes an id it does not prove
 * is its own, no one can occupy an id derived for someone else.
 */
export async function importSnapshot(store: Store, args: ImportArgs): Promise<ImportResult> {
  const original = args.snapshot.session.sessionId;
  const existing = await readSessionIfAny(store, original);
  const callersOwn = existing !== undefined && existing.ownerId === args.ownerId;
  if (callersOwn || (args.provenOwner && !existing)) return importUnder(store, args, original, existing);
  const own = callerSessionId(args.ownerId, original);
  const taken = await readSessionIfAny(store, own);
  // Only a second preimage of the derivation could put someone else here.
  if (taken && taken.ownerId !== args.ownerId) throw new DomainError('conflict', 'The snapshot could not be imported; export it again and retry.');
  return importUnder(store, args, own, taken);
}

interface ImportArgs {
  snapshot: SessionSnapshot;
  ownerId: string;
  /** The snapshot carries this server's proof that the caller owned its session id. */
  provenOwner: boolean;
  now: Date;
  retentionDays: number;
}

async function readSessionIfAny(store: Store, sessionId: string): Promise<SessionRecord | undefined> {
  return readSession(store, sessionId).catch((error: unknown) => {
    if (error instanceof DomainError && error.kind === 'not-found') return undefined;
    throw error;
  });
}

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** A ULID with the original's time and a random part fixed by (owner, original id): the same caller always gets the same id. */
export function callerSessionId(ownerId: string, originalId: string): string {
  const digest = createHash('sha256').update(`session-import\0${ownerId}\0${originalId}`).digest();
  let random = '';
  for (let i = 0; i < 16; i++) random += CROCKFORD[digest[i]! % 32];
  return originalId.slice(0, 10) + random;
}

async function importUnder(store: Store, args: ImportArgs, sessionId: string, existing: SessionRecord | undefined): Promise<ImportResult> {
  const { snapshot, ownerId, now } = args;
  const expired = existing ? Date.parse(effectiveExpiry(existing)) <= now.getTime() : false;
  if (existing && !expired) {
    const stored = await readAllEvents(store, sessionId);
    const diverged = snapshot.events.find((event, index) => stored[index]?.eventId !== event.eventId);
    if (diverged) {
      throw new DomainError('conflict', `Session ${sessionId} exists with different events from seq ${diverged.seq}.`, { reason: 'snapshot diverges from the stored session' }, 'Export the stored session again (tn_session_export) and use that snapshot.');
    }
    return { status: 'already-present', sessionId, latestSeq: existing.lastSeq, expiresAt: effectiveExpiry(existing) };
  }

  // An expired session TTL has not reclaimed yet is gone for every reader: clear it before restoring.
  if (existing) await deletePartition(store, sessionId);
  const expiresAt = expiryAfter(now, args.retentionDays).toISOString();
  const itemsExpireAt = itemsExpiryFor(expiresAt, args.retentionDays);
  const ttl = epochSeconds(itemsExpireAt);
  const { requests, drafts } = reconstructRequests(snapshot.events);
  await putSessionItems(store, [
    ...snapshot.events.map((event) => ({ ...sessionKeys.event(sessionId, event.seq), entity: ENTITY.sessionEvent, ...event, ttl })),
    ...requests.map((request) => ({ ...sessionKeys.request(sessionId, request.clientEventId), entity: ENTITY.sessionRequest, ...request, ttl })),
    ...drafts.map((draft) => ({
      ...sessionKeys.draft(sessionId, draft.clientEventId!),
      entity: ENTITY.pendingDraft,
      clientEventId: draft.clientEventId,
      eventId: draft.eventId,
      seq: draft.seq,
      content: draft.content,
      deviceId: draft.deviceId,
      createdAt: draft.createdAt,
      ttl,
    })),
  ]);
  const { session } = snapshot;
  const record: SessionRecord = {
    sessionId,
    ownerId,
    status: session.status,
    context: session.context,
    course: session.course,
    createdAt: session.createdAt,
    lastActivityAt: now.toISOString(),
    expiresAt,
    endedAt: session.endedAt,
    lastSeq: snapshot.events.length,
    itemsExpireAt,
    summary: null,
    preview: previewFrom(snapshot.events) ?? null,
  };
  // Lost to a concurrent import of the same snapshot: its result is ours.
  if (!(await putImportedSession(store, record, now))) return importSnapshot(store, args);
  return { status: 'imported', sessionId, latestSeq: record.lastSeq, expiresAt };
}

/** Idempotency records and pending drafts as the log implies them, so retries keep working after an import. */
function reconstructRequests(events: SessionEvent[]): { requests: AskRequest[]; drafts: SessionEvent[] } {
  const byId = new Map<string, AskRequest>();
  const draftEvents = new Map<string, SessionEvent>();
  for (const event of events) {
    if (!event.clientEventId || event.type === 'session_ended') continue;
    const request = byId.get(event.clientEventId) ?? { clientEventId: event.clientEventId, contentHash: '', state: 'draft', deviceId: event.deviceId, eventsEmitted: [] };
    request.eventsEmitted.push(event.eventId);
    if (event.type === 'draft') {
      Object.assign(request, { state: 'draft', contentHash: contentHash(event.content), draftEventId: event.eventId, draftSeq: event.seq });
      draftEvents.set(event.clientEventId, event);
    } else if (event.type === 'draft_cancelled') {
      request.state = 'cancelled';
      draftEvents.delete(event.clientEventId);
    } else if (event.type === 'user_message') {
      Object.assign(request, { state: 'sent', contentHash: contentHash(event.content), userEventId: event.eventId, userSeq: event.seq });
      draftEvents.delete(event.clientEventId);
    } else if (event.type === 'assistant_message') {
      Object.assign(request, { state: 'answered', answerEventId: event.eventId, answerSeq: event.seq });
    }
    byId.set(event.clientEventId, request);
  }
  return { requests: [...byId.values()], drafts: [...draftEvents.values()] };
}
