import * as z from 'zod/v4';
import type { Principal } from '../../platform/auth/principal.js';
import { AUTH_METHODS, userPrincipal } from '../../platform/auth/principal.js';
import type { Invocation } from '../tools/invoke-tool.js';
import type { ProgressUpdate } from '../tools/tool-context.js';
import { COMPLETION_KINDS } from '../surface/surface-contract.js';
import type { Domain } from '../tools/define-tool.js';

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
  /** The caller asked for progress: answer as relay lines (progress…, result) on the response stream. */
  stream: z.boolean().optional(),
  principal: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('anonymous') }),
    z.object({
      kind: z.literal('user'),
      userId: z.string(),
      permissions: z.array(z.string()),
      via: z.enum(AUTH_METHODS),
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

/**
 * What a domain function streams back to the router for a `stream: true` invocation: one JSON object
 * per line, any number of progress lines, then exactly one result line.
 */
export type RelayLine = { type: 'progress'; update: ProgressUpdate } | { type: 'result'; invocation: Invocation };

export const encodeRelayLine = (line: RelayLine) => `${JSON.stringify(line)}\n`;

/** Splits a byte stream into relay lines as they complete, whatever the chunk boundaries. */
export async function* relayLines(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<RelayLine> {
  const decoder = new TextDecoder();
  let buffered = '';
  for await (const chunk of chunks) {
    buffered += decoder.decode(chunk, { stream: true });
    let newline: number;
    while ((newline = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      if (line.trim()) yield JSON.parse(line) as RelayLine;
    }
  }
  if (buffered.trim()) yield JSON.parse(buffered) as RelayLine;
}

/** The event the /mcp router sends to the course function to complete an argument from its search index. */
export const CompleteEventSchema = z.object({
  kind: z.literal('tn.complete'),
  completion: z.enum(COMPLETION_KINDS),
  value: z.string().max(2000),
  context: z.record(z.string(), z.string()),
});
export type CompleteEvent = z.infer<typeof CompleteEventSchema>;

/** `TN_DOMAIN_FUNCTIONS` is JSON: `{"user": "<function name>", …}`, set by the stack. */
export function parseDomainFunctions(raw: string | undefined): Partial<Record<Domain, string>> {
  if (!raw) return {};
  return JSON.parse(raw) as Partial<Record<Domain, string>>;
}
