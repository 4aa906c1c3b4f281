import { DecryptCommand, GenerateDataKeyCommand, KMSClient } from '@aws-sdk/client-kms';
import type { DataKey, DataKeyProvider, EncryptionContext } from './data-keys.js';

/**
 * Envelope keys from AWS KMS. Its own module, imported only by the functions that seal or open BYOK keys
 * (user, session): every other function's bundle leaves the KMS client out.
 */
export class KmsDataKeyProvider implements DataKeyProvider {
  readonly id = 'kms' as const;
  constructor(
    private readonly keyId: string,
    private readonly kms: Pick<KMSClient, 'send'> = new KMSClient({}),
  ) {}

  async generateDataKey(context: EncryptionContext): Promise<DataKey> {
    const result = await this.kms.send(new GenerateDataKeyCommand({ KeyId: this.keyId, KeySpec: 'AES_256', EncryptionContext: context }));
    if (!result.Plaintext || !result.CiphertextBlob) throw new Error('KMS returned no data key');
    return { plaintext: Buffer.from(result.Plaintext), encrypted: Buffer.from(result.CiphertextBlob) };
  }

  async decryptDataKey(encrypted: Buffer, context: EncryptionContext): Promise<Buffer> {
    const result = await this.kms.send(new DecryptCommand({ KeyId: this.keyId, CiphertextBlob: encrypted, EncryptionContext: context }));
    if (!result.Plaintext) throw new Error('KMS returned no plaintext');
    return Buffer.from(result.Plaintext);
  }
}
