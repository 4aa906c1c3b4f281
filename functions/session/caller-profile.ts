import type { Principal } from '../shared/auth/principal.js';
import type { Services } from '../shared/services.js';
import { readStoredCredentials, type StoredCredential } from '../user/byok-credentials.js';
import { getSubscription, planLimits } from '../user/plans.js';
import { DEFAULT_PREFERENCES, getPreferences, type Preferences } from '../user/preferences.js';

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

export async function loadCallerProfile(services: Services, principal: Principal): Promise<CallerProfile> {
  if (principal.kind !== 'user') {
    return { preferences: DEFAULT_PREFERENCES, promptLimit: services.config.tutor.anonymousPromptsPerDay, credentials: [] };
  }
  const [preferences, subscription, credentials] = await Promise.all([
    getPreferences(services.store, principal.userId),
    getSubscription(services.store, principal.userId),
    readStoredCredentials(services.store, principal.userId, MAX_CREDENTIALS),
  ]);
  return { preferences, promptLimit: planLimits(subscription.plan, services.config).promptsPerDay, credentials };
}
