import { ENDPOINT_TOOLS } from '../mcp/discovery/endpoint-tools.js';
import { createLambdaHandler } from '../mcp/http/mcp-lambda.js';
import { transferPrompts, transferResources, transferViews } from './contracts/surface.js';
import { transferTools } from './index.js';

export const handler = createLambdaHandler({ definitions: transferTools, endpointTools: ENDPOINT_TOOLS, surface: { resources: transferResources, prompts: transferPrompts, views: transferViews } });
