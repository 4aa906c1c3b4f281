import type * as z from 'zod/v4';
import type { HintInput } from './agent-hints.js';
import type { ErrorCode } from './errors.js';
import type { ToolContext } from './tool-context.js';

export const DOMAINS = ['session', 'course', 'transfer', 'user', 'tools'] as const;
export type Domain = (typeof DOMAINS)[number];

export type ToolCategory = 'query' | 'mutation' | 'analysis' | 'generation';
type ResponseTime = 'fast' | 'medium' | 'slow';

interface ToolExample {
  description: string;
  input: Record<string, unknown>;
  /** 'success' or the error code the example demonstrates; examples are executed in the test suite. */
  expect: 'success' | ErrorCode;
  /** An illustrative result; validated against the output schema. */
  output?: unknown;
}

interface ToolOutcome<O> {
  data: O;
  hints: HintInput;
  /** Seed 002: tells the agent how to use this result, when that is not obvious. */
  instruction?: string;
  /** One line of suggested next step appended to the text content. */
  nextStep?: string;
}

export interface ToolDefinition<I extends z.ZodObject = z.ZodObject, O extends z.ZodType = z.ZodType> {
  /** Unprefixed name, `<domain>_<verb>`; the served name is TN_TOOL_PREFIX + name (seed 002). */
  name: string;
  domain: Domain;
  title: string;
  /** What it does, when to use it, what it returns (seed 003), with an example use. */
  description: string;
  version: string;
  input: I;
  output: O;
  category: ToolCategory;
  /** `resource:action` permissions the caller's token must carry (seed 001). */
  permissions: string[];
  /** `public` tools accept anonymous callers; `user` tools need an authenticated principal. */
  access: 'public' | 'user';
  responseTime: ResponseTime;
  cacheable: boolean;
  /** Seconds; required when cacheable. */
  cacheTTL?: number;
  idempotent: boolean;
  /**
   * For cacheable tools whose data changes in place (the catalog): a version that is part of the
   * cache key, so a new version is never answered from an older cached result.
   */
  cacheVersion?: (ctx: ToolContext) => Promise<string>;
  /** Destructive tools must take an explicit confirmation literal (seed 002). */
  destructive?: boolean;
  /** True when the tool reaches systems outside Tutor Nexus (LLM providers, remote sources). */
  openWorld?: boolean;
  tags: string[];
  examples: ToolExample[];
  rateLimit?: { maxCalls: number; windowMs: number };
  deprecated?: { since: string; replacement: string; removalDate: string };
  handler: (input: z.output<I>, ctx: ToolContext) => Promise<ToolOutcome<z.output<O>>>;
}

/** Identity function that keeps the input and output types of one definition tied together. */
export function defineTool<I extends z.ZodObject, O extends z.ZodType>(definition: ToolDefinition<I, O>): ToolDefinition<I, O> {
  return definition;
}

// The registry stores definitions of many shapes; handlers are only called with parsed input.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyToolDefinition = ToolDefinition<any, any>;

/** A tool's contract: everything but the handler. What the router, the docs and other domains import. */
export type ToolContract<I extends z.ZodObject = z.ZodObject, O extends z.ZodType = z.ZodType> = Omit<ToolDefinition<I, O>, 'handler'>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyToolContract = ToolContract<any, any>;

/**
 * A tool's output as its contract declares it. The web app and the CLI type their calls with it through
 * `import type` only: checked against the server's schema, erased from their bundles.
 */
export type ToolOutput<Contract extends { output: z.ZodType }> = z.output<Contract['output']>;

/** Identity function that keeps a contract's input and output types tied together. */
export function defineContract<I extends z.ZodObject, O extends z.ZodType>(contract: ToolContract<I, O>): ToolContract<I, O> {
  return contract;
}

/** Binds a contract to the domain call that serves it (the tool file of its domain). */
export function bindTool<I extends z.ZodObject, O extends z.ZodType>(contract: ToolContract<I, O>, handler: ToolDefinition<I, O>['handler']): ToolDefinition<I, O> {
  return { ...contract, handler };
}

/**
 * A contract served where it never runs: the AWS router lists every tool and forwards each call to its
 * domain's function, so it needs no handler (and bundles none of the domains).
 */
export function forwardedOnly(contract: AnyToolContract): AnyToolDefinition {
  return {
    ...contract,
    handler: () => Promise.reject(new Error(`${contract.name} runs in the ${contract.domain} function; this process only forwards it`)),
  };
}
