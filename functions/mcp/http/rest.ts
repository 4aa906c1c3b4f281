import { requestUlid } from '../../platform/ids.js';
import type { Principal } from '../../platform/auth/principal.js';
import type { Services } from '../../platform/services.js';
import { invokeTool, type ContractRunner, type ToolExecutor } from '../tools/invoke-tool.js';
import { mapError, ToolError } from '../tools/errors.js';
import type { ToolRegistry } from '../tools/registry.js';

/** REST twin: the body is the tool's input, the response its output (or an ErrorResponse with its status). */
export async function handleRestCall(args: {
  bodyText: string;
  signal: AbortSignal;
  toolName: string;
  registry: ToolRegistry;
  services: Services;
  principal: Principal;
  traceId: string;
  executeTool?: ToolExecutor;
  contractRunner?: ContractRunner;
}): Promise<Response> {
  const requestId = requestUlid();
  const definition = args.registry.get(args.toolName);
  if (!definition) {
    return errorJson(ToolError.notFound(`No tool named ${args.toolName}. GET /openapi.json lists every tool.`), requestId, args.traceId);
  }
  let input: unknown;
  try {
    input = args.bodyText.trim() ? JSON.parse(args.bodyText) : {};
  } catch {
    return errorJson(ToolError.badRequest('The request body is not valid JSON.', [{ field: '(root)', message: 'invalid JSON' }]), requestId, args.traceId);
  }
  const invocation = await (args.executeTool ?? invokeTool)(definition, input, {
    toolName: args.toolName,
    principal: args.principal,
    requestId,
    traceId: args.traceId,
    services: args.services,
    registry: args.registry,
    contractRunner: args.contractRunner,
    signal: args.signal,
  });
  const headers = {
    'content-type': 'application/json',
    'x-request-id': invocation.meta.requestId,
    'x-trace-id': invocation.meta.traceId,
    'x-tn-cached': String(invocation.meta.cached),
    'x-tn-execution-ms': String(invocation.meta.executionTime),
  };
  if (invocation.ok) return new Response(JSON.stringify(invocation.data), { status: 200, headers });
  return new Response(JSON.stringify(invocation.error), { status: invocation.status, headers });
}

export function errorJson(error: unknown, requestId: string, traceId: string, extraHeaders: Record<string, string> = {}): Response {
  const mapped = mapError(error, requestId);
  return new Response(JSON.stringify(mapped.response), {
    status: mapped.status,
    headers: { 'content-type': 'application/json', 'x-request-id': requestId, 'x-trace-id': traceId, ...extraHeaders },
  });
}
