import { describe, expect, it } from 'vitest';
import { DomainError } from '../../functions/platform/domain-error.js';
import { mapError } from '../../functions/mcp/tools/errors.js';
import { checkBaseUrl, isNonPublicAddress } from '../../functions/platform/net/outbound-url.js';
import { checkKeyFormat } from '../../functions/user/byok-credentials.js';

describe('BYOK key formats', () => {
  it.each([
    ['openai', 'sk-proj-abcdefghijklmnopqrstuv'],
    ['openai', 'sk-abcdefghijklmnopqrstuvwxyz'],
    ['anthropic', 'sk-ant-api03-abcdefghijklmnopqrstu'],
    ['openai-compatible', 'anything-8+'],
  ] as const)('accepts a %s key', (provider, key) => {
    expect(() => checkKeyFormat(provider, key)).not.toThrow();
  });

  it.each([
    ['openai', 'sk-ant-api03-abcdefghijklmnopqrstu', /Anthropic/],
    ['openai', 'pk-abcdefghijklmnopqrstuvwxyz', /OpenAI key/],
    ['anthropic', 'sk-proj-abcdefghijklmnopqrstuv', /Anthropic key/],
    ['openai-compatible', 'has space in it', /8 characters/],
  ] as const)('refuses a malformed %s key without echoing it', (provider, key, message) => {
    try {
      checkKeyFormat(provider, key);
      expect.fail('should throw');
    } catch (error) {
      expect(mapError(error, 'r').response.code).toBe('BAD_REQUEST');
      expect((error as DomainError).message).toMatch(message);
      expect(JSON.stringify({ message: (error as DomainError).message, details: (error as DomainError).details })).not.toContain(key);
    }
  });
});

describe('OpenAI-compatible base URL policy', () => {
  it.each([
    '127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', 'fd00::1', 'fe80::1', '::ffff:127.0.0.1',
    // Every IPv6 spelling of an IPv4 address we refuse, and translators that would reach one (issue 28).
    '::ffff:a9fe:a9fe', '::ffff:0a00:0001', '0:0:0:0:0:ffff:169.254.169.254', '::a9fe:a9fe', '::169.254.169.254', '64:ff9b::a9fe:a9fe', '2002:a9fe:a9fe::1', '2001::1', '::', 'ff02::1', 'fec0::1',
  ])(
    'treats %s as non-public',
    (address) => {
      expect(isNonPublicAddress(address)).toBe(true);
    },
  );

  it.each(['8.8.8.8', '52.94.1.1', '2606:4700::1111', '::ffff:8.8.8.8', '2a00:1450:4001:82a::200e'])('treats %s as public', (address) => {
    expect(isNonPublicAddress(address)).toBe(false);
  });

  it('allows loopback and http locally', async () => {
    await expect(checkBaseUrl('http://localhost:11434/v1/', 'any')).resolves.toBe('http://localhost:11434/v1');
  });

  it.each([
    ['http://api.example.com/v1', /https/],
    ['https://127.0.0.1/v1', /public/],
    ['https://[::1]/v1', /public/],
    ['https://metadata.internal/v1', /public/],
    ['https://user:pw@api.example.com', /credentials/],
    ['not a url', /absolute URL/],
    ['https://[::ffff:a9fe:a9fe]/v1', /public/],
    ['https://localhost./v1', /public/],
  ])('refuses %s in AWS', async (url, message) => {
    await expect(checkBaseUrl(url, 'public', async () => [{ address: '8.8.8.8', family: 4 }] as never)).rejects.toThrow(message);
  });

  it('refuses a public-looking name that resolves to a private address in AWS (DNS rebinding / SSRF)', async () => {
    const resolve = async () => [{ address: '10.0.0.5', family: 4 }] as never;
    await expect(checkBaseUrl('https://sneaky.example.com/v1', 'public', resolve)).rejects.toThrow(/public/);
    const publicResolve = async () => [{ address: '8.8.8.8', family: 4 }] as never;
    await expect(checkBaseUrl('https://api.example.com/v1', 'public', publicResolve)).resolves.toBe('https://api.example.com/v1');
  });
});
