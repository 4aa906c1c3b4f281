import { LambdaClient } from '@aws-sdk/client-lambda';
import { ALL_CONTRACTS, ALL_SURFACE } from '../all-contracts.js';
import { ENDPOINT_TOOLS } from '../shared/discovery/endpoint-tools.js';
import { forwardedOnly } from '../shared/tools/define-tool.js';
import { createLambdaHandler } from '../shared/http/lambda-adapter.js';
import { parseDomainFunctions, remoteCompleter, remoteExecutor } from '../shared/http/remote-executor.js';

const lambda = new LambdaClient({});

export const handler = createLambdaHandler({
  // Contracts only: every call is forwarded to its domain's function, so no domain is bundled here.
  definitions: ALL_CONTRACTS.map(forwardedOnly),
  endpointTools: ENDPOINT_TOOLS,
  executor: () => remoteExecutor(lambda, parseDomainFunctions(process.env.TN_DOMAIN_FUNCTIONS)),
  // Built on the first GET /openapi.json only, from a part beside the bundle: zod-to-openapi never weighs on a cold start.
  openApiDocument: async (registry, base) => (await import('./openapi.js')).buildOpenApiDocument(registry, base),
  // Resources read through the tools (so through the executor above); prompts are text; completions need the course index.
  surface: ALL_SURFACE,
  complete: () => remoteCompleter(lambda, parseDomainFunctions(process.env.TN_DOMAIN_FUNCTIONS)),
});
