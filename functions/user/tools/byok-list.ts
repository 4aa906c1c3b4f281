import { bindTool } from '../../mcp/tools/define-tool.js';
import { requireUserId } from '../../mcp/tools/tool-context.js';
import { listCredentials } from '../byok-credentials.js';
import { byokListContract } from '../contracts/byok-list.js';

export const byokListTool = bindTool(byokListContract, async (args, ctx) => {
  const userId = requireUserId(ctx);
  const scope = { tool: ctx.toolName, userId };
  const startKey = args.cursor ? ctx.services.cursors.decode<Record<string, unknown>>(scope, args.cursor) : undefined;
  const page = await listCredentials(ctx.services.store, { userId, limit: args.limit, startKey });
  const data = {
    items: page.items,
    ...(page.lastKey ? { nextCursor: ctx.services.cursors.encode(scope, page.lastKey) } : {}),
    totalCount: page.totalCount,
    hasMore: Boolean(page.lastKey),
  };
  return {
    data,
    hints: {
      confidence: [{ name: 'consistent-read', value: 1 }],
      nextActions: page.items.length
        ? [{ action: 'choose-default', priority: 'low', tool: 'tn_user_preferences_set', description: 'set defaultCredentialId to one of these' }]
        : [{ action: 'add-credential', priority: 'medium', tool: 'tn_user_byok_add', description: 'add a provider key for tutoring' }],
      validityPeriod: 'short',
    },
  };
});
