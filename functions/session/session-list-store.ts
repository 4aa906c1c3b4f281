import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { declareAccessPatterns, param } from '../platform/store/access-patterns.js';
import type { Store } from '../platform/store/dynamo-client.js';
import { ENTITY, sessionKeys } from '../platform/store/keys.js';
import type { ListedSession } from './session-model.js';

/*
 * A user's sessions are an item collection in GSI1 already: every signed-in owner's META sits there
 * under USER#<userId>#SESSIONS, sorted by lastActivityAt (session-store.ts writes it, every append
 * moves it). Listing them needs no new key, only what the list shows read from it.
 */

/**
 * What a list of sessions shows (SessionSummary) and what decides whether a session is still open:
 * nothing more is read, and GSI1 must project these (the index key gives lastActivityAt, the partition
 * the owner).
 */
export const OWNER_INDEX_ATTRIBUTES = ['sessionId', 'status', 'context', 'createdAt', 'expiresAt', 'itemsExpireAt', 'endedAt', 'lastSeq', 'preview'] as const satisfies (keyof ListedSession)[];
const LISTED_ATTRIBUTES = [...OWNER_INDEX_ATTRIBUTES, 'GSI1SK'];

/** Sessions read per step once a step's expired sessions left its page short. */
const LOOKAHEAD = 100;

/** Where a page of a user's sessions ends: the last session listed, as the owner index orders it. */
export interface OwnedSessionPosition {
  lastActivityAt: string;
  sessionId: string;
}

/**
 * A user's sessions that are still open (neither past their expiry nor unreadable), most recently
 * active first, up to `limit`, after `after`. Expired sessions stay in the owner index until TTL
 * removes them, so a filter drops them and the query goes on until the page is full.
 */
export async function listOwnedSessions(
  store: Store,
  args: { userId: string; limit: number; after?: OwnedSessionPosition; now: Date },
): Promise<{ sessions: ListedSession[]; more: boolean }> {
  const owner = sessionKeys.ownerIndex(args.userId);
  let startKey: Record<string, unknown> | undefined = args.after
    ? { ...sessionKeys.meta(args.after.sessionId), ...sessionKeys.byOwner(args.userId, args.after.lastActivityAt) }
    : undefined;
  const sessions: ListedSession[] = [];
  for (let step = 0; step === 0 || (startKey && sessions.length <= args.limit); step++) {
    const result = await store.doc.send(
      new QueryCommand({
        TableName: store.tableName,
        IndexName: 'GSI1',
        KeyConditionExpression: 'GSI1PK = :owner',
        FilterExpression: 'expiresAt > :now AND itemsExpireAt > :now',
        ProjectionExpression: LISTED_ATTRIBUTES.map((_, i) => `#a${i}`).join(', '),
        ExpressionAttributeNames: Object.fromEntries(LISTED_ATTRIBUTES.map((name, i) => [`#a${i}`, name])),
        ExpressionAttributeValues: { ':owner': owner, ':now': args.now.toISOString() },
        ScanIndexForward: false,
        // One more than the page says whether another page exists. Later steps read further ahead: the
        // cursor is the last session listed, so whatever is read beyond it is read again next page, never lost.
        Limit: step === 0 ? args.limit + 1 : LOOKAHEAD,
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of result.Items ?? []) {
      const { GSI1SK, ...session } = item as Omit<ListedSession, 'ownerId' | 'lastActivityAt'> & { GSI1SK: string };
      sessions.push({ ...session, ownerId: args.userId, lastActivityAt: GSI1SK });
    }
    startKey = result.LastEvaluatedKey;
  }
  return { sessions: sessions.slice(0, args.limit), more: sessions.length > args.limit };
}

export const ACCESS_PATTERNS = /* @__PURE__ */ declareAccessPatterns(() => [
  {
    name: "A user's open sessions, a page at a time",
    entity: ENTITY.session,
    operation: 'Query',
    index: 'GSI1',
    key: { GSI1PK: sessionKeys.ownerIndex(param('userId')) },
    usedBy: ['tn_session_list'],
    notes:
      'ScanIndexForward false (latest activity first); FilterExpression expiresAt and itemsExpireAt after now (expired sessions wait for TTL); ' +
      `ProjectionExpression ${LISTED_ATTRIBUTES.join(', ')} (GSI1SK is lastActivityAt): a GSI1 projection narrower than ALL must keep these. ` +
      'Limit page + 1, continued from LastEvaluatedKey until the page is full; the cursor is the last listed session (lastActivityAt, sessionId), signed and bound to the user.',
  },
]);
