import { SERVICE_VERSION } from '../../platform/config.js';
import { requestLogger, type RequestLogger } from '../../platform/observability.js';
import { recordToolCall } from '../../platform/tool-metrics.js';
import type { Principal } from '../../platform/auth/principal.js';
import { DomainError } from '../../platform/domain-error.js';
import type { Services } from '../../platform/services.js';
import { consumeQuota, quotaWindow } from '../../platform/store/quota-counter.js';
import { storeUnavailable } from '../../platform/store/store-unavailable.js';
import { AgentHintsSchema, buildAgentHints, type AgentHints, type HintInput } from './agent-hints.js';
import type { AnyToolContract, AnyToolDefinition } from './define-tool.js';
import { invalidInput, mapError, ToolError, validationError, type ErrorResponse, type FieldIssue } from './errors.js';
import { INPUT_BOUNDS, inputBoundIssues } from './input-bounds.js';
import type { ProgressUpdate, ToolContext } from './tool-context.js';
import type { ToolRegistry } from './registry.js';

interface ExecutionMeta {
  toolVersion: string;
  serviceVersion: string;
  timestamp: string;
  executionTime: number;
  requestId: string;
  traceId: string;
  cached: boolean;
}

export type Invocation =
  | { ok: true; data: unknown; hints: AgentHints; instruction?: string; nextStep: string; meta: ExecutionMeta }
  | { ok: false; error: ErrorResponse; status: number; instruction: string; meta: ExecutionMeta };

export interface InvocationRequest {
  toolName: string;
  principal: Principal;
  requestId: string;
  traceId: string;
  services: Services;
  registry: ToolRegistry;
  /** Runs other domains' tools for this one, where the process can (the tutor's lookups). */
  contractRunner?: ContractRunner;
  signal?: AbortSignal;
  reportProgress?: (update: ProgressUpdate) => Promise<void>;
  /** Problems the protocol layer saw in the raw input but could not carry in it (keys a JSON-RPC parse drops). */
  inputIssues?: FieldIssue[];
}

/** Runs a call: in-process by default; the AWS /mcp router forwards to the domain's own function. */
export type ToolExecutor = (definition: AnyToolDefinition, rawInput: unknown, request: InvocationRequest) => Promise<Invocation>;

/**
 * How this process runs a tool of another domain, knowing only its contract: the local server holds
 * every binding and runs it in-process; a Lambda forwards it to the domain's own function. A domain
 * that calls another (the tutor's lookups) imports the contract and never the other domain's code.
 */
export type ContractRunner = (contract: AnyToolContract, rawInput: unknown, request: InvocationRequest) => Promise<Invocation>;

const DEADLINE_MS = { fast: 10_000, medium: 30_000, slow: 120_000 } as const;

/**
 * The one path every call takes, whether it arrived over MCP or REST: authenticate, check
 * permissions, validate, rate-limit, serve from cache or run, validate the output, log and measure.
 */
export async function invokeTool(definition: AnyToolDefinition, rawInput: unknown, request: InvocationRequest): Promise<Invocation> {
  const started = performance.now();
  const timestamp = request.services.now();
  const log = requestLogger({ requestId: request.requestId, traceId: request.traceId, tool: request.toolName });
  let cached = false;
  const meta = (): ExecutionMeta => ({
    toolVersion: definition.version,
    serviceVersion: SERVICE_VERSION,
    timestamp: timestamp.toISOString(),
    executionTime: Math.round((performance.now() - started) * 100) / 100,
    requestId: request.requestId,
    traceId: request.traceId,
    cached,
  });

  try {
    authorize(definition, request.principal);
    const shapeIssues = [...(request.inputIssues ?? []), ...inputBoundIssues(rawInput)];
    if (shapeIssues.length) throw invalidInput(shapeIssues.slice(0, INPUT_BOUNDS.issuesListed));
    const parsed = definition.input.safeParse(rawInput ?? {});
    if (!parsed.success) throw validationError(parsed.error);
    const input = parsed.data;
    await enforceRateLimit(definition, request);

    const cacheKey = definition.cacheable
      ? cacheKeyFor(request.toolName, input, request.principal, await definition.cacheVersion?.(contextFor(request, log, request.signal ?? new AbortController().signal)))
      : undefined;
    let outcome = cacheKey ? request.services.cache.get<Awaited<ReturnType<AnyToolDefinition['handler']>>>(cacheKey) : undefined;
    cached = outcome !== undefined;
    if (!outcome) {
      outcome = await runWithDeadline(definition, input, request, log);
      const output = definition.output.safeParse(outcome.data);
      if (!output.success) {
        log.error('Tool output failed its own schema', { issues: output.error.issues.slice(0, 5) });
        throw new Error('output schema violation');
      }
      outcome = { ...outcome, data: output.data };
      if (cacheKey) request.services.cache.set(cacheKey, outcome, definition.cacheTTL ?? 60);
    }
    const hints = AgentHintsSchema.parse(buildAgentHints(withDeprecation(definition, outcome.hints)));
    if (definition.deprecated) log.warn('deprecated tool called', { replacement: definition.deprecated.replacement });
    // What the server says (hints, instruction, next step) names tools as served; the data is the caller's own.
    // Renamed here, per call, because it is made per call (unlike listings: ToolRegistry.rendered); the default prefix skips the walk.
    const said = request.registry.servedText({
      hints,
      ...(outcome.instruction ? { instruction: outcome.instruction } : {}),
      nextStep: outcome.nextStep ?? defaultNextStep(hints),
    });
    const result = { ok: true as const, data: outcome.data, ...said, meta: meta() };
    log.info('tool call', { outcome: 'success', executionTime: result.meta.executionTime, cached });
    recordToolCall({ tool: request.toolName, durationMs: result.meta.executionTime, outcome: 'success', cached });
    return result;
  } catch (thrown) {
    // A table that does not answer is a dependency down (503, retry), not a failure of ours (500).
    const unavailable = storeUnavailable(thrown);
    if (unavailable) log.warn('the table did not answer', { error: describeUnexpected(thrown) });
    const error = unavailable ?? thrown;
    const mapped = mapError(error, request.requestId);
    const m = meta();
    if (mapped.unexpected) {
      log.error('tool call failed unexpectedly', { error: describeUnexpected(error), executionTime: m.executionTime });
    } else {
      log.info('tool call', { outcome: 'error', code: mapped.response.code, executionTime: m.executionTime });
    }
    recordToolCall({ tool: request.toolName, durationMs: m.executionTime, outcome: 'error', errorCode: mapped.response.code, cached });
    // An error's message and instruction are made for this call: renamed per call, like hints.
    const said = request.registry.servedText({ error: mapped.response, instruction: mapped.instruction });
    return { ok: false, ...said, status: mapped.status, meta: m };
  }
}

/** Public tools admit anonymous callers, but a signed-in caller is always held to the tool's permissions. */
function authorize(definition: AnyToolDefinition, principal: Principal): void {
  if (principal.kind !== 'user') {
    if (definition.access === 'public') return;
    throw new ToolError('UNAUTHORIZED', 'This tool needs a signed-in user: send an Authorization: Bearer <token> header.');
  }
  const missing = definition.permissions.filter((permission) => !principal.permissions.has(permission));
  if (missing.length) {
    throw new ToolError('FORBIDDEN', `The token lacks the permission${missing.length > 1 ? 's' : ''} ${missing.join(', ')}.`, {
      reason: `missing ${missing.join(', ')}`,
    });
  }
}

async function enforceRateLimit(definition: AnyToolDefinition, request: InvocationRequest): Promise<void> {
  if (!definition.rateLimit || request.principal.kind !== 'user') return;
  const now = request.services.now();
  const window = quotaWindow(definition.rateLimit.windowMs, now);
  const result = await consumeQuota(request.services.store, {
    userId: request.principal.userId,
    kind: `tool:${definition.name}`,
    max: definition.rateLimit.maxCalls,
    window,
  });
  if (!result.admitted) {
    throw DomainError.limitReached(`Rate limit for ${request.toolName} exceeded`, result, now, `${result.current}/${result.max} calls in the current ${window.label} window`);
  }
}

async function runWithDeadline(
  definition: AnyToolDefinition,
  input: unknown,
  request: InvocationRequest,
  log: RequestLogger,
) {
  const deadline = AbortSignal.timeout(DEADLINE_MS[definition.responseTime as keyof typeof DEADLINE_MS]);
  const signal = request.signal ? AbortSignal.any([request.signal, deadline]) : deadline;
  let fail: () => void = () => undefined;
  const aborted = new Promise<never>((_, reject) => {
    fail = () => reject(new ToolError('SERVICE_UNAVAILABLE', 'The call did not finish before its deadline.'));
    if (signal.aborted) fail();
    signal.addEventListener('abort', fail, { once: true });
  });
  const run = definition.handler(input, contextFor(request, log, signal));
  try {
    return await Promise.race([run, aborted]);
  } finally {
    signal.removeEventListener('abort', fail);
  }
}

function contextFor(request: InvocationRequest, log: RequestLogger, signal: AbortSignal): ToolContext {
  return {
    toolName: request.toolName,
    requestId: request.requestId,
    traceId: request.traceId,
    principal: request.principal,
    services: request.services,
    registry: request.registry,
    contractRunner: request.contractRunner,
    logger: log,
    signal,
    now: request.services.now,
    reportProgress: request.reportProgress,
  };
}

/** Seed 001: a deprecated tool keeps working, and every answer tells the agent what replaces it. */
function withDeprecation(definition: AnyToolDefinition, hints: HintInput): HintInput {
  if (!definition.deprecated) return hints;
  const { since, replacement, removalDate } = definition.deprecated;
  return {
    ...hints,
    warnings: [
      ...(hints.warnings ?? []),
      {
        type: 'deprecation',
        severity: 'medium',
        message: `Deprecated since ${since}; removed after ${removalDate}.`,
        suggestedFix: `Use ${replacement} instead.`,
      },
    ],
  };
}

function cacheKeyFor(toolName: string, input: unknown, principal: Principal, version = ''): string {
  return JSON.stringify([toolName, principal.kind === 'user' ? principal.userId : '', version, input]);
}

function defaultNextStep(hints: AgentHints): string {
  const first = hints.suggestedNextActions[0];
  if (!first) return 'Next: answer the user from this result.';
  return `Next: ${first.description ?? first.action}${first.tool ? ` (${first.tool})` : ''}.`;
}

function describeUnexpected(error: unknown): Record<string, unknown> {
  if (error instanceof Error) return { name: error.name, message: error.message, stack: error.stack };
  return { value: String(error) };
}
