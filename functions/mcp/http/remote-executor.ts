import { InvokeCommand, InvokeWithResponseStreamCommand, type LambdaClient } from '@aws-sdk/client-lambda';
import { SERVICE_VERSION } from '../../platform/config.js';
import { relayLines, serializePrincipal, type CompleteEvent, type ToolInvokeEvent } from './remote-invocation.js';
export { parseDomainFunctions } from './remote-invocation.js';
import type { Completer, Completion } from '../surface/completion.js';
import { requestLogger } from '../../platform/observability.js';
import type { AnyToolContract, Domain } from '../tools/define-tool.js';
import { mapError, ToolError } from '../tools/errors.js';
import { invokeTool, type ContractRunner, type Invocation, type InvocationRequest, type ToolExecutor } from '../tools/invoke-tool.js';

/**
 * The /mcp router lists every tool but holds none of their permissions: each call is forwarded to
 * its domain's function, which runs it under that function's least-privilege role. Endpoint-wide
 * tools (discovery) need nothing and run here.
 */
export function remoteExecutor(lambda: Pick<LambdaClient, 'send'>, functionByDomain: Partial<Record<Domain, string>>): ToolExecutor {
  const forward = remoteContractRunner(lambda, functionByDomain);
  return (definition, rawInput, request) => (functionByDomain[definition.domain] ? forward(definition, rawInput, request) : invokeTool(definition, rawInput, request));
}

/**
 * Runs a tool of another domain by its contract in that domain's function (the tutor's catalog and
 * transfer lookups from the session function): this process holds neither the code nor the rights.
 */
export function remoteContractRunner(lambda: Pick<LambdaClient, 'send'>, functionByDomain: Partial<Record<Domain, string>>): ContractRunner {
  return async (contract: AnyToolContract, rawInput: unknown, request: InvocationRequest): Promise<Invocation> => {
    const started = performance.now();
    const functionName = functionByDomain[contract.domain];
    try {
      if (!functionName) throw new Error(`no function is configured for the ${contract.domain} domain (TN_DOMAIN_FUNCTIONS)`);
      const event: ToolInvokeEvent = {
        kind: 'tn.tool-invoke',
        toolName: request.toolName,
        input: rawInput,
        requestId: request.requestId,
        traceId: request.traceId,
        principal: serializePrincipal(request.principal),
      };
      if (request.reportProgress) return await relayStreamed(lambda, functionName, { ...event, stream: true }, request);
      const result = await lambda.send(
        new InvokeCommand({ FunctionName: functionName, Payload: Buffer.from(JSON.stringify(event)) }),
        { abortSignal: request.signal },
      );
      if (result.FunctionError || !result.Payload) throw new Error(`domain function ${contract.domain} failed: ${result.FunctionError ?? 'no payload'}`);
      return JSON.parse(Buffer.from(result.Payload).toString('utf8')) as Invocation;
    } catch (error) {
      requestLogger({ requestId: request.requestId, traceId: request.traceId, tool: request.toolName }).error('forwarding failed', {
        error: error instanceof Error ? error.message : String(error),
      });
      const mapped = mapError(new ToolError('SERVICE_UNAVAILABLE', `The ${contract.domain} service did not answer.`), request.requestId);
      return {
        ok: false,
        error: mapped.response,
        status: mapped.status,
        instruction: mapped.instruction,
        meta: {
          toolVersion: contract.version,
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

/** Completion from the course function, which holds the warm search index (the router holds no catalog). */
export function remoteCompleter(lambda: Pick<LambdaClient, 'send'>, functionByDomain: Partial<Record<Domain, string>>): Completer {
  return async (_services, completion, value, context) => {
    const functionName = functionByDomain.course;
    if (!functionName) return { values: [] };
    const event: CompleteEvent = { kind: 'tn.complete', completion, value, context };
    const result = await lambda.send(new InvokeCommand({ FunctionName: functionName, Payload: Buffer.from(JSON.stringify(event)) }));
    if (result.FunctionError || !result.Payload) throw new Error(`course function failed to complete: ${result.FunctionError ?? 'no payload'}`);
    return JSON.parse(Buffer.from(result.Payload).toString('utf8')) as Completion;
  };
}
