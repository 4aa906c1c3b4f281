import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { declareAccessPatterns, param } from '../store/access-patterns.js';
import type { Store } from '../store/dynamo-client.js';
import { ENTITY, keys } from '../store/keys.js';

/** Only the token's hash is ever a key or stored: a leaked table never yields usable tokens. */
export async function putPersonalAccessToken(
  store: Store,
  args: { tokenHash: string; userId: string; createdAt: string; attributes: Record<string, unknown> },
): Promise<void> {
  await store.doc.send(
    new PutCommand({
      TableName: store.tableName,
      Item: {
        ...keys.personalAccessToken(args.tokenHash),
        ...keys.personalAccessTokenByUser(args.userId, args.createdAt),
        entity: ENTITY.personalAccessToken,
        userId: args.userId,
        ...args.attributes,
        createdAt: args.createdAt,
      },
      ConditionExpression: 'attribute_not_exists(PK)',
    }),
  );
}

export async function getPersonalAccessToken(store: Store, tokenHash: string): Promise<Record<string, unknown> | undefined> {
  const result = await store.doc.send(new GetCommand({ TableName: store.tableName, Key: keys.personalAccessToken(tokenHash) }));
  return result.Item;
}

export const ACCESS_PATTERNS = /* @__PURE__ */ declareAccessPatterns(() => [
  {
    name: 'Create a personal access token',
    entity: ENTITY.personalAccessToken,
    operation: 'PutItem',
    index: 'table',
    key: keys.personalAccessToken(param('sha256(token)')),
    usedBy: ['tn token create'],
    notes: `Condition attribute_not_exists(PK). The item also sits in GSI1 under the user (\`GSI1SK = ${keys.personalAccessTokenByUser(param('userId'), param('createdAt')).GSI1SK}\`), for a token list no tool offers yet.`,
  },
  {
    name: 'Resolve a personal access token',
    entity: ENTITY.personalAccessToken,
    operation: 'GetItem',
    index: 'table',
    key: keys.personalAccessToken(param('sha256(token)')),
    usedBy: ['every authenticated request bearing a PAT'],
    notes: 'An expired token (expiresAt past, TTL not run yet) resolves to nothing.',
  },
]);
