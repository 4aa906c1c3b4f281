import { createMcpHandler, getOAuthProtectedResourceMetadataUrl, hostHeaderValidationResponse, originValidationResponse, type McpHttpHandler } from '@modelcontextprotocol/server';
import { DomainError } from '../../platform/domain-error.js';
import { requestUlid } from '../../platform/ids.js';
import { SERVICE_VERSION } from '../../platform/config.js';
import { USER_PERMISSIONS, type Principal } from '../../platform/auth/principal.js';
import { logger, resolveTraceId } from '../../platform/observability.js';
import type { Services } from '../../platform/services.js';
import { storeReachable } from '../../platform/store/health-probe.js';
import { DOMAINS, type AnyToolDefinition } from '../tools/define-tool.js';
import { ToolError, type FieldIssue } from '../tools/errors.js';
import type { ContractRunner, ToolExecutor } from '../tools/invoke-tool.js';
import { ToolRegistry } from '../tools/registry.js';
import { serverCard } from '../discovery/server-card.js';
import { buildMcpServer } from './mcp-server.js';
import { challengeFor, challengeResponse, corsHeaders, withHeaders } from './auth-challenges.js';
import { countedAuthentication } from './counted-authentication.js';
import { authorizationOf, serveWebSession, WEB_SESSION_PATH } from './web-session.js';
import { serveLegacyJson, wantsPlainJson } from './legacy-json.js';
import { preflight } from './preflight.js';
import { readBody, MAX_REQUEST_BODY_BYTES } from './request-body.js';
import type { Completer } from '../surface/completion.js';
import { findResource, surfaceFor, type Surface } from '../surface/surface-contract.js';
import { errorJson, handleRestCall } from './rest.js';
import { isAuthorizationServerPath, type FetchHandler } from './authorization-server-edge.js';

export interface HttpAppOptions {
  services: Services;
  /** Every definition this deployment serves (the discovery tool is added by the app). */
  definitions: AnyToolDefinition[];
  /** Definitions that exist on every endpoint, e.g. tn_tools_list; built per registry. */
  endpointTools?: AnyToolDefinition[];
  /** When set (the local server), Host and Origin must name one of these: DNS-rebinding protection. */
  allowedHostnames?: string[];
  /** When set (AWS, where the Host is API Gateway's), only a browser's Origin must name one of these. */
  allowedOriginHostnames?: string[];
  /** How calls run; in-process unless the deployment forwards them (the AWS /mcp router). */
  executeTool?: ToolExecutor;
  /** How a tool runs another domain's tool (the tutor's lookups): in-process locally, forwarded in AWS. */
  contractRunner?: ContractRunner;
  /** The authorization server behind its own edge (`/oauth/*` and its metadata) when this deployment serves it. */
  authorizationServer?: FetchHandler;
  /** `/openapi.json` where it is served (the local server; the AWS router, from a chunk loaded on the first request for it): other bundles leave its generator out. */
  openApiDocument?: (registry: ToolRegistry, baseUrl: string) => unknown;
  /** Resources and prompts (each endpoint serves those its tools can answer). */
  surface?: Surface;
  /** Argument completion (the catalog's, in-process or forwarded to the course function). */
  complete?: Completer;
  /** The student web app's pages and assets, where this deployment serves them (the local server; CloudFront and S3 in AWS). */
  webApp?: FetchHandler;
}

/** Paths that belong to the API: never answered with the web app, whatever the method. */
const isApiPath = (path: string) => /^\/(mcp|v1|oauth)(\/|$)/.test(path) || path.startsWith('/.well-known/');

/** Public metadata, read by clients from any origin. */
const isCrossOriginByDesign = (path: string) => path.startsWith('/.well-known/') || path === '/mcp/server-card';

export type { FetchHandler };

interface Endpoint {
  registry: ToolRegistry;
  surface: Surface;
  mcp: McpHttpHandler;
}

interface McpAuthExtra {
  principal: Principal;
  traceId: string;
  /** Per tools/call id: what the raw arguments held that the protocol parse drops. */
  inputIssues: Map<string | number, FieldIssue[]>;
}

/** The one web-standard handler behind both the local server and every Lambda. */
export function createHttpApp(options: HttpAppOptions): FetchHandler {
  const { services } = options;
  const endpointFor = (definitions: AnyToolDefinition[]): Endpoint => {
    const registry = new ToolRegistry(services.config.toolPrefix, [...definitions, ...(options.endpointTools ?? [])]);
    const surface = surfaceFor(options.surface ?? { resources: [], prompts: [] }, new Set(definitions.map((d) => d.name)), new Set(definitions.map((d) => d.domain)));
    const mcp = createMcpHandler(
      (ctx) => {
        const extra = ctx.authInfo?.extra as McpAuthExtra | undefined;
        return buildMcpServer({
          registry,
          services,
          principal: extra?.principal ?? { kind: 'anonymous' },
          traceId: extra?.traceId ?? requestUlid(),
          inputIssues: extra?.inputIssues,
          executeTool: options.executeTool,
          contractRunner: options.contractRunner,
          surface,
          complete: options.complete,
        });
      },
      { onerror: (error) => logger.warn('MCP transport error', { error: error.message }), maxRequestBodySize: MAX_REQUEST_BODY_BYTES },
    );
    return { registry, surface, mcp };
  };

  const all = endpointFor(options.definitions);
  const byDomain = new Map<string, Endpoint>();
  for (const domain of DOMAINS) {
    const definitions = options.definitions.filter((d) => d.domain === domain);
    if (definitions.length) byDomain.set(domain, endpointFor(definitions));
  }
  let openApi: string | undefined;
  // Bearer tokens that verify against nothing, per address: guesses at a secret (ADR 0027).
  const authenticate = countedAuthentication(services);
  const authenticateCounted = (request: Request, authorization: string | null) => authenticate(request, authorization, baseUrl(request, services));

  return async (request) => {
    const url = new URL(request.url);
    const path = url.pathname.replace(/\/+$/, '') || '/';
    // The authorization server's own edge (authorization-server-edge.ts) applies the Host and Origin rules to its paths.
    if (isAuthorizationServerPath(path)) return options.authorizationServer ? options.authorizationServer(request) : json({ error: 'not found', path }, 404);
    const traceId = resolveTraceId(request.headers);

    // Metadata is for any origin (browser-based clients); everything else only for ours.
    const originHostnames = options.allowedOriginHostnames ?? options.allowedHostnames;
    const rejected =
      (options.allowedHostnames && hostHeaderValidationResponse(request, options.allowedHostnames)) ||
      (originHostnames && !isCrossOriginByDesign(path) && originValidationResponse(request, originHostnames)) ||
      undefined;
    if (rejected) return rejected;

    if (path === '/healthz') {
      // Healthy means able to serve a tool: every tool needs the table.
      const store = (await storeReachable(services.store)) ? 'ok' : 'unreachable';
      return json({ status: store === 'ok' ? 'ok' : 'unavailable', store, version: SERVICE_VERSION, tools: all.registry.getAll().length }, store === 'ok' ? 200 : 503);
    }
    if (path === '/openapi.json' && request.method === 'GET' && options.openApiDocument) {
      openApi ??= JSON.stringify(await options.openApiDocument(all.registry, baseUrl(request, services)));
      return new Response(openApi, { headers: { 'content-type': 'application/json' } });
    }
    // SEP-2127: what a client reads before it connects (at the well-known path and beside the endpoint).
    if ((path === '/.well-known/mcp/server-card.json' || path === '/mcp/server-card') && (request.method === 'GET' || request.method === 'OPTIONS')) {
      if (request.method === 'OPTIONS') return new Response(null, { status: 204, headers: corsHeaders(null, true) });
      return withHeaders(json(serverCard(baseUrl(request, services))), { ...corsHeaders(null, true), 'cache-control': 'public, max-age=3600' });
    }
    if (path.startsWith('/.well-known/oauth-protected-resource')) {
      if (request.method === 'OPTIONS') return new Response(null, { status: 204, headers: corsHeaders(null, true) });
      return withHeaders(json(protectedResourceMetadata(request, services, path.slice('/.well-known/oauth-protected-resource'.length))), corsHeaders(null, true));
    }

    if (options.webApp && (request.method === 'GET' || request.method === 'HEAD') && !isApiPath(path)) return options.webApp(request);

    if (path === WEB_SESSION_PATH) {
      const cors = corsHeaders(request.headers.get('origin'));
      return withHeaders(await serveWebSession(request, (authorization) => authenticateCounted(request, authorization), traceId), cors);
    }
    const mcpMatch = /^\/mcp(?:\/([a-z]+))?$/.exec(path);
    const restMatch = /^\/v1\/tools\/([A-Za-z0-9_]+)$/.exec(path);
    if (!mcpMatch && !restMatch) return json({ error: 'not found', path }, 404);
    // Origin and Host were checked above: a browser-based client from an allowed origin may read the answer.
    const cors = corsHeaders(request.headers.get('origin'));
    if (request.method === 'OPTIONS') return new Response(null, { status: 204, headers: cors });
    if (request.method !== 'POST') {
      return new Response(JSON.stringify({ error: 'Method not allowed. This endpoint is stateless: POST JSON-RPC or tool input.' }), {
        status: 405,
        headers: { allow: 'POST', 'content-type': 'application/json', ...cors },
      });
    }
    // RFC 9728 §3.1, path-suffixed: the SDK's helper builds it as its clients look for it.
    const metadataUrl = getOAuthProtectedResourceMetadataUrl(new URL(`${baseUrl(request, services)}${mcpMatch ? path : '/mcp'}`));
    return withHeaders(await serveCall({ request, mcpMatch, restMatch, traceId, metadataUrl }), cors);
  };

  async function serveCall(args: { request: Request; mcpMatch: RegExpExecArray | null; restMatch: RegExpExecArray | null; traceId: string; metadataUrl: string }): Promise<Response> {
    const { request, mcpMatch, restMatch, traceId, metadataUrl } = args;
    let principal: Principal;
    try {
      principal = await authenticateCounted(request, authorizationOf(request));
    } catch (error) {
      // Refused credentials (a domain error from the authenticator) and the edge's own limits (rate, table down).
      if (!(error instanceof ToolError || error instanceof DomainError)) throw error;
      const retryAfter = error.details?.retryAfter;
      const headers: Record<string, string> = retryAfter ? { 'retry-after': String(retryAfter) } : { 'www-authenticate': `Bearer resource_metadata="${metadataUrl}"` };
      return errorJson(error, requestUlid(), traceId, headers);
    }

    const domain = mcpMatch?.[1];
    const endpoint = domain ? byDomain.get(domain) : all;
    if (!restMatch && !endpoint) return json({ error: `unknown domain "${domain}"`, domains: [...byDomain.keys()] }, 404);
    // Messages name the tool as the caller knows it (with this deployment's prefix).
    const challengeOf = (definition: AnyToolDefinition | undefined, name = definition && all.registry.servedName(definition)) =>
      definition ? challengeFor({ ...definition, name: name! }, principal, { metadataUrl, scopePrefix: services.config.oauthScopePrefix }) : undefined;

    const body = await readBody(request);
    if (!body.ok) return bodyRefused(body.reason, Boolean(restMatch), traceId);
    if (restMatch) {
      const challenge = challengeOf(all.registry.get(restMatch[1]!));
      if (challenge) {
        const refusal = new ToolError(challenge.status === 401 ? 'UNAUTHORIZED' : 'FORBIDDEN', challenge.message, { reason: challenge.reason });
        return errorJson(refusal, requestUlid(), traceId, { 'www-authenticate': challenge.wwwAuthenticate });
      }
      return handleRestCall({ bodyText: body.text, signal: request.signal, toolName: restMatch[1]!, registry: all.registry, services, principal, traceId, executeTool: options.executeTool, contractRunner: options.contractRunner });
    }
    // What the edge must decide before the SDK parses the body (preflight.ts); the SDK does the rest.
    const peek = preflight(body.text);
    const parsedBody = peek.parsed;
    // A call the caller may not make is refused at the HTTP level, so OAuth-capable clients sign in (MCP authorization spec).
    for (const call of peek.toolCalls) {
      const challenge = challengeOf(endpoint!.registry.get(call.name));
      if (challenge) return challengeResponse(challenge, call.id);
    }
    // A resource that is some user's (a transcript) is read through that user's tools: the same challenge.
    for (const read of peek.resourceReads) {
      const resource = findResource(endpoint!.surface, read.uri)?.resource;
      for (const tool of resource?.access === 'user' ? resource.readsTools : []) {
        const definition = endpoint!.registry.get(endpoint!.registry.servedName({ name: tool }));
        // Needs a user even where the tool admits anonymous sessions: a transcript resource is always someone's.
        const challenge = definition && challengeOf({ ...definition, access: 'user' }, resource!.name);
        if (challenge) return challengeResponse(challenge, read.id);
      }
    }
    const extra: McpAuthExtra = { principal, traceId, inputIssues: peek.inputIssues };
    // The body is read once, here: the SDK takes it parsed, or re-reads the text to answer a parse error its way.
    const forwarded = parsedBody === undefined ? new Request(request, { body: body.text }) : request;
    const authInfo = {
      // The raw token never travels past authentication.
      token: '',
      clientId: principal.kind === 'user' ? principal.userId : 'anonymous',
      scopes: principal.kind === 'user' ? [...principal.permissions] : [],
      extra: extra as unknown as Record<string, unknown>,
    };
    if (parsedBody !== undefined && (await wantsPlainJson(request, peek))) {
      const server = buildMcpServer({
        registry: endpoint!.registry,
        services,
        principal,
        traceId,
        inputIssues: extra.inputIssues,
        executeTool: options.executeTool,
        contractRunner: options.contractRunner,
        surface: endpoint!.surface,
        complete: options.complete,
      });
      return serveLegacyJson(server, request, { authInfo, parsedBody });
    }
    return endpoint!.mcp.fetch(forwarded, { ...(parsedBody === undefined ? {} : { parsedBody }), authInfo });
  };
}

/**
 * A body over the limit is refused as soon as that is known. No `Connection: close`: Node would then
 * destroy the socket right after this answer, under a client still sending, which then reads a reset
 * (EPIPE) instead of the 413; the local server discards the rest as it arrives (local/node-http.ts).
 */
function bodyRefused(reason: 'too-large' | 'unreadable', rest: boolean, traceId: string): Response {
  const status = reason === 'too-large' ? 413 : 400;
  const message = reason === 'too-large' ? `The request body is over ${MAX_REQUEST_BODY_BYTES} bytes.` : 'The request body could not be read.';
  if (rest) {
    const refused = errorJson(ToolError.badRequest(message, [{ field: '(root)', message }]), requestUlid(), traceId);
    return new Response(refused.body, { status, headers: refused.headers });
  }
  return new Response(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message } }), {
    status,
    headers: { 'content-type': 'application/json', 'x-trace-id': traceId, 'x-request-id': requestUlid() },
  });
}

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

function baseUrl(request: Request, services: Services): string {
  return services.config.publicBaseUrl ?? new URL(request.url).origin;
}

/**
 * RFC 9728: where an MCP client learns which authorization server issues tokens for us. At the
 * origin root it describes `/mcp`; path-suffixed (`/.well-known/oauth-protected-resource/mcp/user`)
 * the resource at that path.
 */
function protectedResourceMetadata(request: Request, services: Services, resourcePath: string) {
  const base = baseUrl(request, services);
  return {
    resource: `${base}${resourcePath || '/mcp'}`,
    authorization_servers: [services.config.oauthIssuer ?? services.config.jwt?.issuer].filter((issuer) => issuer !== undefined),
    bearer_methods_supported: ['header'],
    scopes_supported: USER_PERMISSIONS.map((permission) => `${services.config.oauthScopePrefix}${permission}`),
    resource_name: 'Tutor Nexus',
    resource_documentation: `${base}/openapi.json`,
  };
}

