import { createHash } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { declareAccessPatterns, param } from '../shared/store/access-patterns.js';
import type { Store } from '../shared/store/dynamo-client.js';
import { ENTITY, sessionKeys } from '../shared/store/keys.js';
import { epochSeconds, type PendingDraft } from './session-model.js';

/**
 * The idempotency record of one ask, keyed by its clientEventId:
 * draft → (sent | cancelled); sent → answered. `answeringUntil` is a lease, so two devices retrying
 * the same ask never both call the provider.
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
}

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

/** Takes the answering lease of a sent ask whose previous attempt failed or was abandoned. */
export async function claimAnswering(store: Store, sessionId: string, clientEventId: string, now: Date, leaseMs: number): Promise<boolean> {
  try {
    await store.doc.send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: sessionKeys.request(sessionId, clientEventId),
        UpdateExpression: 'SET answeringUntil = :until',
        ConditionExpression: '#state = :sent AND (attribute_not_exists(answeringUntil) OR answeringUntil < :now)',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':sent': 'sent', ':until': new Date(now.getTime() + leaseMs).toISOString(), ':now': now.toISOString() },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/** Gives the lease back after a failed provider call, so a retry can start at once. */
export async function releaseAnswering(store: Store, sessionId: string, clientEventId: string): Promise<void> {
  await store.doc.send(
    new UpdateCommand({
      TableName: store.tableName,
      Key: sessionKeys.request(sessionId, clientEventId),
      UpdateExpression: 'REMOVE answeringUntil',
      ConditionExpression: '#state = :sent',
      ExpressionAttributeNames: { '#state': 'state' },
      ExpressionAttributeValues: { ':sent': 'sent' },
    }),
  ).catch((error: unknown) => {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  });
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
      name: 'Take or give back the answering lease of an ask',
      entity: ENTITY.sessionRequest,
      operation: 'UpdateItem',
      index: 'table',
      key: REQUEST,
      usedBy: ['tn_session_ask (a retried ask whose previous attempt failed or was abandoned)'],
      notes: 'SET answeringUntil on condition state = sent and no live lease; REMOVE it after a failed provider call. Two devices retrying one ask never both call the provider.',
    },
  ];
});
