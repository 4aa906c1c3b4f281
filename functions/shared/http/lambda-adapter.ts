import { PassThrough, Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import { executionModeStreamifyResponse } from '@middy/core/executionModeStreamifyResponse';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { localhostAllowedHostnames } from '@modelcontextprotocol/server';
import { loadConfig, type AppConfig } from '../config.js';
import { lambdaLogger } from '../observability.js';
import { createServices, type Services } from '../services.js';
import type { DataKeyProvider } from '../crypto/data-keys.js';
import type { ContractRunner } from '../tools/contract-runner.js';
import type { AnyToolDefinition } from '../tools/define-tool.js';
import { invokeTool, type ToolExecutor } from '../tools/invoke-tool.js';
import { ToolRegistry } from '../tools/registry.js';
import { createHttpApp, type FetchHandler, type HttpAppOptions } from './app.js';
import { CompleteEventSchema, deserializePrincipal, encodeRelayLine, ToolInvokeEventSchema } from './remote-invocation.js';
import type { Completer } from '../surface/completion.js';
import type { Surface } from '../surface/surface-contract.js';
import { viewPagesBeside } from '../surface/view-pages.js';

export interface LambdaEntryOptions {
  definitions: AnyToolDefinition[];
  endpointTools: AnyToolDefinition[];
  /** Builds the executor once services exist (the router's remote executor); in-process otherwise. */
  executor?: (services: Services) => ToolExecutor;
  /** Runs other domains' tools for this one (the session function's tutor lookups). */
  contractRunner?: () => ContractRunner;
  /** KMS envelope keys, for the functions that seal or open BYOK keys (others leave the KMS client out). */
  kmsDataKeys?: (keyId: string) => DataKeyProvider;
  /** Serves `/openapi.json` (the router). */
  openApiDocument?: HttpAppOptions['openApiDocument'];
  /** Resources and prompts served beside the tools. */
  surface?: Surface;
  /** Argument completion: the catalog's in the course function, forwarded to it from the router. */
  complete?: (services: Services) => Completer;
}

interface Runtime {
  services: Services;
  app: FetchHandler;
  registry: ToolRegistry;
}

/**
 * A domain function's entry: API Gateway proxy events go through the shared web-standard app with
 * streamed responses; `tn.tool-invoke` events from the /mcp router run one tool in-process.
 */
export function createLambdaHandler(options: LambdaEntryOptions) {
  // Built on the first event, then reused by every warm invocation.
  let runtime: Promise<Runtime> | undefined;
  const getRuntime = () =>
    (runtime ??= (async () => {
      const services = await createServices(loadConfig(), { contractRunner: options.contractRunner?.(), kmsDataKeys: options.kmsDataKeys });
      const app = createHttpApp({
        services,
        definitions: options.definitions,
        endpointTools: options.endpointTools,
        executeTool: options.executor?.(services),
        allowedOriginHostnames: allowedOriginHostnames(services.config),
        openApiDocument: options.openApiDocument,
        // Views were written beside the bundle at deploy time (lib/constructs/domain-function.ts).
        surface: options.surface?.views?.length ? { viewPages: viewPagesBeside(import.meta.url), ...options.surface } : options.surface,
        complete: options.complete?.(services),
      });
      return { services, app, registry: new ToolRegistry(services.config.toolPrefix, [...options.definitions, ...options.endpointTools]) };
    })());

  const handle = async (event: unknown) => {
    const { services, app, registry } = await getRuntime();
    const completion = CompleteEventSchema.safeParse(event);
    if (completion.success) {
      const complete = options.complete?.(services);
      if (!complete) throw new Error('this function does not complete arguments');
      return JSON.stringify(await complete(services, completion.data.completion, completion.data.value, completion.data.context));
    }
    const direct = ToolInvokeEventSchema.safeParse(event);
    if (direct.success) {
      const definition = registry.get(direct.data.toolName);
      if (!definition) throw new Error(`tool ${direct.data.toolName} is not served by this function`);
      const request = {
        toolName: direct.data.toolName,
        principal: deserializePrincipal(direct.data.principal),
        requestId: direct.data.requestId,
        traceId: direct.data.traceId,
        services,
        registry,
      };
      if (!direct.data.stream) return JSON.stringify(await invokeTool(definition, direct.data.input, request));
      // Progress goes back to the router line by line as it happens; the result is the last line.
      const relay = new PassThrough();
      void invokeTool(definition, direct.data.input, {
        ...request,
        reportProgress: async (update) => {
          relay.write(encodeRelayLine({ type: 'progress', update }));
        },
      }).then((invocation) => relay.end(encodeRelayLine({ type: 'result', invocation })));
      return relay;
    }
    return answerApiGatewayEvent(app, event as APIGatewayProxyEvent);
  };
  return withPowertools(handle);
}

/**
 * Browsers may call the deployment from its own origin and from local tools (the Inspector on
 * localhost), plus TN_ALLOWED_HOSTS; requests without an Origin (agents, connectors) are not browsers.
 */
export function allowedOriginHostnames(config: AppConfig): string[] {
  const own = config.publicBaseUrl ? [new URL(config.publicBaseUrl).hostname] : [];
  return [...own, ...localhostAllowedHostnames(), ...config.allowedHosts];
}

/** A function that only serves HTTP through a web-standard app (the authorization server). */
export function createWebLambdaHandler(buildApp: () => Promise<FetchHandler>) {
  let app: Promise<FetchHandler> | undefined;
  return withPowertools(async (event: unknown) => answerApiGatewayEvent(await (app ??= buildApp()), event as APIGatewayProxyEvent));
}

/**
 * The logger middleware (Lambda context on every line). No metrics middleware: each tool call publishes
 * its own EMF record as it ends (recordToolCall), so there is never anything left to flush, and a flush
 * of nothing (initialize, tools/list) would only log a notice per request. Traces come from the function's
 * active X-Ray tracing (the SDK passes the trace header on to DynamoDB and forwarded invokes); Powertools'
 * tracer would only add a handler subsegment, for 120 KB of X-Ray SDK in every request bundle and its
 * start-up cost (ADR 0013).
 */
function withPowertools(handle: (event: unknown) => Promise<unknown>) {
  return middy({ executionMode: executionModeStreamifyResponse })
    .use(injectLambdaContext(lambdaLogger))
    .handler(handle);
}

async function answerApiGatewayEvent(app: FetchHandler, event: APIGatewayProxyEvent) {
  const response = await app(toRequest(event));
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') headers[name] = value;
  });
  // Cookies cannot share one header line; the streaming prelude carries them as a list.
  const cookies = response.headers.getSetCookie();
  return {
    statusCode: response.status,
    headers,
    ...(cookies.length ? { cookies } : {}),
    body: response.body ? Readable.fromWeb(response.body as WebReadableStream) : '',
  };
}

/** API Gateway REST proxy event → web Request. The stage is kept in the URL so links we build resolve. */
export function toRequest(event: APIGatewayProxyEvent): Request {
  const headers = new Headers();
  for (const [name, values] of Object.entries(event.multiValueHeaders ?? {})) {
    for (const value of values ?? []) headers.append(name, value);
  }
  for (const [name, value] of Object.entries(event.headers ?? {})) {
    if (value !== undefined && !headers.has(name)) headers.set(name, value);
  }
  const host = headers.get('host') ?? event.requestContext?.domainName ?? 'localhost';
  const query = new URLSearchParams();
  for (const [name, values] of Object.entries(event.multiValueQueryStringParameters ?? {})) {
    for (const value of values ?? []) query.append(name, value);
  }
  const search = query.size ? `?${query}` : '';
  const body = event.body == null ? undefined : event.isBase64Encoded ? Buffer.from(event.body, 'base64') : event.body;
  return new Request(`https://${host}${event.path}${search}`, {
    method: event.httpMethod,
    headers,
    body: event.httpMethod === 'GET' || event.httpMethod === 'HEAD' ? undefined : body,
  });
}
