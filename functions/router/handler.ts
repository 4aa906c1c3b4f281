import { ALL_CONTRACTS, ALL_SURFACE } from '../all-contracts.js';
import { ENDPOINT_TOOLS } from '../mcp/discovery/endpoint-tools.js';
import { forwardedOnly } from '../mcp/tools/define-tool.js';
import { invokeTool } from '../mcp/tools/invoke-tool.js';
import { createLambdaHandler } from '../mcp/http/mcp-lambda.js';
import { parseDomainFunctions } from '../mcp/http/remote-invocation.js';

const functionByDomain = parseDomainFunctions(process.env.TN_DOMAIN_FUNCTIONS);
let forwarding: Promise<typeof import('./forwarding.js')> | undefined;
// Loaded with the first forwarded call (see forwarding.ts); a failed load is tried again next time.
const loadForwarding = () => (forwarding ??= import('./forwarding.js').catch((error: unknown) => ((forwarding = undefined), Promise.reject(error))));

export const handler = createLambdaHandler({
  // Contracts only: every call is forwarded to its domain's function, so no domain is bundled here.
  definitions: ALL_CONTRACTS.map(forwardedOnly),
  endpointTools: ENDPOINT_TOOLS,
  // Endpoint-wide tools (discovery) have no function and run here.
  executor: () => async (definition, input, request) =>
    functionByDomain[definition.domain] ? (await loadForwarding()).forward(definition, input, request) : invokeTool(definition, input, request),
  // Built on the first GET /openapi.json only, from a chunk of its own: zod-to-openapi never weighs on a cold start.
  openApiDocument: async (registry, base) => (await import('./openapi.js')).buildOpenApiDocument(registry, base),
  // Resources read through the tools (so through the executor above); prompts are text; completions need the course index.
  surface: ALL_SURFACE,
  complete: () => async (...args) => (await loadForwarding()).complete(...args),
});
