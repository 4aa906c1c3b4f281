import type * as z from 'zod/v4';
import { bindTool, type ToolContract, type ToolDefinition } from '../mcp/tools/define-tool.js';
import type { ToolContext } from '../mcp/tools/tool-context.js';
import { catalogCacheFor } from './catalog-cache.js';

/**
 * A catalog or transfer tool's binding: cached results are keyed by the catalog version, so a call
 * after an ingestion is never answered from a result cached before it.
 */
export function bindCatalogTool<I extends z.ZodObject, O extends z.ZodType>(contract: ToolContract<I, O>, handler: ToolDefinition<I, O>['handler']): ToolDefinition<I, O> {
  const binding = bindTool(contract, handler);
  return contract.cacheable ? { ...binding, cacheVersion: catalogVersion } : binding;
}

/** Cache version of every catalog tool: the catalog version. */
export async function catalogVersion(ctx: ToolContext): Promise<string> {
  return String(await catalogCacheFor(ctx.services.store).currentVersion());
}
