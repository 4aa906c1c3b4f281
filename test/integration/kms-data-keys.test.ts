import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { KMSClient } from '@aws-sdk/client-kms';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KmsDataKeyProvider } from '../../functions/platform/crypto/kms-data-keys.js';
import { openSecret, sealSecret } from '../../functions/platform/crypto/envelope.js';

/**
 * KMS cannot run here, so this speaks its wire protocol (AWS JSON 1.1, TrentService) on 127.0.0.1
 * and the real KmsDataKeyProvider talks to it through the real AWS SDK client. Like KMS, it binds
 * the encryption context to the ciphertext: Decrypt under another context fails.
 */
const masterKey = randomBytes(32);
const calls: { target: string; body: any }[] = [];
let kms: Server;
let endpoint: string;

function wrap(plaintext: Buffer, context: unknown): Buffer {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', masterKey, iv).setAAD(Buffer.from(JSON.stringify(context ?? {})));
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]);
}

function unwrap(blob: Buffer, context: unknown): Buffer {
  const decipher = createDecipheriv('aes-256-gcm', masterKey, blob.subarray(0, 12)).setAAD(Buffer.from(JSON.stringify(context ?? {})));
  decipher.setAuthTag(blob.subarray(12, 28));
  return Buffer.concat([decipher.update(blob.subarray(28)), decipher.final()]);
}

beforeAll(async () => {
  kms = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      const target = String(req.headers['x-amz-target']);
      const body = JSON.parse(raw);
      calls.push({ target, body });
      const reply = (status: number, payload: unknown) => {
        res.writeHead(status, { 'content-type': 'application/x-amz-json-1.1' }).end(JSON.stringify(payload));
      };
      if (target === 'TrentService.GenerateDataKey') {
        const plaintext = randomBytes(32);
        reply(200, { KeyId: body.KeyId, Plaintext: plaintext.toString('base64'), CiphertextBlob: wrap(plaintext, body.EncryptionContext).toString('base64') });
      } else if (target === 'TrentService.Decrypt') {
        try {
          reply(200, { KeyId: body.KeyId, Plaintext: unwrap(Buffer.from(body.CiphertextBlob, 'base64'), body.EncryptionContext).toString('base64') });
        } catch {
          reply(400, { __type: 'InvalidCiphertextException', message: 'context mismatch' });
        }
      } else reply(400, { __type: 'UnknownOperationException' });
    });
  });
  await new Promise<void>((resolve) => kms.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(kms.address() as AddressInfo).port}`;
});
afterAll(() => {
  kms?.close();
});

describe('KmsDataKeyProvider over the KMS wire protocol', () => {
  const client = () => new KMSClient({ endpoint, region: 'us-west-2', credentials: { accessKeyId: 'a', secretAccessKey: 'b' } });

  it('seals with GenerateDataKey and opens with Decrypt, passing the encryption context both times', async () => {
    const provider = new KmsDataKeyProvider('alias/tutor-nexus-byok', client());
    const context = { userId: 'alice', credentialId: '01JD' };
    const envelope = await sealSecret(provider, 'sk-ant-secret', context);
    expect(envelope.provider).toBe('kms');
    expect(await openSecret(provider, envelope, context)).toBe('sk-ant-secret');
    expect(calls.map((c) => c.target)).toEqual(['TrentService.GenerateDataKey', 'TrentService.Decrypt']);
    expect(calls[0]!.body).toMatchObject({ KeyId: 'alias/tutor-nexus-byok', KeySpec: 'AES_256', EncryptionContext: context });
    expect(JSON.stringify(calls)).not.toContain('sk-ant-secret');
  });

  it('cannot open an envelope under another user\'s context', async () => {
    const provider = new KmsDataKeyProvider('alias/tutor-nexus-byok', client());
    const envelope = await sealSecret(provider, 'secret', { userId: 'alice', credentialId: '1' });
    await expect(openSecret(provider, envelope, { userId: 'mallory', credentialId: '1' })).rejects.toThrow();
  });
});
