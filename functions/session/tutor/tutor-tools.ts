import type { JSONSchema7, ToolSet } from 'ai';
import { equivalentElsewhereTool } from '../../course/tools/equivalent-elsewhere.js';
import { getTool } from '../../course/tools/get.js';
import { outlineTool } from '../../course/tools/outline.js';
import { prereqsTool } from '../../course/tools/prereqs.js';
import { searchTool } from '../../course/tools/search.js';
import type { AnyToolDefinition } from '../../shared/tools/define-tool.js';
import { invokeTool } from '../../shared/tools/invoke-tool.js';
import { jsonSchemasOf } from '../../shared/tools/json-schemas.js';
import type { ToolContext } from '../../shared/tools/tool-context.js';
import { resolveTool } from '../../transfer/tools/resolve.js';

/** Read-only lookups the tutor may make mid-turn: catalog facts and transfer credit, nothing that writes. */
export const TUTOR_LOOKUP_TOOLS: AnyToolDefinition[] = [getTool, searchTool, prereqsTool, outlineTool, resolveTool, equivalentElsewhereTool];

const MAX_RESULT_CHARS = 8000;

export interface LookupLog {
  started: number;
  calls: { tool: string; ok: boolean }[];
}

/**
 * The lookups as AI SDK tools. Each call goes through the same pipeline as a client's call (validation,
 * caching, the caller's own principal), and the count is bounded: past the limit the model is told to
 * answer with what it has.
 */
export async function tutorLookupTools(ctx: ToolContext, maxCalls: number, log: LookupLog): Promise<ToolSet> {
  if (maxCalls <= 0) return {};
  const { jsonSchema, tool } = await import('ai');
  const tools: ToolSet = {};
  for (const definition of TUTOR_LOOKUP_TOOLS) {
    const name = ctx.registry.servedName(definition);
    tools[name] = tool({
      description: definition.description,
      // The pipeline validates; a malformed call comes back to the model as a BAD_REQUEST it can fix.
      inputSchema: jsonSchema<Record<string, unknown>>(jsonSchemasOf(definition).input as JSONSchema7),
      execute: async (input: Record<string, unknown>) => {
        // The slot is taken before any await: parallel calls in one step cannot overrun the limit.
        if (log.started >= maxCalls) {
          return { error: `Lookup limit of ${maxCalls} reached for this answer; answer with what you already know.` };
        }
        log.started++;
        const invocation = await invokeTool(definition, input, {
          toolName: name,
          principal: ctx.principal,
          requestId: ctx.requestId,
          traceId: ctx.traceId,
          services: ctx.services,
          registry: ctx.registry,
          signal: ctx.signal,
        });
        log.calls.push({ tool: name, ok: invocation.ok });
        const result = invocation.ok ? invocation.data : { error: invocation.error.code, message: invocation.error.message, details: invocation.error.details };
        const text = JSON.stringify(result);
        return text.length > MAX_RESULT_CHARS ? { truncated: true, json: text.slice(0, MAX_RESULT_CHARS) } : result;
      },
    });
  }
  return tools;
}
