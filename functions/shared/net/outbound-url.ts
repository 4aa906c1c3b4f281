import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { DomainError } from '../domain-error.js';

/** Loopback, private, link-local, CGNAT, unique-local and unspecified ranges: never reachable from AWS safely. */
export function isNonPublicAddress(address: string): boolean {
  if (isIP(address) === 4) {
    const [a, b] = address.split('.').map(Number) as [number, number];
    return (
      a === 0 ||
      a === 10 ||
      a === 127 ||
      (a === 100 && b >= 64 && b <= 127) ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      a >= 224
    );
  }
  const lower = address.toLowerCase();
  if (lower.startsWith('::ffff:')) return isNonPublicAddress(lower.slice(7));
  return lower === '::' || lower === '::1' || /^f[cd]/.test(lower) || /^fe[89ab]/.test(lower);
}

const badUrl = (message: string) =>
  DomainError.invalid(message, [{ field: 'baseUrl', message }]);

/**
 * The rule for every URL our servers fetch on a caller's say-so (BYOK base URLs, OAuth client
 * metadata documents). An OpenAI-compatible base URL is fetched by our servers, so in AWS it must be https on a public
 * address (no SSRF into the VPC or metadata service). Locally a developer's own model server on
 * loopback or the LAN is the point, so anything http(s) goes.
 */
export async function checkBaseUrl(raw: string, runtime: 'local' | 'aws', resolve = lookup): Promise<string> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw badUrl('baseUrl must be an absolute URL such as https://api.example.com/v1');
  }
  if (url.username || url.password) throw badUrl('baseUrl must not contain credentials');
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw badUrl('baseUrl must use https');
  if (runtime === 'local') return url.toString().replace(/\/$/, '');

  if (url.protocol !== 'https:') throw badUrl('baseUrl must use https');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.internal') || host.endsWith('.local')) {
    throw badUrl('baseUrl must be on a public address');
  }
  const addresses = isIP(host) ? [host] : await resolveAll(host, resolve);
  if (addresses.length === 0 || addresses.some(isNonPublicAddress)) throw badUrl('baseUrl must be on a public address');
  return url.toString().replace(/\/$/, '');
}

async function resolveAll(host: string, resolve: typeof lookup): Promise<string[]> {
  try {
    const results = await resolve(host, { all: true });
    return results.map((r) => r.address);
  } catch {
    throw DomainError.unprocessable('baseUrl host does not resolve', `could not resolve ${host}`);
  }
}

/** The same rule as a yes/no, for callers that refuse in their own words (OAuth's invalid_client). */
export function isFetchableUrl(raw: string, runtime: 'local' | 'aws', resolve = lookup): Promise<boolean> {
  return checkBaseUrl(raw, runtime, resolve).then(
    () => true,
    () => false,
  );
}
