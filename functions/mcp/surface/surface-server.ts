import { ProtocolError, ProtocolErrorCode, ResourceNotFoundError, type Server } from '@modelcontextprotocol/server';
import { ulid } from 'ulid';
import type * as z from 'zod/v4';
import type { Principal } from '../../platform/auth/principal.js';
import { logger } from '../../platform/observability.js';
import type { Services } from '../../platform/services.js';
import type { ErrorResponse } from '../tools/errors.js';
import type { ContractRunner, ToolExecutor } from '../tools/invoke-tool.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { Completer } from './completion.js';
import { DOMAIN_ICONS } from './icons.js';
import { findResource, templateVariables, type AnyResourceContract, type CompletionKind, type Surface } from './surface-contract.js';
import { findView, readView, viewResources } from './view-server.js';

/** An ErrorResponse from a tool a resource reads through. */
class ResourceReadError extends Error {
  constructor(readonly error: ErrorResponse) {
    super(error.message);
  }
}

export interface SurfaceServing {
  registry: ToolRegistry;
  surface: Surface;
  complete?: Completer;
  services: Services;
  principal: Principal;
  traceId: string;
  executeTool: ToolExecutor;
  contractRunner?: ContractRunner;
}

const isTemplate = (resource: AnyResourceContract) => templateVariables(resource.uriTemplate).length > 0;

/** resources/*, prompts/* and completion/complete, answered from the surface contracts. */
export function registerSurface(server: Server, serving: SurfaceServing): void {
  const { registry, surface } = serving;
  // Per call: what a read or a prompt produces from its arguments. The lists below are the same for
  // every call, so they are built and renamed for the prefix once per registry (ToolRegistry.rendered).
  const text = <T>(value: T) => registry.servedText(value);

  server.setRequestHandler('resources/list', async () => ({
    resources: registry.rendered(surface, 'resources/list', () => [
      ...surface.resources.filter((r) => !isTemplate(r)).map((r) => ({
        uri: r.uriTemplate,
        name: r.name,
        title: r.title,
        description: r.description,
        mimeType: 'text/markdown',
        icons: DOMAIN_ICONS[r.domain],
      })),
      ...viewResources(surface),
    ]),
  }));

  server.setRequestHandler('resources/templates/list', async () => ({
    resourceTemplates: registry.rendered(surface, 'resources/templates/list', () =>
      surface.resources.filter(isTemplate).map((r) => ({
        uriTemplate: r.uriTemplate,
        name: r.name,
        title: r.title,
        description: r.description,
        mimeType: 'text/markdown',
        icons: DOMAIN_ICONS[r.domain],
      })),
    ),
  }));

  server.setRequestHandler('resources/read', async (request) => {
    const { uri } = request.params;
    const view = findView(surface, uri);
    if (view) return readView(surface, view, registry.prefix);
    const found = findResource(surface, uri);
    if (!found) throw new ResourceNotFoundError(uri, `No resource at ${uri}.`);
    // The HTTP layer answers this with a 401 challenge first; this holds wherever a server is built without it.
    if (found.resource.access === 'user' && serving.principal.kind !== 'user') {
      throw new ProtocolError(ProtocolErrorCode.InvalidRequest, `UNAUTHORIZED: ${uri} needs a signed-in user.`);
    }
    const params = found.resource.params.safeParse(found.values);
    if (!params.success) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `BAD_REQUEST: ${issuesOf(params.error)}`);
    try {
      const contents = await found.resource.read(params.data, toolReader(serving));
      return {
        contents: [
          { uri, mimeType: 'text/markdown', text: text(contents.markdown) },
          { uri, mimeType: 'application/json', text: JSON.stringify(contents.json) },
        ],
      };
    } catch (error) {
      if (!(error instanceof ResourceReadError)) throw error;
      // Another user's session reads as missing, exactly like a session that does not exist.
      if (error.error.code === 'NOT_FOUND') throw new ResourceNotFoundError(uri, `NOT_FOUND: ${text(messageOf(error.error))}`);
      const code = error.error.code === 'BAD_REQUEST' ? ProtocolErrorCode.InvalidParams : ProtocolErrorCode.InternalError;
      throw new ProtocolError(code, `${error.error.code}: ${text(messageOf(error.error))}`, error.error);
    }
  });

  server.setRequestHandler('prompts/list', async () => ({
    prompts: registry.rendered(surface, 'prompts/list', () =>
      surface.prompts.map((p) => ({
        name: p.name,
        title: p.title,
        description: p.description,
        arguments: Object.entries(p.args.shape as Record<string, z.ZodType>).map(([name, schema]) => ({
          name,
          description: schema.description,
          required: !schema.safeParse(undefined).success,
        })),
        icons: DOMAIN_ICONS[p.domain],
      })),
    ),
  }));

  server.setRequestHandler('prompts/get', async (request) => {
    const prompt = surface.prompts.find((p) => p.name === request.params.name);
    if (!prompt) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown prompt: ${request.params.name}`);
    const args = prompt.args.safeParse(request.params.arguments ?? {});
    if (!args.success) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `BAD_REQUEST: ${issuesOf(args.error)}`);
    return {
      description: registry.rendered(prompt, 'description', () => prompt.description),
      messages: [{ role: 'user' as const, content: { type: 'text' as const, text: text(prompt.render(args.data)) } }],
    };
  });

  // Only where a completer exists: the SDK refuses a handler for a capability the server does not declare.
  const { complete } = serving;
  if (!complete) return;
  server.setRequestHandler('completion/complete', async (request) => {
    const { ref, argument, context } = request.params;
    const kind = completionKindOf(surface, ref, argument.name);
    if (!kind) return { completion: { values: [] } };
    try {
      const { values, total, hasMore } = await complete(serving.services, kind, argument.value, context?.arguments ?? {});
      return { completion: { values, ...(total === undefined ? {} : { total }), ...(hasMore === undefined ? {} : { hasMore }) } };
    } catch (error) {
      // A completion is a convenience while typing: an empty list beats an error dialog.
      logger.warn('completion failed', { error: error instanceof Error ? error.message : String(error), kind });
      return { completion: { values: [] } };
    }
  });
}

function completionKindOf(surface: Surface, ref: { type: string; name?: string; uri?: string }, argument: string): CompletionKind | undefined {
  const owner =
    ref.type === 'ref/prompt' ? surface.prompts.find((p) => p.name === ref.name) : surface.resources.find((r) => r.uriTemplate === ref.uri);
  return (owner?.completions as Record<string, CompletionKind> | undefined)?.[argument];
}

/** Reads through a tool exactly as tools/call would run it, as this caller (forwarded to its domain in AWS). */
function toolReader(serving: SurfaceServing) {
  const { registry, services, principal, traceId, executeTool, contractRunner } = serving;
  return async (toolName: string, input: Record<string, unknown>) => {
    const served = registry.servedName({ name: toolName });
    const definition = registry.get(served);
    if (!definition) throw new Error(`${toolName} is not served on this endpoint`);
    const invocation = await executeTool(definition, input, { toolName: served, principal, requestId: ulid(), traceId, services, registry, contractRunner });
    if (!invocation.ok) throw new ResourceReadError(invocation.error);
    return invocation.data;
  };
}

/** The message with its hints (close matches): a resource error has no other place a host shows them. */
function messageOf(error: ErrorResponse): string {
  const hints = (error.details as { hints?: unknown } | undefined)?.hints;
  return Array.isArray(hints) && hints.length ? `${error.message} ${hints.join(' ')}` : error.message;
}

function issuesOf(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.join('.') || 'arguments'}: ${issue.message}`).join('; ');
}
