import type { AnyToolDefinition } from '../mcp/tools/define-tool.js';
import { byokAddTool } from './tools/byok-add.js';
import { byokDeleteTool } from './tools/byok-delete.js';
import { byokListTool } from './tools/byok-list.js';
import { preferencesGetTool } from './tools/preferences-get.js';
import { preferencesSetTool } from './tools/preferences-set.js';
import { quotaTool } from './tools/quota.js';
import { subscriptionTool } from './tools/subscription.js';

export const userTools: AnyToolDefinition[] = [
  byokListTool,
  byokAddTool,
  byokDeleteTool,
  preferencesGetTool,
  preferencesSetTool,
  quotaTool,
  subscriptionTool,
];
