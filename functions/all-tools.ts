import type { AnyToolDefinition } from './mcp/tools/define-tool.js';
import { courseTools } from './course/index.js';
import { sessionTools } from './session/index.js';
import { transferTools } from './transfer/index.js';
import { userTools } from './user/index.js';

/** Every domain's definitions (contract and handler), for the local server. */
export const ALL_DOMAIN_TOOLS: AnyToolDefinition[] = [...sessionTools, ...courseTools, ...transferTools, ...userTools];

export { ENDPOINT_TOOLS } from './mcp/discovery/endpoint-tools.js';
export { ALL_SURFACE } from './all-contracts.js';
export { completeFromCatalog } from './course/course-completion.js';
