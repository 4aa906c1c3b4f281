export const USER_PERMISSIONS = [
  'byok:read',
  'byok:write',
  'preferences:read',
  'preferences:write',
  'quota:read',
  'subscription:read',
  'session:read',
  'session:write',
] as const;

export type UserPermission = (typeof USER_PERMISSIONS)[number];

export const AUTH_METHODS = ['local-token', 'jwt', 'oauth', 'personal-access-token'] as const;
export type AuthMethod = (typeof AUTH_METHODS)[number];

export type Principal =
  | { kind: 'anonymous' }
  | {
      kind: 'user';
      userId: string;
      permissions: ReadonlySet<string>;
      via: AuthMethod;
      /** When the credential itself stops working (a personal access token with an expiry). */
      expiresAt?: Date;
    };

export const ANONYMOUS: Principal = { kind: 'anonymous' };

export function userPrincipal(userId: string, via: AuthMethod, permissions: Iterable<string> = USER_PERMISSIONS, expiresAt?: Date): Principal {
  return { kind: 'user', userId, via, permissions: new Set(permissions), ...(expiresAt ? { expiresAt } : {}) };
}

/** Keeps only permissions this service defines, so a token cannot claim unknown powers. */
export function knownPermissions(requested: Iterable<string>): string[] {
  const known = new Set<string>(USER_PERMISSIONS);
  return [...new Set(requested)].filter((permission) => known.has(permission));
}
