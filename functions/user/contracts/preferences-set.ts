import * as z from 'zod/v4';
import { defineContract } from '../../mcp/tools/define-tool.js';
import { optionalField } from '../../mcp/tools/schema-helpers.js';
import { preferenceFields, PreferencesSchema } from '../preferences.js';

export const f = preferenceFields;

export const input = z
  .strictObject({
    tutoringStyle: optionalField(f.tutoringStyle),
    language: optionalField(f.language),
    voice: optionalField(f.voice),
    theme: optionalField(f.theme),
    responseLength: optionalField(f.responseLength),
    defaultCredentialId: f.defaultCredentialId.nullable().optional().describe(`${f.defaultCredentialId.description}; null clears it`),
    timezone: optionalField(f.timezone),
    defaultInstitution: f.defaultInstitution.nullable().optional().describe(`${f.defaultInstitution.description}; null clears it`),
    completedCourses: optionalField(f.completedCourses.describe(`${f.completedCourses.description}; replaces the whole list`)),
  })
  .refine((value) => Object.values(value).some((v) => v !== undefined), { message: 'give at least one preference to change' });

export const preferencesSetContract = defineContract({
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
});
