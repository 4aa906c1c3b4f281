import type { Principal } from '../platform/auth/principal.js';
import type { Services } from '../platform/services.js';
import { keys } from '../platform/store/keys.js';
import { StoredCredentialSchema, type StoredCredential } from '../user/byok-credentials.js';
import { planLimits, subscriptionFromItem } from '../user/plans.js';
import { DEFAULT_PREFERENCES, preferencesFromItem, type Preferences } from '../user/preferences.js';
import { readUserPartition } from '../user/user-store.js';

/** What an ask needs to know about its caller, read once and in parallel with the session. */
export interface CallerProfile {
  preferences: Preferences;
  /** Prompts per UTC day: the user's plan, or the operator's anonymous pool. */
  promptLimit: number;
  /** The user's BYOK credentials (sealed), so the model is chosen without another round trip. */
  credentials: StoredCredential[];
}

/** More than any plan allows, so the list is complete. */
const MAX_CREDENTIALS = 100;

/** Preferences, plan and sealed keys come from one read of the user's partition. */
export async function loadCallerProfile(services: Services, principal: Principal): Promise<CallerProfile> {
  if (principal.kind !== 'user') {
    return { preferences: DEFAULT_PREFERENCES, promptLimit: services.config.tutor.anonymousPromptsPerDay, credentials: [] };
  }
  const items = await readUserPartition(services.store, principal.userId);
  const item = (sk: string) => items.find((candidate) => candidate.SK === sk);
  const subscription = subscriptionFromItem(item(keys.subscription(principal.userId).SK));
  return {
    preferences: preferencesFromItem(item(keys.preferences(principal.userId).SK)),
    promptLimit: planLimits(subscription.plan, services.config).promptsPerDay,
    credentials: items
      .filter((candidate) => String(candidate.SK).startsWith(keys.byokPrefix))
      .slice(0, MAX_CREDENTIALS)
      .map((candidate) => StoredCredentialSchema.parse(candidate)),
  };
}
