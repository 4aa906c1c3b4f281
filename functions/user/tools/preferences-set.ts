import * as z from 'zod/v4';
import { defineTool } from '../../shared/tools/define-tool.js';
import { optionalField } from '../../shared/tools/schema-helpers.js';
import { ToolError } from '../../shared/tools/errors.js';
import { requireUserId } from '../../shared/tools/tool-context.js';
import { findCredential } from '../byok-credentials.js';
import { mergePreferences, preferenceFields, PreferencesSchema, type PreferencesPatch } from '../preferences.js';

const f = preferenceFields;
const input = z
  .strictObject({
    tutoringStyle: optionalField(f.tutoringStyle),
    language: optionalField(f.language),
    voice: optionalField(f.voice),
    theme: optionalField(f.theme),
    responseLength: optionalField(f.responseLength),
    defaultCredentialId: f.defaultCredentialId.nullable().optional().describe(`${f.defaultCredentialId.description}; null clears it`),
    timezone: optionalField(f.timezone),
    defaultInstitution: f.defaultInstitution.nullable().optional().describe(`${f.defaultInstitution.description}; null clears it`),
  })
  .refine((value) => Object.values(value).some((v) => v !== undefined), { message: 'give at least one preference to change' });

export const preferencesSetTool = defineTool({
  name: 'user_preferences_set',
  domain: 'user',
  title: 'Update user preferences',
  description:
    'Changes some of the user\'s settings and leaves the rest as they are (partial merge); null clears defaultCredentialId or ' +
    'defaultInstitution. Use this when the user states how they want to be tutored or displayed to. Returns the full preferences ' +
    'after the change. Example: { "tutoringStyle": "direct", "timezone": "America/Vancouver" }.',
  version: '1.0.0',
  input,
  output: PreferencesSchema,
  category: 'mutation',
  permissions: ['preferences:write'],
  access: 'user',
  responseTime: 'fast',
  cacheable: false,
  idempotent: true,
  tags: ['preferences', 'settings'],
  examples: [
    {
      description: 'Switch to direct explanations in French',
      input: { tutoringStyle: 'direct', language: 'fr-CA' },
      expect: 'success',
    },
    { description: 'An unknown time zone is refused with the field named', input: { timezone: 'Mars/Olympus' }, expect: 'BAD_REQUEST' },
  ],
  async handler(args, ctx) {
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
  },
});
