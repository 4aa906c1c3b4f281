import { PassThrough } from 'node:stream';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { loadConfig } from '../../platform/config.js';
import { createServices, type Services } from '../../platform/services.js';
import type { DataKeyProvider } from '../../platform/crypto/data-keys.js';
import type { AnyToolDefinition } from '../tools/define-tool.js';
import { invokeTool, type ContractRunner, type ToolExecutor } from '../tools/invoke-tool.js';
import { ToolRegistry } from '../tools/registry.js';
import { allowedOriginHostnames } from './allowed-origins.js';
import { createHttpApp, type FetchHandler, type HttpAppOptions } from './app.js';
import { answerApiGatewayEvent, withPowertools } from './lambda-adapter.js';
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
  contractRunner?: ContractRunner;
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
      const services = await createServices(loadConfig(), { kmsDataKeys: options.kmsDataKeys });
      const contractRunner = options.contractRunner?.();
      const app = createHttpApp({
        contractRunner,
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
      return { services, app, contractRunner, registry: new ToolRegistry(services.config.toolPrefix, [...options.definitions, ...options.endpointTools]) };
    })());

  const handle = async (event: unknown) => {
    const { services, app, registry, contractRunner } = await getRuntime();
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
        contractRunner,
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
