import type { AnyToolDefinition } from '../tools/define-tool.js';
import { toolsListTool } from './tools-list.js';

/**
 * Tools served on every endpoint. Kept apart from functions/all-tools.ts so a domain's Lambda
 * bundle pulls in only its own domain, not every other one.
 */
export const ENDPOINT_TOOLS: AnyToolDefinition[] = [toolsListTool];
