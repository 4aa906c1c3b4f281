import * as z from 'zod/v4';
import { defineContract } from '../../mcp/tools/define-tool.js';
import { DEFAULT_PREFERENCES, PreferencesSchema } from '../preferences.js';

export const preferencesGetContract = defineContract({
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
});
