import { LambdaClient } from '@aws-sdk/client-lambda';
import { ALL_DOMAIN_TOOLS, ENDPOINT_TOOLS } from '../all-tools.js';
import { createLambdaHandler } from '../shared/http/lambda-adapter.js';
import { buildOpenApiDocument } from '../shared/http/openapi.js';
import { parseDomainFunctions, remoteExecutor } from './remote-executor.js';

const lambda = new LambdaClient({});

export const handler = createLambdaHandler({
  definitions: ALL_DOMAIN_TOOLS,
  endpointTools: ENDPOINT_TOOLS,
  executor: () => remoteExecutor(lambda, parseDomainFunctions(process.env.TN_DOMAIN_FUNCTIONS)),
  openApiDocument: buildOpenApiDocument,
});
