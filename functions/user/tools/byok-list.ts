import * as z from 'zod/v4';
import { defineTool } from '../../shared/tools/define-tool.js';
import { paginated, PaginationInput } from '../../shared/tools/pagination.js';
import { requireUserId } from '../../shared/tools/tool-context.js';
import { CredentialSummarySchema, listCredentials } from '../byok-credentials.js';

export const byokListTool = defineTool({
  name: 'user_byok_list',
  domain: 'user',
  title: 'List BYOK credentials',
  description:
    'Lists the user\'s stored LLM API keys, masked to their last four characters, newest last. Use this to find a credentialId ' +
    'before deleting a key or choosing the default one. Returns a page of { credentialId, provider, label, last4, createdAt } ' +
    'with a cursor for the next page. Example: "which API keys have I saved?"',
  version: '1.0.0',
  input: z.strictObject({ ...PaginationInput }),
  output: paginated(CredentialSummarySchema),
  category: 'query',
  permissions: ['byok:read'],
  access: 'user',
  responseTime: 'fast',
  cacheable: false,
  idempotent: true,
  tags: ['byok', 'credentials', 'settings'],
  examples: [
    { description: 'First page of credentials', input: { limit: 20 }, expect: 'success', output: { items: [], totalCount: 0, hasMore: false } },
    { description: 'A tampered cursor is refused', input: { cursor: 'not-a-cursor' }, expect: 'BAD_REQUEST' },
  ],
  async handler(args, ctx) {
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
  },
});
