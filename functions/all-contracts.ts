import type { AnyToolContract } from './mcp/tools/define-tool.js';
import type { Surface } from './mcp/surface/surface-contract.js';
import { courseContracts } from './course/contracts/index.js';
import { coursePrompts, courseResources, courseViews } from './course/contracts/surface.js';
import { sessionContracts } from './session/contracts/index.js';
import { sessionPrompts, sessionResources } from './session/contracts/surface.js';
import { transferContracts } from './transfer/contracts/index.js';
import { transferPrompts, transferResources, transferViews } from './transfer/contracts/surface.js';
import { userContracts } from './user/contracts/index.js';

/** Every domain's tool contracts (no handlers), in the order ALL_DOMAIN_TOOLS lists the tools. */
export const ALL_CONTRACTS: AnyToolContract[] = [...sessionContracts, ...courseContracts, ...transferContracts, ...userContracts];

/** Every domain's resources and prompts: contracts only, they read through the tools above. */
export const ALL_SURFACE: Surface = {
  resources: [...courseResources, ...transferResources, ...sessionResources],
  prompts: [...transferPrompts, ...sessionPrompts, ...coursePrompts],
  views: [...transferViews, ...courseViews],
};
