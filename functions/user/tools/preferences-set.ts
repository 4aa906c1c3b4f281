import { bindTool } from '../../mcp/tools/define-tool.js';
import { ToolError } from '../../mcp/tools/errors.js';
import { requireUserId } from '../../mcp/tools/tool-context.js';
import { findCredential } from '../byok-credentials.js';
import { mergePreferences, type PreferencesPatch } from '../preferences.js';
import { preferencesSetContract } from '../contracts/preferences-set.js';

export const preferencesSetTool = bindTool(preferencesSetContract, async (args, ctx) => {
  const userId = requireUserId(ctx);
  const patch = args as PreferencesPatch;
  if (patch.defaultCredentialId) {
    const credential = await findCredential(ctx.services.store, userId, patch.defaultCredentialId);
    if (!credential) {
      throw new ToolError('UNPROCESSABLE_ENTITY', `No BYOK credential ${patch.defaultCredentialId} to make the default.`, {
        reason: 'defaultCredentialId must name one of your credentials (tn_user_byok_list)',
        fields: [{ field: 'defaultCredentialId', message: 'unknown credential' }],
      });
    }
  }
  const preferences = await mergePreferences(ctx.services.store, userId, patch, ctx.now());
  const changed = Object.keys(patch).filter((k) => patch[k as keyof PreferencesPatch] !== undefined);
  return {
    data: preferences,
    hints: {
      confidence: [{ name: 'written-and-read-back', value: 1 }],
      assumptions: [`Changed: ${changed.join(', ')}`],
      validityPeriod: 'indefinite',
    },
    nextStep: `Next: confirm to the user that ${changed.join(', ')} changed.`,
  };
});
