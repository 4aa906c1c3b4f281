import type { JSONSchema7, ToolSet } from 'ai';
import { equivalentElsewhereContract } from '../../course/contracts/equivalent-elsewhere.js';
import { getContract } from '../../course/contracts/get.js';
import { outlineContract } from '../../course/contracts/outline.js';
import { prereqsContract } from '../../course/contracts/prereqs.js';
import { searchContract } from '../../course/contracts/search.js';
import { runContractFor } from '../../mcp/tools/contract-runner.js';
import type { AnyToolContract } from '../../mcp/tools/define-tool.js';
import { jsonSchemasOf } from '../../mcp/tools/json-schemas.js';
import type { ToolContext } from '../../mcp/tools/tool-context.js';
import { resolveContract } from '../../transfer/contracts/resolve.js';

/**
 * Read-only lookups the tutor may make mid-turn: catalog facts and transfer credit, nothing that writes.
 * Contracts only: the host runs them (in-process locally, in the course and transfer functions in AWS).
 */
export const TUTOR_LOOKUPS: AnyToolContract[] = [getContract, searchContract, prereqsContract, outlineContract, resolveContract, equivalentElsewhereContract];

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
  // A process that cannot run other domains' tools offers the model none.
  if (maxCalls <= 0 || !ctx.contractRunner) return {};
  const { jsonSchema, tool } = await import('./ai-runtime.js');
  const tools: ToolSet = {};
  for (const contract of TUTOR_LOOKUPS) {
    const name = ctx.registry.servedName(contract);
    // The same for every turn: built and renamed for the prefix once per registry.
    const offered = ctx.registry.rendered(contract, 'tutor-lookup', () => ({
      description: contract.description,
      // The pipeline validates; a malformed call comes back to the model as a BAD_REQUEST it can fix.
      inputSchema: withoutKeyConstraints(jsonSchemasOf(contract).input) as JSONSchema7,
    }));
    tools[name] = tool({
      description: offered.description,
      inputSchema: jsonSchema<Record<string, unknown>>(offered.inputSchema),
      execute: async (input: Record<string, unknown>) => {
        // The slot is taken before any await: parallel calls in one step cannot overrun the limit.
        if (log.started >= maxCalls) {
          return { error: `Lookup limit of ${maxCalls} reached for this answer; answer with what you already know.` };
        }
        log.started++;
        const invocation = (await runContractFor(ctx, contract, input))!;
        log.calls.push({ tool: name, ok: invocation.ok });
        const result = invocation.ok ? invocation.data : { error: invocation.error.code, message: invocation.error.message, details: invocation.error.details };
        const text = JSON.stringify(result);
        return text.length > MAX_RESULT_CHARS ? { truncated: true, json: text.slice(0, MAX_RESULT_CHARS) } : result;
      },
    });
  }
  return tools;
}

/**
 * The input schema as every provider can take it: without `propertyNames` (the key pattern of a record,
 * such as course codes in `grades`), which OpenAI's tool schemas do not support and the AI SDK would strip
 * with a warning on every turn. The keys are still checked: the pipeline validates each call.
 */
export function withoutKeyConstraints(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutKeyConstraints);
  if (!schema || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([key]) => key !== 'propertyNames')
      .map(([key, value]) => [key, withoutKeyConstraints(value)]),
  );
}
