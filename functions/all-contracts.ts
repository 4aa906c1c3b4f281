import type { AnyToolContract } from './shared/tools/define-tool.js';
import { courseContracts } from './course/contracts/index.js';
import { sessionContracts } from './session/contracts/index.js';
import { transferContracts } from './transfer/contracts/index.js';
import { userContracts } from './user/contracts/index.js';

/** Every domain's tool contracts (no handlers), in the order ALL_DOMAIN_TOOLS lists the tools. */
export const ALL_CONTRACTS: AnyToolContract[] = [...sessionContracts, ...courseContracts, ...transferContracts, ...userContracts];
