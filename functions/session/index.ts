import type { AnyToolDefinition } from '../mcp/tools/define-tool.js';
import { askTool } from './tools/ask.js';
import { cancelPendingTool } from './tools/cancel-pending.js';
import { endTool } from './tools/end.js';
import { exportTool } from './tools/export.js';
import { historyTool } from './tools/history.js';
import { listTool } from './tools/list.js';
import { importTool } from './tools/import.js';
import { resumeTool } from './tools/resume.js';
import { startTool } from './tools/start.js';
import { syncStatusTool } from './tools/sync-status.js';

export const sessionTools: AnyToolDefinition[] = [
  startTool,
  askTool,
  endTool,
  historyTool,
  listTool,
  resumeTool,
  exportTool,
  importTool,
  syncStatusTool,
  cancelPendingTool,
];
