import * as z from 'zod/v4';
import { defineContract } from '../../mcp/tools/define-tool.js';
import { paginated, PaginationInput } from '../../mcp/tools/pagination.js';
import { CredentialSummarySchema } from '../byok-credentials.js';

export const byokListContract = defineContract({
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
});
