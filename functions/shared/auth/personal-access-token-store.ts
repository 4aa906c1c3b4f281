import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
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
