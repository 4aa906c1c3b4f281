import type { AnyToolContract } from '../../mcp/tools/define-tool.js';
import { compareContract } from './compare.js';
import { detailsContract } from './details.js';
import { resolveContract } from './resolve.js';
import { searchContract } from './search.js';

/** The domain's tool contracts, in the order its tools are listed. */
export const transferContracts: AnyToolContract[] = [resolveContract, searchContract, detailsContract, compareContract];
