import type { AnyToolContract } from '../../mcp/tools/define-tool.js';
import { askContract } from './ask.js';
import { cancelPendingContract } from './cancel-pending.js';
import { endContract } from './end.js';
import { exportContract } from './export.js';
import { historyContract } from './history.js';
import { listContract } from './list.js';
import { importContract } from './import.js';
import { resumeContract } from './resume.js';
import { startContract } from './start.js';
import { syncStatusContract } from './sync-status.js';

/** The domain's tool contracts, in the order its tools are listed. */
export const sessionContracts: AnyToolContract[] = [
  startContract,
  askContract,
  endContract,
  historyContract,
  listContract,
  resumeContract,
  exportContract,
  importContract,
  syncStatusContract,
  cancelPendingContract,
];
