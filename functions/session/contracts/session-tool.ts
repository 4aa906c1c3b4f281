/** Common metadata of the session tools: anonymous callers are admitted (the handler decides), users need session permissions. */
export const SESSION_TOOL = {
  domain: 'session' as const,
  version: '1.0.0',
  access: 'public' as const,
  cacheable: false,
};

export const READ = { ...SESSION_TOOL, permissions: ['session:read'], category: 'query' as const, responseTime: 'fast' as const, idempotent: true };
export const WRITE = { ...SESSION_TOOL, permissions: ['session:write'], category: 'mutation' as const };

/** A ULID for examples: examples run against a store where it does not exist. */
export const EXAMPLE_SESSION_ID = '01JD0000000000000000000000';
