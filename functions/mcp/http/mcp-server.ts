import { ProtocolError, ProtocolErrorCode, Server, type CallToolResult } from '@modelcontextprotocol/server';
import { requestUlid } from '../../platform/ids.js';
import { SERVICE_NAME, SERVICE_VERSION } from '../../platform/config.js';
import type { Principal } from '../../platform/auth/principal.js';
import type { Services } from '../../platform/services.js';
import type { FieldIssue } from '../tools/errors.js';
import { invokeTool, type ContractRunner, type Invocation, type ToolExecutor } from '../tools/invoke-tool.js';
import { jsonSchemasOf } from '../tools/json-schemas.js';
import { listedTool } from '../tools/tool-listing.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { Completer } from '../surface/completion.js';
import { SERVER_ICONS } from '../surface/icons.js';
import { resourceLinksIn } from '../surface/resource-links.js';
import type { Surface } from '../surface/surface-contract.js';
import { registerSurface } from '../surface/surface-server.js';
import { viewMetaByTool } from '../surface/view-server.js';

const INSTRUCTIONS =
  'Tutor Nexus: tutoring sessions, a BC course catalog, transfer-credit resolution and user settings. ' +
  'Call tn_tools_list to discover tools by domain or tag. Course references look like "sfu:CMPT 120".';

/**
 * Lists never change within a release (SERVICE_VERSION), and contracts change additively only, so a
 * list cached across a deploy still names tools that exist; the same list for every caller (public).
 * Resource reads keep the SDK's default (private, not cached): transcripts are per user.
 */
const LIST_CACHE = { ttlMs: 300_000, cacheScope: 'public' as const };
const CACHE_HINTS = { 'tools/list': LIST_CACHE, 'prompts/list': LIST_CACHE, 'resources/list': LIST_CACHE, 'resources/templates/list': LIST_CACHE };
const NO_SURFACE: Surface = { resources: [], prompts: [] };

/** A fresh low-level server per HTTP request: stateless transports cannot be reused. */
export function buildMcpServer(args: {
  registry: ToolRegistry;
  services: Services;
  principal: Principal;
  traceId: string;
  /** Per tools/call id: what the raw arguments held that the protocol parse dropped. */
  inputIssues?: Map<string | number, FieldIssue[]>;
  executeTool?: ToolExecutor;
  contractRunner?: ContractRunner;
  /** Resources and prompts this endpoint serves beside its tools. */
  surface?: Surface;
  complete?: Completer;
}): Server {
  const { registry, services, principal, traceId, executeTool = invokeTool, surface = NO_SURFACE } = args;
  const capabilities = {
    tools: {},
    ...(surface.resources.length || surface.views?.length ? { resources: {} } : {}),
    ...(surface.prompts.length ? { prompts: {} } : {}),
    ...(args.complete && (surface.resources.length || surface.prompts.length) ? { completions: {} } : {}),
  };
  const server = new Server(
    { name: SERVICE_NAME, title: 'Tutor Nexus', version: SERVICE_VERSION, icons: SERVER_ICONS },
    { capabilities, instructions: registry.rendered(registry, 'instructions', () => INSTRUCTIONS), cacheHints: CACHE_HINTS },
  );

  server.setRequestHandler('tools/list', async () => ({
    tools: listTools(registry, surface),
    // What a client may key a cached list on: it changes only with the release.
    _meta: { 'tutor-nexus/release': SERVICE_VERSION },
  }));

  server.setRequestHandler('tools/call', async (request, ctx) => {
    const { name, arguments: input } = request.params;
    const definition = registry.get(name);
    if (!definition) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${name}`);
    const progressToken = ctx.mcpReq._meta?.progressToken;
    const inputIssues = args.inputIssues?.get(ctx.mcpReq.id);
    // Input refused before it runs anywhere: never forwarded to a domain function.
    const execute = inputIssues ? invokeTool : executeTool;
    const invocation = await execute(definition, input, {
      toolName: name,
      principal,
      requestId: requestUlid(),
      traceId,
      services,
      registry,
      contractRunner: args.contractRunner,
      signal: ctx.mcpReq.signal,
      inputIssues,
      reportProgress:
        progressToken === undefined
          ? undefined
          : (update) => ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken, ...update } }),
    });
    const result = toCallToolResult(invocation);
    // Appended after the text blocks: clients and tests read content[0], and hosts that know links show them.
    if (invocation.ok) result.content.push(...resourceLinksIn(invocation.data, surface));
    return server.projectCallToolResult(result, jsonSchemasOf(definition).output);
  });

  if (surface.resources.length || surface.prompts.length || surface.views?.length) {
    registerSurface(server, { registry, surface, complete: args.complete, services, principal, traceId, executeTool, contractRunner: args.contractRunner });
  }
  return server;
}

/**
 * Every tool of an endpoint as tools/list answers it (a host's budget: ADR 0026), each with its view's
 * `_meta` where it has one (ADR 0038). Built and renamed for the prefix once per registry and surface (a
 * server is built per request; the list is the same for all of them), so descriptions and schemas name
 * tools as served without walking the list on every call.
 */
export function listTools(registry: ToolRegistry, surface: Surface = NO_SURFACE) {
  return registry.rendered(surface, 'tools/list', () => {
    // Every client gets the views: at tools/list a stateless server cannot know what the client declared, and hosts without MCP Apps ignore `_meta.ui`.
    const viewMeta = viewMetaByTool(surface);
    return registry.getAll().map((definition) => listedTool(definition, registry, { _meta: viewMeta.get(definition.name) }));
  });
}

/**
 * structuredContent is the output; the text repeats it as JSON with a one-line next step.
 * An error carries no structuredContent: clients validate structuredContent against the tool's
 * outputSchema even on isError results (the v1 SDK client throws), so the ErrorResponse travels
 * as the first text block and in `_meta.error`.
 */
function toCallToolResult(invocation: Invocation): CallToolResult {
  if (invocation.ok) {
    return {
      content: [
        { type: 'text', text: JSON.stringify(invocation.data) },
        { type: 'text', text: invocation.nextStep },
      ],
      structuredContent: invocation.data as Record<string, unknown>,
      _meta: {
        agentHints: invocation.hints,
        ...(invocation.instruction ? { instruction: invocation.instruction } : {}),
        execution: invocation.meta,
      },
    };
  }
  return {
    isError: true,
    content: [
      { type: 'text', text: JSON.stringify(invocation.error) },
      { type: 'text', text: `Next: ${invocation.instruction}` },
    ],
    _meta: { error: invocation.error, instruction: invocation.instruction, execution: invocation.meta },
  };
}
