import { LambdaClient } from '@aws-sdk/client-lambda';
import { ENDPOINT_TOOLS } from '../shared/discovery/endpoint-tools.js';
import { createLambdaHandler } from '../shared/http/lambda-adapter.js';
import { parseDomainFunctions, remoteContractRunner } from '../shared/http/remote-executor.js';
import { sessionPrompts, sessionResources } from './contracts/surface.js';
import { sessionTools } from './index.js';

export const handler = createLambdaHandler({
  definitions: sessionTools,
  endpointTools: ENDPOINT_TOOLS,
  surface: { resources: sessionResources, prompts: sessionPrompts },
  // The tutor's catalog and transfer lookups run in those domains' functions, under their roles.
  contractRunner: () => remoteContractRunner(new LambdaClient({}), parseDomainFunctions(process.env.TN_DOMAIN_FUNCTIONS)),
});
