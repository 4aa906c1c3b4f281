import { ENDPOINT_TOOLS } from '../shared/discovery/endpoint-tools.js';
import { createLambdaHandler } from '../shared/http/lambda-adapter.js';
import { courseTools } from './index.js';

export const handler = createLambdaHandler({ definitions: courseTools, endpointTools: ENDPOINT_TOOLS });
