import * as z from 'zod/v4';
import { findInstitution } from '../catalog/institutions.js';
import type { Store } from '../platform/store/dynamo-client.js';
import { getPreferencesItem, updatePreferencesItem } from './user-store.js';

function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/** Each field with its description; used for both the stored shape and the partial update. */
export const preferenceFields = {
  tutoringStyle: z
    .enum(['socratic', 'direct', 'balanced'])
    .describe('How the tutor teaches: socratic (hints and questions first), direct (explain), or balanced'),
  language: z
    .string()
    .regex(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'must be a BCP 47 language tag such as "en" or "fr-CA"')
    .describe('Language the tutor answers in, as a BCP 47 tag, e.g. "en" or "fr-CA"'),
  voice: z.enum(['off', 'neutral', 'warm', 'energetic']).describe('Voice for spoken answers, or "off"'),
  theme: z.enum(['system', 'light', 'dark']).describe('Colour theme of the web app and CLI'),
  responseLength: z.enum(['brief', 'standard', 'detailed']).describe('How long tutor answers should be'),
  defaultCredentialId: z.ulid().describe('BYOK credential used by default for tutoring (a credentialId from tn_user_byok_list)'),
  timezone: z.string().refine(isTimeZone, 'must be an IANA time zone such as "America/Vancouver"').describe('IANA time zone, e.g. "America/Vancouver"'),
  defaultInstitution: z
    .string()
    .refine((value) => findInstitution(value) !== undefined, 'must be a known institution slug such as "sfu" or "langara"')
    .transform((value) => findInstitution(value)!.id)
    .describe('Institution assumed when a course reference omits one, e.g. "sfu"'),
  completedCourses: z
    .array(
      z.strictObject({
        course: z.string().trim().min(3).max(64).describe('Course code, e.g. "CMPT 125" or "sfu:CMPT 125"'),
        grade: z.string().trim().min(1).max(8).optional().describe('Letter grade ("B+") or percentage ("78%"), if known'),
      }),
    )
    .max(200)
    .describe('Courses the student has done, with grades when known: what prerequisites are checked against (the web app\'s "courses I have done")'),
};

export const PreferencesSchema = z.object({
  tutoringStyle: preferenceFields.tutoringStyle,
  language: preferenceFields.language,
  voice: preferenceFields.voice,
  theme: preferenceFields.theme,
  responseLength: preferenceFields.responseLength,
  defaultCredentialId: preferenceFields.defaultCredentialId.nullable(),
  timezone: preferenceFields.timezone,
  defaultInstitution: preferenceFields.defaultInstitution.nullable(),
  completedCourses: preferenceFields.completedCourses,
  updatedAt: z.iso.datetime().nullable().describe('When preferences were last changed; null if never'),
});
export type Preferences = z.infer<typeof PreferencesSchema>;
export type PreferencesPatch = Partial<{ [K in keyof typeof preferenceFields]: z.output<(typeof preferenceFields)[K]> | null }>;

export const DEFAULT_PREFERENCES: Preferences = {
  tutoringStyle: 'socratic',
  language: 'en',
  voice: 'off',
  theme: 'system',
  responseLength: 'standard',
  defaultCredentialId: null,
  timezone: 'America/Vancouver',
  defaultInstitution: null,
  completedCourses: [],
  updatedAt: null,
};

const STORED_FIELDS = Object.keys(preferenceFields) as (keyof typeof preferenceFields)[];

/** Stored fields over the defaults (an absent item is all defaults). */
export function preferencesFromItem(item: Record<string, unknown> | undefined): Preferences {
  const merged: Record<string, unknown> = { ...DEFAULT_PREFERENCES };
  for (const field of [...STORED_FIELDS, 'updatedAt' as const]) {
    if (item?.[field] !== undefined) merged[field] = item[field];
  }
  return merged as Preferences;
}

export async function getPreferences(store: Store, userId: string): Promise<Preferences> {
  return preferencesFromItem(await getPreferencesItem(store, userId));
}

/** Partial merge in one UpdateItem: named fields are set (or removed when null), others untouched. */
export async function mergePreferences(store: Store, userId: string, patch: PreferencesPatch, now: Date): Promise<Preferences> {
  const fields = Object.fromEntries(STORED_FIELDS.map((field) => [field, patch[field]]));
  return preferencesFromItem(await updatePreferencesItem(store, userId, fields, now));
}
