import type { Principal } from '../../platform/auth/principal.js';
import type { DefaultLlmProvider, TutorConfig } from '../../platform/config.js';
import { byokEncryptionContext } from '../../platform/crypto/byok-context.js';
import { openSecret } from '../../platform/crypto/envelope.js';
import type { Services } from '../../platform/services.js';
import { DomainError } from '../../platform/domain-error.js';
import { checkBaseUrl } from '../../platform/net/outbound-url.js';
import type { StoredCredential } from '../../user/byok-credentials.js';
import type { Preferences } from '../../user/preferences.js';
import { DEFAULT_MODELS, type ModelTarget } from './language-model.js';

/**
 * Whose model answers: the user's default BYOK credential, else their only one, else the operator's
 * default provider. Anonymous callers only ever get the operator's.
 */
export async function resolveModelTarget(
  services: Services,
  principal: Principal,
  caller: { preferences: Preferences; credentials: StoredCredential[] },
): Promise<ModelTarget> {
  if (principal.kind === 'user') {
    const credential = chooseCredential(caller.preferences, caller.credentials);
    if (credential) return byokTarget(services, principal.userId, credential);
  }
  const operator = operatorTarget(services);
  if (operator) return operator;
  if (principal.kind !== 'user') {
    throw new DomainError('unauthenticated', 'Anonymous tutoring is not offered here: sign in and add your own provider key.');
  }
  throw DomainError.unprocessable(
    'No model is available to answer: add your own provider key with tn_user_byok_add.',
    'the user has no BYOK credential and the operator configured no default provider',
  );
}

/** Whose model would answer this caller now, and what is missing when none would (the same choice as resolveModelTarget, without opening a key). */
export interface TutorAvailability {
  answeredBy: 'byok' | 'operator' | null;
  needs: 'sign-in' | 'provider-key' | 'default-key' | null;
}

export function tutorAvailability(services: Services, principal: Principal, caller: { preferences: Preferences; credentials: StoredCredential[] }): TutorAvailability {
  const picked = principal.kind === 'user' ? pickCredential(caller.preferences, caller.credentials) : undefined;
  if (picked === 'several') return { answeredBy: null, needs: 'default-key' };
  if (picked) return { answeredBy: 'byok', needs: null };
  if (hasOperatorModel(services)) return { answeredBy: 'operator', needs: null };
  return { answeredBy: null, needs: principal.kind === 'user' ? 'provider-key' : 'sign-in' };
}

/** True when the operator pays for a default model, which anonymous sessions require. */
export function hasOperatorModel(services: Services): boolean {
  return services.config.tutor.defaultLlm !== undefined;
}

/** The default credential, else the only one; 'several' when there are several and none is the default. */
function pickCredential(preferences: Preferences, stored: StoredCredential[]): StoredCredential | 'several' | undefined {
  const chosen = stored.find((credential) => credential.credentialId === preferences.defaultCredentialId);
  return chosen ?? (stored.length > 1 ? 'several' : stored[0]);
}

function chooseCredential(preferences: Preferences, stored: StoredCredential[]): StoredCredential | undefined {
  const picked = pickCredential(preferences, stored);
  if (picked === 'several') {
    throw DomainError.unprocessable(
      'You have several provider keys and none is the default: choose one with tn_user_preferences_set { defaultCredentialId }.',
      'several BYOK credentials, no default credential in preferences',
    );
  }
  return picked;
}

async function byokTarget(services: Services, userId: string, credential: StoredCredential): Promise<ModelTarget> {
  const { tutor, outboundPolicy } = services.config;
  let apiKey: string;
  try {
    apiKey = await openSecret(services.dataKeys, credential.envelope, byokEncryptionContext(userId, credential.credentialId));
  } catch {
    throw new DomainError('unavailable', 'Your stored provider key could not be decrypted right now.', { reason: 'key decryption failed' });
  }
  // Checked again now (a clear error), and at every connection (outbound-fetch.ts): the name may resolve elsewhere than when the key was added.
  const baseUrl = credential.baseUrl ? await checkBaseUrl(credential.baseUrl, outboundPolicy) : proxyFor(tutor, credential.provider);
  return {
    source: 'byok',
    provider: credential.provider,
    model: credential.model ?? (credential.provider === 'openai-compatible' ? '' : DEFAULT_MODELS[credential.provider]),
    apiKey,
    baseUrl,
    credentialId: credential.credentialId,
    outbound: outboundPolicy,
  };
}

function operatorTarget(services: Services): ModelTarget | undefined {
  const llm = services.config.tutor.defaultLlm;
  if (!llm) return undefined;
  const { tutor, region } = services.config;
  const { outboundPolicy } = services.config;
  return { source: 'operator', provider: llm.provider, model: llm.model, apiKey: llm.apiKey, baseUrl: llm.baseUrl ?? proxyFor(tutor, llm.provider), region, outbound: outboundPolicy };
}

/** Where calls to a provider's own API go when no base URL was given (TN_OPENAI_BASE_URL, TN_ANTHROPIC_BASE_URL). */
function proxyFor(tutor: TutorConfig, provider: DefaultLlmProvider): string | undefined {
  return provider === 'openai' ? tutor.openaiBaseUrl : provider === 'anthropic' ? tutor.anthropicBaseUrl : undefined;
}
