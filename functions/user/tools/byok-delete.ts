import { bindTool } from '../../mcp/tools/define-tool.js';
import { requireUserId } from '../../mcp/tools/tool-context.js';
import { deleteCredential } from '../byok-credentials.js';
import { byokDeleteContract } from '../contracts/byok-delete.js';

export const byokDeleteTool = bindTool(byokDeleteContract, async (args, ctx) => {
  const userId = requireUserId(ctx);
  const now = ctx.now();
  await deleteCredential(ctx.services.store, { userId, credentialId: args.credentialId, now });
  return {
    data: { credentialId: args.credentialId, deleted: true as const, deletedAt: now.toISOString() },
    hints: {
      confidence: [{ name: 'conditional-delete-succeeded', value: 1 }],
      nextActions: [{ action: 'review-credentials', priority: 'low', tool: 'tn_user_byok_list', description: 'check the remaining keys' }],
      validityPeriod: 'indefinite',
    },
    instruction: 'Tell the user the key was deleted. It cannot be recovered; they must add it again to use it.',
  };
});
