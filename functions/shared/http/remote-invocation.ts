import { z } from 'zod';
import type { Principal } from '../auth/principal.js';
import { userPrincipal } from '../auth/principal.js';

/**
 * The event the /mcp router sends to a domain function to run one tool there, under that
 * function's own least-privilege role. Only principals allowed lambda:InvokeFunction can send it.
 */
export const ToolInvokeEventSchema = z.object({
  kind: z.literal('tn.tool-invoke'),
  toolName: z.string(),
  input: z.unknown(),
  requestId: z.string(),
  traceId: z.string(),
  principal: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('anonymous') }),
    z.object({
      kind: z.literal('user'),
      userId: z.string(),
      permissions: z.array(z.string()),
      via: z.enum(['local-token', 'jwt', 'personal-access-token']),
    }),
  ]),
});
export type ToolInvokeEvent = z.infer<typeof ToolInvokeEventSchema>;

export function serializePrincipal(principal: Principal): ToolInvokeEvent['principal'] {
  return principal.kind === 'user'
    ? { kind: 'user', userId: principal.userId, permissions: [...principal.permissions], via: principal.via }
    : { kind: 'anonymous' };
}

export function deserializePrincipal(principal: ToolInvokeEvent['principal']): Principal {
  return principal.kind === 'user' ? userPrincipal(principal.userId, principal.via, principal.permissions) : { kind: 'anonymous' };
}
