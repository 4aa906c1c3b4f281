import { createHash, randomBytes } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Store } from '../store/dynamo-client.js';
import { ENTITY, keys } from '../store/keys.js';
import { knownPermissions, USER_PERMISSIONS } from './principal.js';

export const PAT_PREFIX = 'tnp_';

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export interface CreatedToken {
  token: string;
  userId: string;
  permissions: string[];
  expiresAt?: string;
}

/** Only the hash is stored: a leaked table never yields usable tokens. */
export async function createPersonalAccessToken(
  store: Store,
  args: { userId: string; permissions?: string[]; label?: string; expiresInDays?: number; now?: Date },
): Promise<CreatedToken> {
  const now = args.now ?? new Date();
  const token = PAT_PREFIX + randomBytes(32).toString('base64url');
  const permissions = knownPermissions(args.permissions ?? USER_PERMISSIONS);
  const expiresAt = args.expiresInDays ? new Date(now.getTime() + args.expiresInDays * 86_400_000) : undefined;
  const createdAt = now.toISOString();
  await store.doc.send(
    new PutCommand({
      TableName: store.tableName,
      Item: {
        ...keys.personalAccessToken(hashToken(token)),
        ...keys.personalAccessTokenByUser(args.userId, createdAt),
        entity: ENTITY.personalAccessToken,
        userId: args.userId,
        permissions,
        label: args.label ?? 'cli',
        createdAt,
        ...(expiresAt ? { expiresAt: expiresAt.toISOString(), ttl: Math.ceil(expiresAt.getTime() / 1000) } : {}),
      },
      ConditionExpression: 'attribute_not_exists(PK)',
    }),
  );
  return { token, userId: args.userId, permissions, expiresAt: expiresAt?.toISOString() };
}

export async function findPersonalAccessToken(
  store: Store,
  token: string,
  now: Date,
): Promise<{ userId: string; permissions: string[] } | undefined> {
  const result = await store.doc.send(new GetCommand({ TableName: store.tableName, Key: keys.personalAccessToken(hashToken(token)) }));
  const item = result.Item;
  if (!item) return undefined;
  if (typeof item.expiresAt === 'string' && Date.parse(item.expiresAt) <= now.getTime()) return undefined;
  return { userId: String(item.userId), permissions: knownPermissions((item.permissions as string[]) ?? []) };
}
