import type { Principal } from '../../platform/auth/principal.js';
import type { RequestLogger } from '../../platform/observability.js';
import type { Services } from '../../platform/services.js';
import type { ToolRegistry } from './registry.js';
import type { ContractRunner } from './invoke-tool.js';

export interface ProgressUpdate {
  progress: number;
  total?: number;
  message?: string;
}

export interface ToolContext {
  /** Served name, prefix included. */
  toolName: string;
  requestId: string;
  traceId: string;
  principal: Principal;
  services: Services;
  /** The tools served on this endpoint (for discovery). */
  registry: ToolRegistry;
  /** Runs other domains' tools for this one; absent where the process cannot (see contract-runner.ts). */
  contractRunner?: ContractRunner;
  logger: RequestLogger;
  /** Aborted at the call's deadline or when the client goes away. */
  signal: AbortSignal;
  now(): Date;
  /** Present when the caller asked for progress (an MCP progress token). */
  reportProgress?: (update: ProgressUpdate) => Promise<void>;
}

/** The signed-in user's id; user-access tools run only after the framework checked there is one. */
export function requireUserId(ctx: ToolContext): string {
  if (ctx.principal.kind !== 'user') throw new Error('requireUserId called for an anonymous principal');
  return ctx.principal.userId;
}
