import * as z from 'zod/v4';
import { defineTool } from '../../shared/tools/define-tool.js';
import { requireUserId } from '../../shared/tools/tool-context.js';
import { DEFAULT_PREFERENCES, getPreferences, PreferencesSchema } from '../preferences.js';

export const preferencesGetTool = defineTool({
  name: 'user_preferences_get',
  domain: 'user',
  title: 'Get user preferences',
  description:
    'Returns the user\'s settings: tutoring style, language, voice, theme, answer length, default BYOK credential, time zone and ' +
    'default institution, with defaults filled in for anything never set. Use this before tutoring or formatting answers to match ' +
    'what the user chose. Example: check whether the user prefers Socratic hints or direct explanations.',
  version: '1.0.0',
  input: z.strictObject({}),
  output: PreferencesSchema,
  category: 'query',
  permissions: ['preferences:read'],
  access: 'user',
  responseTime: 'fast',
  cacheable: false,
  idempotent: true,
  tags: ['preferences', 'settings'],
  examples: [{ description: 'Read preferences', input: {}, expect: 'success', output: DEFAULT_PREFERENCES }],
  async handler(_args, ctx) {
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
  },
});
