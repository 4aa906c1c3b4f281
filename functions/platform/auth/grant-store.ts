import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { declareAccessPatterns, param } from '../store/access-patterns.js';
import type { Store } from '../store/dynamo-client.js';
import { ENTITY, oauthKeys } from '../store/keys.js';

/**
 * Whether the grant an access token was issued from still stands. Access tokens are JWTs verified
 * without a store read, so on their own they outlive a revocation (a revoked refresh-token family, a
 * reused code) by up to their lifetime. Each carries its grant (`gid`, the grant id's SHA-256, the
 * grant's key in the table): one read tells whether it was revoked. A live grant is remembered for a
 * short while per process, so a busy client costs one read per GRANT_CHECK_REUSE_MS; a revocation in
 * this process (the local server) forgets it at once.
 */
const GRANT_CHECK_REUSE_MS = 30_000;
const MAX_REMEMBERED = 10_000;

const liveUntil = new Map<string, number>();

export async function grantIsLive(store: Store, grantIdHash: string, now = Date.now()): Promise<boolean> {
  const remembered = liveUntil.get(grantIdHash);
  if (remembered !== undefined && remembered > now) return true;
  const { Item } = await store.doc.send(
    new GetCommand({ TableName: store.tableName, Key: oauthKeys.artifact('Grant', grantIdHash), ProjectionExpression: 'expiresAt' }),
  );
  const expiresAt = typeof Item?.expiresAt === 'number' ? Item.expiresAt * 1000 : undefined;
  const live = Item !== undefined && (expiresAt === undefined || expiresAt > now);
  if (live) {
    if (liveUntil.size >= MAX_REMEMBERED) liveUntil.clear();
    liveUntil.set(grantIdHash, Math.min(now + GRANT_CHECK_REUSE_MS, expiresAt ?? Infinity));
  } else liveUntil.delete(grantIdHash);
  return live;
}

/** Called where a grant is revoked in this process: its tokens stop working at once, not after the reuse window. */
export function forgetGrant(grantIdHash: string): void {
  liveUntil.delete(grantIdHash);
}

export const ACCESS_PATTERNS = /* @__PURE__ */ declareAccessPatterns(() => [
  {
    name: 'Is the grant behind an access token still there',
    entity: ENTITY.oauthArtifact,
    operation: 'GetItem',
    index: 'table',
    key: oauthKeys.artifact('Grant', param('gid')),
    usedBy: ['every request bearing one of our access tokens (a live grant is remembered 30 s per process)'],
    notes: 'ProjectionExpression expiresAt. `gid` is the token\'s claim: the grant id\'s SHA-256, the grant\'s key. Revocation deletes the grant (oauth-store.ts).',
  },
]);
