import { createHash } from 'node:crypto';
import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import { declareAccessPatterns, param } from '../platform/store/access-patterns.js';
import type { Store } from '../platform/store/dynamo-client.js';
import { ENTITY, keys, sessionKeys } from '../platform/store/keys.js';
import { consumeQuotaItem, releaseQuotaItem, type QuotaWindow } from '../platform/store/quota-counter.js';
import { epochSeconds, type PendingDraft } from './session-model.js';

/**
 * The idempotency record of one ask, keyed by its clientEventId:
 * draft → (sent | cancelled); sent → answered. `answeringUntil` is a lease held by one process
 * (`answeringBy`) and renewed while it answers, so two devices retrying the same ask never both call
 * the provider, and a process that died mid-answer gives way within one lease. `chargedAt` and
 * `chargedOwner` name the prompt of quota this ask holds, from the moment it is taken until it is given
 * back, so a retry after a crash answers on the prompt already paid for instead of taking a second.
 */
export interface AskRequest {
  clientEventId: string;
  contentHash: string;
  state: 'draft' | 'cancelled' | 'sent' | 'answered';
  deviceId: string | null;
  draftEventId?: string;
  draftSeq?: number;
  userEventId?: string;
  userSeq?: number;
  answerEventId?: string;
  answerSeq?: number;
  eventsEmitted: string[];
  answeringUntil?: string;
  answeringBy?: string;
  chargedOwner?: string;
  chargedAt?: string;
}

/** A lease lasts this long past its last renewal: how long an ask whose process died stays locked (AWS). */
export const LEASE_MS = 15_000;
/** The answering process renews its lease this often. */
export const LEASE_RENEW_MS = 5_000;

/** This process, as the holder of the leases it takes. */
export const THIS_PROCESS = ulid();
/** The asks this process is answering right now (the truth behind its leases). */
const answeringHere = new Set<string>();
const askKey = (sessionId: string, clientEventId: string) => `${sessionId}\u0000${clientEventId}`;

export const answeringInThisProcess = {
  start: (sessionId: string, clientEventId: string) => answeringHere.add(askKey(sessionId, clientEventId)),
  end: (sessionId: string, clientEventId: string) => answeringHere.delete(askKey(sessionId, clientEventId)),
  has: (sessionId: string, clientEventId: string) => answeringHere.has(askKey(sessionId, clientEventId)),
};

/**
 * Whether a sent ask's lease still stands. It lapses when it was not renewed in time; and where this
 * process is the table's only server (the local server on the emulator it locked), at once when no
 * answer is running here: the process that took it is gone.
 */
export function leaseIsLive(sessionId: string, request: AskRequest, now: Date, soleServer: boolean): boolean {
  if (!request.answeringUntil || Date.parse(request.answeringUntil) <= now.getTime()) return false;
  return !soleServer || (request.answeringBy === THIS_PROCESS && answeringInThisProcess.has(sessionId, request.clientEventId));
}

export const leaseUntil = (now: Date) => new Date(now.getTime() + LEASE_MS).toISOString();

export const contentHash = (message: string) => createHash('sha256').update(message, 'utf8').digest('base64url');

export async function getAskRequest(store: Store, sessionId: string, clientEventId: string): Promise<AskRequest | undefined> {
  const result = await store.doc.send(
    new GetCommand({ TableName: store.tableName, Key: sessionKeys.request(sessionId, clientEventId), ConsistentRead: true }),
  );
  if (!result.Item) return undefined;
  const { PK: _pk, SK: _sk, entity: _entity, ttl: _ttl, ...request } = result.Item;
  return request as AskRequest;
}

/** Transaction item creating the record; fails when the clientEventId was used before. */
export function putAskRequestItem(store: Store, sessionId: string, request: AskRequest, expiresAt: string) {
  return {
    Put: {
      TableName: store.tableName,
      Item: { ...sessionKeys.request(sessionId, request.clientEventId), entity: ENTITY.sessionRequest, ...request, ttl: epochSeconds(expiresAt) },
      ConditionExpression: 'attribute_not_exists(PK)',
    },
  };
}

/** Transaction item moving the record from one state to the next; fails if someone else moved it first. */
export function transitionAskRequestItem(
  store: Store,
  sessionId: string,
  clientEventId: string,
  from: AskRequest['state'],
  set: Partial<AskRequest>,
) {
  const entries = Object.entries(set);
  return {
    Update: {
      TableName: store.tableName,
      Key: sessionKeys.request(sessionId, clientEventId),
      UpdateExpression: `SET ${entries.map((_, i) => `#f${i} = :v${i}`).join(', ')}${set.state === 'answered' ? ' REMOVE answeringUntil' : ''}`,
      ConditionExpression: '#state = :from',
      ExpressionAttributeNames: { '#state': 'state', ...Object.fromEntries(entries.map(([name], i) => [`#f${i}`, name])) },
      ExpressionAttributeValues: { ':from': from, ...Object.fromEntries(entries.map(([, value], i) => [`:v${i}`, value])) },
    },
  };
}

/**
 * Takes the answering lease of a sent ask whose previous attempt failed or was abandoned: a
 * compare-and-set on the lease as it was read, so of two retries that both saw it lapse, one wins.
 */
export async function claimAnswering(store: Store, sessionId: string, request: AskRequest, now: Date): Promise<boolean> {
  const seen = request.answeringUntil;
  try {
    await store.doc.send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: sessionKeys.request(sessionId, request.clientEventId),
        UpdateExpression: 'SET answeringUntil = :until, answeringBy = :me',
        ConditionExpression: `#state = :sent AND ${seen ? 'answeringUntil = :seen' : 'attribute_not_exists(answeringUntil)'}`,
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':sent': 'sent', ':until': leaseUntil(now), ':me': THIS_PROCESS, ...(seen ? { ':seen': seen } : {}) },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/** Extends this process's lease while it answers; false when it is no longer ours. */
export async function renewAnswering(store: Store, sessionId: string, clientEventId: string, now: Date): Promise<boolean> {
  try {
    await store.doc.send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: sessionKeys.request(sessionId, clientEventId),
        UpdateExpression: 'SET answeringUntil = :until',
        ConditionExpression: '#state = :sent AND answeringBy = :me',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':sent': 'sent', ':until': leaseUntil(now), ':me': THIS_PROCESS },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

interface PromptCounter {
  userId: string;
  kind: string;
  max: number;
  window: QuotaWindow;
}

/**
 * A retried ask that holds no prompt (its last attempt gave it back) takes one, recorded on the ask
 * in the same transaction: the charge and the record of it never part. False when the quota refuses.
 */
export async function chargeAnswering(store: Store, sessionId: string, clientEventId: string, counter: PromptCounter, now: Date): Promise<boolean> {
  try {
    await store.doc.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: store.tableName,
              Key: sessionKeys.request(sessionId, clientEventId),
              UpdateExpression: 'SET chargedOwner = :owner, chargedAt = :at',
              ConditionExpression: '#state = :sent AND answeringBy = :me AND attribute_not_exists(chargedAt)',
              ExpressionAttributeNames: { '#state': 'state' },
              ExpressionAttributeValues: { ':sent': 'sent', ':me': THIS_PROCESS, ':owner': counter.userId, ':at': now.toISOString() },
            },
          },
          consumeQuotaItem(store, counter),
        ],
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof TransactionCanceledException && error.CancellationReasons?.[1]?.Code === 'ConditionalCheckFailed') return false;
    throw error;
  }
}

/**
 * After a failed provider call or an answer that could not be stored: the prompt and the lease go back
 * together (one transaction), so a retry starts at once and is charged once. If the counter cannot take
 * the unit back (its window ended and TTL reclaimed it), the lease and the record of the charge go anyway.
 */
export async function giveBackAnswering(store: Store, sessionId: string, request: Pick<AskRequest, 'clientEventId' | 'chargedOwner' | 'chargedAt'>, kind: string, windowOf: (at: Date) => QuotaWindow): Promise<void> {
  const release = {
    Update: {
      TableName: store.tableName,
      Key: sessionKeys.request(sessionId, request.clientEventId),
      UpdateExpression: 'REMOVE answeringUntil, answeringBy, chargedOwner, chargedAt',
      ConditionExpression: '#state = :sent AND answeringBy = :me',
      ExpressionAttributeNames: { '#state': 'state' },
      ExpressionAttributeValues: { ':sent': 'sent', ':me': THIS_PROCESS },
    },
  };
  const charge = request.chargedOwner && request.chargedAt ? { userId: request.chargedOwner, kind, window: windowOf(new Date(request.chargedAt)) } : undefined;
  try {
    await store.doc.send(new TransactWriteCommand({ TransactItems: [release, ...(charge ? [releaseQuotaItem(store, charge)] : [])] }));
  } catch (error) {
    if (!(error instanceof TransactionCanceledException)) throw error;
    const [lease, counter] = error.CancellationReasons ?? [];
    // The lease is no longer ours (another process claimed it): what it holds is its to give back.
    if (lease?.Code === 'ConditionalCheckFailed') return;
    if (counter?.Code === 'ConditionalCheckFailed') {
      await store.doc.send(new UpdateCommand(release.Update)).catch((failure: unknown) => {
        if (!(failure instanceof ConditionalCheckFailedException)) throw failure;
      });
      return;
    }
    throw error;
  }
}

/** Transaction item listing a draft as pending. */
export function putDraftItem(store: Store, sessionId: string, draft: PendingDraft, expiresAt: string) {
  return {
    Put: {
      TableName: store.tableName,
      Item: { ...sessionKeys.draft(sessionId, draft.clientEventId), entity: ENTITY.pendingDraft, ...draft, ttl: epochSeconds(expiresAt) },
      ConditionExpression: 'attribute_not_exists(PK)',
    },
  };
}

/** Transaction item taking a draft off the pending list; fails if it was already sent or cancelled. */
export function deleteDraftItem(store: Store, sessionId: string, clientEventId: string) {
  return {
    Delete: {
      TableName: store.tableName,
      Key: sessionKeys.draft(sessionId, clientEventId),
      ConditionExpression: 'attribute_exists(PK)',
    },
  };
}

export const ACCESS_PATTERNS = /* @__PURE__ */ declareAccessPatterns(() => {
  const REQUEST = sessionKeys.request(param('sessionId'), param('clientEventId'));
  return [
    {
      name: 'Idempotency record of an ask',
      entity: ENTITY.sessionRequest,
      operation: 'GetItem',
      index: 'table',
      key: REQUEST,
      usedBy: ['tn_session_ask'],
      notes: 'Created in the append transaction (attribute_not_exists); state moves draft → sent → answered or draft → cancelled under conditions.',
    },
    {
      name: 'Take, renew or give back the answering lease of an ask',
      entity: ENTITY.sessionRequest,
      operation: 'UpdateItem',
      index: 'table',
      key: REQUEST,
      usedBy: ['tn_session_ask (the answering process every 5 s; a retried ask whose previous attempt failed, was abandoned or died)'],
      notes:
        'Claim: SET answeringUntil, answeringBy on condition state = sent AND answeringUntil = :seen (or absent): compare-and-set on the lapsed lease. Renew: SET answeringUntil on condition answeringBy = :me. Give back without a prompt: REMOVE the lease and charge fields on condition answeringBy = :me.',
    },
    {
      name: 'Charge or give back the prompt an ask holds, with its record',
      entity: [ENTITY.sessionRequest, ENTITY.quotaCounter],
      operation: 'TransactWriteItems',
      index: 'table',
      keys: [REQUEST, keys.quotaCounter(param('userId'), param('kind'), param('windowKey'))],
      usedBy: ['tn_session_ask (a retry that holds no prompt; a failed answer giving its prompt and lease back)'],
      notes:
        'Charge: SET chargedOwner, chargedAt on condition answeringBy = :me AND attribute_not_exists(chargedAt), with the conditional ADD on the counter. Give back: REMOVE answeringUntil, answeringBy, chargedOwner, chargedAt on condition answeringBy = :me, with ADD count -1 on condition count >= 1.',
    },
  ];
});
