import type { AnyToolContract, AnyToolDefinition } from './define-tool.js';
import { invokeTool, type Invocation, type InvocationRequest } from './invoke-tool.js';
import type { ToolContext } from './tool-context.js';

/**
 * How this process runs a tool of another domain, knowing only its contract: the local server holds
 * every binding and runs it in-process; a Lambda forwards it to the domain's own function. A domain
 * that calls another (the tutor's lookups) imports the contract and never the other domain's code.
 */
export type ContractRunner = (contract: AnyToolContract, rawInput: unknown, request: InvocationRequest) => Promise<Invocation>;

export function inProcessRunner(bindings: AnyToolDefinition[]): ContractRunner {
  const byName = new Map(bindings.map((binding) => [binding.name, binding]));
  return (contract, rawInput, request) => {
    const binding = byName.get(contract.name);
    if (!binding) return Promise.reject(new Error(`${contract.name} is not bound in this process`));
    return invokeTool(binding, rawInput, request);
  };
}

/**
 * Runs another domain's tool for the caller of the current one, through the same pipeline a client's
 * call takes (validation, caching, permissions). Undefined where the process cannot run it.
 */
export function runContractFor(ctx: ToolContext, contract: AnyToolContract, input: Record<string, unknown>): Promise<Invocation> | undefined {
  return ctx.services.contractRunner?.(contract, input, {
    toolName: ctx.registry.servedName(contract),
    principal: ctx.principal,
    requestId: ctx.requestId,
    traceId: ctx.traceId,
    services: ctx.services,
    registry: ctx.registry,
    signal: ctx.signal,
  });
}
