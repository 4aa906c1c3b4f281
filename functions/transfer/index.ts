import type { AnyToolDefinition } from '../mcp/tools/define-tool.js';
import { compareTool } from './tools/compare.js';
import { detailsTool } from './tools/details.js';
import { resolveTool } from './tools/resolve.js';
import { searchTool } from './tools/search.js';

export const transferTools: AnyToolDefinition[] = [resolveTool, searchTool, detailsTool, compareTool];
