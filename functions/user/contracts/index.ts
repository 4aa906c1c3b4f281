import type { AnyToolContract } from '../../mcp/tools/define-tool.js';
import { byokAddContract } from './byok-add.js';
import { byokDeleteContract } from './byok-delete.js';
import { byokListContract } from './byok-list.js';
import { preferencesGetContract } from './preferences-get.js';
import { preferencesSetContract } from './preferences-set.js';
import { quotaContract } from './quota.js';
import { subscriptionContract } from './subscription.js';

/** The domain's tool contracts, in the order its tools are listed. */
export const userContracts: AnyToolContract[] = [
  byokListContract,
  byokAddContract,
  byokDeleteContract,
  preferencesGetContract,
  preferencesSetContract,
  quotaContract,
  subscriptionContract,
];
