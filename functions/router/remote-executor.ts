import { InvokeCommand, InvokeWithResponseStreamCommand, type LambdaClient } from '@aws-sdk/client-lambda';
import { SERVICE_VERSION } from '../shared/config.js';
import { relayLines, serializePrincipal, type ToolInvokeEvent } from '../shared/http/remote-invocation.js';
import { requestLogger } from '../shared/observability.js';
import type { AnyToolDefinition, Domain } from '../shared/tools/define-tool.js';
import { mapError, ToolError } from '../shared/tools/errors.js';
import { invokeTool, type Invocation, type InvocationRequest, type ToolExecutor } from '../shared/tools/invoke-tool.js';

/**
 * The /mcp router lists every tool but holds none of their permissions: each call is forwarded to
 * its domain's function, which runs it under that function's least-privilege role. Endpoint-wide
 * tools (discovery) need nothing and run here.
 */
export function remoteExecutor(lambda: Pick<LambdaClient, 'send'>, functionByDomain: Partial<Record<Domain, string>>): ToolExecutor {
  return async (definition: AnyToolDefinition, rawInput: unknown, request: InvocationRequest): Promise<Invocation> => {
    const functionName = functionByDomain[definition.domain];
    if (!functionName) return invokeTool(definition, rawInput, request);
    const event: ToolInvokeEvent = {
      kind: 'tn.tool-invoke',
      toolName: request.toolName,
      input: rawInput,
      requestId: request.requestId,
      traceId: request.traceId,
      principal: serializePrincipal(request.principal),
    };
    const started = performance.now();
    try {
      if (request.reportProgress) return await relayStreamed(lambda, functionName, { ...event, stream: true }, request);
      const result = await lambda.send(
        new InvokeCommand({ FunctionName: functionName, Payload: Buffer.from(JSON.stringify(event)) }),
        { abortSignal: request.signal },
      );
      if (result.FunctionError || !result.Payload) throw new Error(`domain function ${definition.domain} failed: ${result.FunctionError ?? 'no payload'}`);
      return JSON.parse(Buffer.from(result.Payload).toString('utf8')) as Invocation;
    } catch (error) {
      requestLogger({ requestId: request.requestId, traceId: request.traceId, tool: request.toolName }).error('forwarding failed', {
        error: error instanceof Error ? error.message : String(error),
      });
      const mapped = mapError(new ToolError('SERVICE_UNAVAILABLE', `The ${definition.domain} service did not answer.`), request.requestId);
      return {
        ok: false,
        error: mapped.response,
        status: mapped.status,
        instruction: mapped.instruction,
        meta: {
          toolVersion: definition.version,
          serviceVersion: SERVICE_VERSION,
          timestamp: request.services.now().toISOString(),
          executionTime: Math.round(performance.now() - started),
          requestId: request.requestId,
          traceId: request.traceId,
          cached: false,
        },
      };
    }
  };
}

/**
 * A call whose client asked for progress: the domain function streams relay lines back
 * (InvokeWithResponseStream) and each progress line is passed on to the client as it arrives.
 */
async function relayStreamed(lambda: Pick<LambdaClient, 'send'>, functionName: string, event: ToolInvokeEvent, request: InvocationRequest): Promise<Invocation> {
  const response = await lambda.send(
    new InvokeWithResponseStreamCommand({ FunctionName: functionName, Payload: Buffer.from(JSON.stringify(event)) }),
    { abortSignal: request.signal },
  );
  async function* payloads(): AsyncGenerator<Uint8Array> {
    for await (const item of response.EventStream ?? []) {
      if (item.PayloadChunk?.Payload) yield item.PayloadChunk.Payload;
      if (item.InvokeComplete?.ErrorCode) throw new Error(`domain function failed: ${item.InvokeComplete.ErrorCode}`);
    }
  }
  for await (const line of relayLines(payloads())) {
    if (line.type === 'progress') await request.reportProgress?.(line.update);
    else return line.invocation;
  }
  throw new Error('domain function ended its stream without a result');
}

/** `TN_DOMAIN_FUNCTIONS` is JSON: `{"user": "<function name>", …}`, set by the stack. */
export function parseDomainFunctions(raw: string | undefined): Partial<Record<Domain, string>> {
  if (!raw) return {};
  return JSON.parse(raw) as Partial<Record<Domain, string>>;
}
