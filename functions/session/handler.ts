import { ENDPOINT_TOOLS } from '../shared/discovery/endpoint-tools.js';
import { createLambdaHandler } from '../shared/http/lambda-adapter.js';
import { sessionTools } from './index.js';

export const handler = createLambdaHandler({ definitions: sessionTools, endpointTools: ENDPOINT_TOOLS });
