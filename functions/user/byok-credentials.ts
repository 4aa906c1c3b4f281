import { ulid } from 'ulid';
import * as z from 'zod/v4';
import type { DataKeyProvider } from '../platform/crypto/data-keys.js';
import { byokEncryptionContext } from '../platform/crypto/byok-context.js';
import { EnvelopeSchema, sealSecret } from '../platform/crypto/envelope.js';
import type { Store } from '../platform/store/dynamo-client.js';
import { DomainError } from '../platform/domain-error.js';
import { countCredentials, deleteCredentialItem, getCredentialItem, putCredential, queryCredentials } from './user-store.js';

const PROVIDERS = ['openai', 'anthropic', 'openai-compatible'] as const;
export const ProviderSchema = z.enum(PROVIDERS);
export type Provider = z.infer<typeof ProviderSchema>;

/** What callers ever see of a credential: never the key, only its last four characters. */
export const CredentialSummarySchema = z.object({
  credentialId: z.ulid(),
  provider: ProviderSchema,
  label: z.string(),
  last4: z.string().length(4),
  baseUrl: z.string().optional(),
  model: z.string().optional(),
  createdAt: z.iso.datetime(),
});
export type CredentialSummary = z.infer<typeof CredentialSummarySchema>;

const KEY_FORMATS: Record<Provider, { pattern: RegExp; expected: string }> = {
  openai: { pattern: /^sk-[A-Za-z0-9_-]{20,}$/, expected: 'an OpenAI key starting with "sk-"' },
  anthropic: { pattern: /^sk-ant-[A-Za-z0-9_-]{20,}$/, expected: 'an Anthropic key starting with "sk-ant-"' },
  'openai-compatible': { pattern: /^\S{8,}$/, expected: 'at least 8 characters without spaces' },
};

/** Format check per provider. Messages describe the expected shape and never echo the key. */
export function checkKeyFormat(provider: Provider, apiKey: string): void {
  const format = KEY_FORMATS[provider];
  const mismatch = (message: string) => DomainError.invalid(message, [{ field: 'apiKey', message }]);
  if (provider === 'openai' && apiKey.startsWith('sk-ant-')) {
    throw mismatch('apiKey looks like an Anthropic key; use provider "anthropic"');
  }
  if (!format.pattern.test(apiKey)) throw mismatch(`apiKey must be ${format.expected}`);
}

export async function addCredential(
  deps: { store: Store; dataKeys: DataKeyProvider },
  args: { userId: string; provider: Provider; apiKey: string; label: string; baseUrl?: string; model?: string; maxCredentials: number; now: Date },
): Promise<CredentialSummary> {
  const existing = await countCredentials(deps.store, args.userId);
  if (existing >= args.maxCredentials) {
    throw DomainError.unprocessable(
      `You already have ${existing} BYOK credentials, the most your plan allows.`,
      `limit ${args.maxCredentials}; delete one with tn_user_byok_delete first`,
    );
  }
  const credentialId = ulid(args.now.getTime());
  const envelope = await sealSecret(deps.dataKeys, args.apiKey, byokEncryptionContext(args.userId, credentialId));
  const summary: CredentialSummary = {
    credentialId,
    provider: args.provider,
    label: args.label,
    last4: args.apiKey.slice(-4),
    ...(args.baseUrl ? { baseUrl: args.baseUrl } : {}),
    ...(args.model ? { model: args.model } : {}),
    createdAt: args.now.toISOString(),
  };
  await putCredential(deps.store, args.userId, credentialId, { ...summary, envelope });
  return summary;
}

export interface CredentialPage {
  items: CredentialSummary[];
  lastKey?: Record<string, unknown>;
  totalCount: number;
}

export async function listCredentials(store: Store, args: { userId: string; limit: number; startKey?: Record<string, unknown> }): Promise<CredentialPage> {
  const [items, totalCount] = await Promise.all([
    // One extra item tells whether another page exists, so hasMore is never a false promise.
    queryCredentials(store, { userId: args.userId, limit: args.limit + 1, startKey: args.startKey }),
    countCredentials(store, args.userId),
  ]);
  const last = items.length > args.limit ? items[args.limit - 1] : undefined;
  return {
    items: items.slice(0, args.limit).map(toSummary),
    ...(last ? { lastKey: { PK: last.PK, SK: last.SK } } : {}),
    totalCount,
  };
}

function toSummary(item: Record<string, unknown>): CredentialSummary {
  return CredentialSummarySchema.parse({
    credentialId: item.credentialId,
    provider: item.provider,
    label: item.label,
    last4: item.last4,
    ...(item.baseUrl ? { baseUrl: item.baseUrl } : {}),
    ...(item.model ? { model: item.model } : {}),
    createdAt: item.createdAt,
  });
}

/** Stored items are validated on read so a corrupted envelope is noticed, not silently used. */
export const StoredCredentialSchema = CredentialSummarySchema.extend({ envelope: EnvelopeSchema });

/** Deletes the credential, clearing it as the default credential in the same transaction when it is one. */
export async function deleteCredential(store: Store, args: { userId: string; credentialId: string; now: Date }): Promise<void> {
  if (!(await deleteCredentialItem(store, args))) {
    throw DomainError.notFound(`No BYOK credential ${args.credentialId}.`, ['List your credentials with tn_user_byok_list.']);
  }
}

export async function findCredential(store: Store, userId: string, credentialId: string): Promise<CredentialSummary | undefined> {
  const item = await getCredentialItem(store, userId, credentialId);
  return item ? toSummary(item) : undefined;
}

export type StoredCredential = z.infer<typeof StoredCredentialSchema>;

