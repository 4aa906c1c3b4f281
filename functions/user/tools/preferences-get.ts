import { bindTool } from '../../mcp/tools/define-tool.js';
import { requireUserId } from '../../mcp/tools/tool-context.js';
import { DEFAULT_PREFERENCES, getPreferences } from '../preferences.js';
import { preferencesGetContract } from '../contracts/preferences-get.js';

export const preferencesGetTool = bindTool(preferencesGetContract, async (_args, ctx) => {
  const preferences = await getPreferences(ctx.services.store, requireUserId(ctx));
  const fields = Object.keys(DEFAULT_PREFERENCES).filter((k) => k !== 'updatedAt') as (keyof typeof DEFAULT_PREFERENCES)[];
  const explicit = fields.filter((field) => preferences[field] !== DEFAULT_PREFERENCES[field]).length;
  return {
    data: preferences,
    hints: {
      // How much of this reflects the user's own choices rather than defaults.
      confidence: [{ name: 'explicitly-set-share', value: explicit / fields.length }, { name: 'stored', value: preferences.updatedAt ? 1 : 0.5 }],
      nextActions: preferences.updatedAt
        ? []
        : [{ action: 'ask-preferences', priority: 'low', tool: 'tn_user_preferences_set', description: 'ask the user how they like to be tutored and save it' }],
      assumptions: preferences.updatedAt ? [] : ['The user has never set preferences; defaults are shown'],
      validityPeriod: 'long',
    },
  };
});
