import { LambdaClient } from '@aws-sdk/client-lambda';
import { ALL_CONTRACTS } from '../all-contracts.js';
import { ENDPOINT_TOOLS } from '../shared/discovery/endpoint-tools.js';
import { forwardedOnly } from '../shared/tools/define-tool.js';
import { createLambdaHandler } from '../shared/http/lambda-adapter.js';
import { buildOpenApiDocument } from '../shared/http/openapi.js';
import { parseDomainFunctions, remoteExecutor } from '../shared/http/remote-executor.js';

const lambda = new LambdaClient({});

export const handler = createLambdaHandler({
  // Contracts only: every call is forwarded to its domain's function, so no domain is bundled here.
  definitions: ALL_CONTRACTS.map(forwardedOnly),
  endpointTools: ENDPOINT_TOOLS,
  executor: () => remoteExecutor(lambda, parseDomainFunctions(process.env.TN_DOMAIN_FUNCTIONS)),
  openApiDocument: buildOpenApiDocument,
});
