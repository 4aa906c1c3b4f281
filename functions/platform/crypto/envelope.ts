import * as z from 'zod/v4';
import { contextBytes, openWithKey, sealWithKey, type DataKeyProvider, type EncryptionContext } from './data-keys.js';

/** Stored form of a secret: the same shape whichever provider wrapped the data key. */
export const EnvelopeSchema = z.object({
  v: z.literal(1),
  provider: z.enum(['kms', 'local']),
  /** Wrapped data key, base64. */
  edk: z.string(),
  /** iv | tag | ciphertext of the secret under the data key, base64. */
  payload: z.string(),
});
export type Envelope = z.infer<typeof EnvelopeSchema>;

export async function sealSecret(provider: DataKeyProvider, secret: string, context: EncryptionContext): Promise<Envelope> {
  const dataKey = await provider.generateDataKey(context);
  try {
    const payload = sealWithKey(dataKey.plaintext, Buffer.from(secret, 'utf8'), contextBytes(context));
    return { v: 1, provider: provider.id, edk: dataKey.encrypted.toString('base64'), payload: payload.toString('base64') };
  } finally {
    dataKey.plaintext.fill(0);
  }
}

export async function openSecret(provider: DataKeyProvider, envelope: Envelope, context: EncryptionContext): Promise<string> {
  if (envelope.provider !== provider.id) {
    throw new Error(`Envelope was sealed by the ${envelope.provider} provider, not ${provider.id}`);
  }
  const dataKey = await provider.decryptDataKey(Buffer.from(envelope.edk, 'base64'), context);
  try {
    return openWithKey(dataKey, Buffer.from(envelope.payload, 'base64'), contextBytes(context)).toString('utf8');
  } finally {
    dataKey.fill(0);
  }
}

