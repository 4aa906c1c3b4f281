import { ENDPOINT_TOOLS } from '../mcp/discovery/endpoint-tools.js';
import { createLambdaHandler } from '../mcp/http/mcp-lambda.js';
import { coursePrompts, courseResources, courseViews } from './contracts/surface.js';
import { completeFromCatalog } from './course-completion.js';
import { courseTools } from './index.js';

export const handler = createLambdaHandler({
  definitions: courseTools,
  endpointTools: ENDPOINT_TOOLS,
  surface: { resources: courseResources, prompts: coursePrompts, views: courseViews },
  // Also answers the router's `tn.complete` events: the search index is warm here.
  complete: () => completeFromCatalog,
});
