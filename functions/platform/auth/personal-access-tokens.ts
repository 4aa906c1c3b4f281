import { createHash, randomBytes } from 'node:crypto';
import type { Store } from '../store/dynamo-client.js';
import { getPersonalAccessToken, putPersonalAccessToken } from './personal-access-token-store.js';
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
  await putPersonalAccessToken(store, {
    tokenHash: hashToken(token),
    userId: args.userId,
    createdAt,
    attributes: {
      permissions,
      label: args.label ?? 'cli',
      ...(expiresAt ? { expiresAt: expiresAt.toISOString(), ttl: Math.ceil(expiresAt.getTime() / 1000) } : {}),
    },
  });
  return { token, userId: args.userId, permissions, expiresAt: expiresAt?.toISOString() };
}

export async function findPersonalAccessToken(
  store: Store,
  token: string,
  now: Date,
): Promise<{ userId: string; permissions: string[]; expiresAt?: Date } | undefined> {
  const item = await getPersonalAccessToken(store, hashToken(token));
  if (!item) return undefined;
  if (typeof item.expiresAt === 'string' && Date.parse(item.expiresAt) <= now.getTime()) return undefined;
  return {
    userId: String(item.userId),
    permissions: knownPermissions((item.permissions as string[]) ?? []),
    ...(typeof item.expiresAt === 'string' ? { expiresAt: new Date(item.expiresAt) } : {}),
  };
}
