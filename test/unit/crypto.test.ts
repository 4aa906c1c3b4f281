import { mkdtemp, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LocalDataKeyProvider, loadOrCreateMasterKey } from '../../functions/platform/crypto/data-keys.js';
import { openSecret, sealSecret } from '../../functions/platform/crypto/envelope.js';

describe('envelope encryption with the local master key', () => {
  it('creates the master key once with 0600 permissions and reuses it', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'tn-key-'));
    const first = await loadOrCreateMasterKey(dir);
    const second = await loadOrCreateMasterKey(dir);
    expect(first.equals(second)).toBe(true);
    expect((await stat(path.join(dir, 'master.key'))).mode & 0o777).toBe(0o600);
  });

  it('seals and opens a secret; the envelope never contains it', async () => {
    const provider = new LocalDataKeyProvider(Buffer.alloc(32, 7));
    const context = { userId: 'alice', credentialId: '01JD' };
    const envelope = await sealSecret(provider, 'sk-ant-very-secret', context);
    expect(JSON.stringify(envelope)).not.toContain('very-secret');
    expect(await openSecret(provider, envelope, context)).toBe('sk-ant-very-secret');
  });

  it('refuses to open under another context, another master key, or with a modified payload', async () => {
    const provider = new LocalDataKeyProvider(Buffer.alloc(32, 7));
    const context = { userId: 'alice', credentialId: '01JD' };
    const envelope = await sealSecret(provider, 'secret', context);
    await expect(openSecret(provider, envelope, { userId: 'bob', credentialId: '01JD' })).rejects.toThrow();
    await expect(openSecret(new LocalDataKeyProvider(Buffer.alloc(32, 8)), envelope, context)).rejects.toThrow();
    const payload = Buffer.from(envelope.payload, 'base64');
    payload[payload.length - 1]! ^= 1;
    await expect(openSecret(provider, { ...envelope, payload: payload.toString('base64') }, context)).rejects.toThrow();
  });

  it('uses a fresh data key per secret', async () => {
    const provider = new LocalDataKeyProvider(Buffer.alloc(32, 7));
    const a = await sealSecret(provider, 'same', { id: '1' });
    const b = await sealSecret(provider, 'same', { id: '1' });
    expect(a.edk).not.toBe(b.edk);
    expect(a.payload).not.toBe(b.payload);
  });
});
