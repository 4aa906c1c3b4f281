import type { AnyToolContract, AnyToolDefinition } from './define-tool.js';
import { invokeTool, type ContractRunner, type Invocation } from './invoke-tool.js';
import type { ToolContext } from './tool-context.js';

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
  return ctx.contractRunner?.(contract, input, {
    toolName: ctx.registry.servedName(contract),
    principal: ctx.principal,
    requestId: ctx.requestId,
    traceId: ctx.traceId,
    services: ctx.services,
    registry: ctx.registry,
    contractRunner: ctx.contractRunner,
    signal: ctx.signal,
  });
}
