import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** Binds a wrapped key to what it protects: decrypting under another context fails. */
export type EncryptionContext = Record<string, string>;

export interface DataKey {
  plaintext: Buffer;
  /** The data key wrapped by the master key; the only form that is stored. */
  encrypted: Buffer;
}

/** Where data keys come from: KMS in AWS, a local master key file on one machine. Same envelope either way. */
export interface DataKeyProvider {
  readonly id: 'kms' | 'local';
  generateDataKey(context: EncryptionContext): Promise<DataKey>;
  decryptDataKey(encrypted: Buffer, context: EncryptionContext): Promise<Buffer>;
}

const MASTER_KEY_FILE = 'master.key';

/** Reads the local master key, creating it (0600) on first use. */
export async function loadOrCreateMasterKey(dataDir: string): Promise<Buffer> {
  const file = path.join(dataDir, MASTER_KEY_FILE);
  try {
    const key = Buffer.from((await readFile(file, 'utf8')).trim(), 'base64');
    if (key.length !== 32) throw new Error(`${file} does not hold a 32-byte key`);
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const key = randomBytes(32);
  try {
    await writeFile(file, key.toString('base64'), { mode: 0o600, flag: 'wx' });
  } catch (error) {
    // Another process created it first: use theirs so both agree.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return loadOrCreateMasterKey(dataDir);
    throw error;
  }
  await chmod(file, 0o600);
  return key;
}

export class LocalDataKeyProvider implements DataKeyProvider {
  readonly id = 'local' as const;
  constructor(private readonly masterKey: Buffer) {}

  async generateDataKey(context: EncryptionContext): Promise<DataKey> {
    const plaintext = randomBytes(32);
    return { plaintext, encrypted: sealWithKey(this.masterKey, plaintext, contextBytes(context)) };
  }

  async decryptDataKey(encrypted: Buffer, context: EncryptionContext): Promise<Buffer> {
    return openWithKey(this.masterKey, encrypted, contextBytes(context));
  }
}

/** Canonical bytes of a context, used as GCM additional data. */
export function contextBytes(context: EncryptionContext): Buffer {
  return Buffer.from(JSON.stringify(Object.entries(context).sort(([a], [b]) => a.localeCompare(b))));
}

/** AES-256-GCM; output is iv(12) | tag(16) | ciphertext. */
export function sealWithKey(key: Buffer, plaintext: Buffer, aad: Buffer): Buffer {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(aad);
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), ciphertext]);
}

export function openWithKey(key: Buffer, sealed: Buffer, aad: Buffer): Buffer {
  const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, 12)).setAAD(aad);
  decipher.setAuthTag(sealed.subarray(12, 28));
  return Buffer.concat([decipher.update(sealed.subarray(28)), decipher.final()]);
}
