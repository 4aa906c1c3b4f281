import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { DomainError } from '../domain-error.js';
import { isNonPublicAddress } from './ip-address.js';

export { isNonPublicAddress };

/**
 * Where our servers may connect on a caller's say-so (ADR 0029). `public`: https to public addresses
 * only, what AWS always uses (no SSRF into the VPC or the metadata service) and a local server may opt
 * into (TN_OUTBOUND=public). `any`: the local default, where a developer's own model server on loopback
 * or the LAN is the point.
 */
export type OutboundPolicy = 'public' | 'any';

const badUrl = (message: string) => DomainError.invalid(message, [{ field: 'baseUrl', message }]);

/**
 * Host names that are this machine or a private network by name, whatever DNS says. Any other name
 * (a single label included) is judged by the addresses it resolves to, at every connection.
 */
function isPrivateName(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.internal') || host.endsWith('.local') || host.endsWith('.home.arpa');
}

/**
 * What can be said of a URL without resolving it: scheme, credentials, and under `public` an IP
 * literal or a private name. undefined when it passes, else why not.
 */
export function urlProblem(url: URL, policy: OutboundPolicy): string | undefined {
  if (url.username || url.password) return 'must not contain credentials';
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must use https';
  if (policy === 'any') return undefined;
  if (url.protocol !== 'https:') return 'must use https';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isPrivateName(host) || (isIP(host) !== 0 && isNonPublicAddress(host))) return 'must be on a public address';
  return undefined;
}

/**
 * The rule for a base URL a caller stores (BYOK), checked when it is stored so the caller hears at
 * once why not: under `public`, its name must resolve to public addresses only. The same rule is
 * applied again on every connection (outbound-fetch.ts), since a name may resolve elsewhere later.
 */
export async function checkBaseUrl(raw: string, policy: OutboundPolicy, resolve = lookup): Promise<string> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw badUrl('baseUrl must be an absolute URL such as https://api.example.com/v1');
  }
  const problem = urlProblem(url, policy);
  if (problem) throw badUrl(`baseUrl ${problem}`);
  if (policy === 'public') {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const addresses = isIP(host) ? [host] : await resolveAll(host, resolve);
    if (addresses.length === 0 || addresses.some(isNonPublicAddress)) throw badUrl('baseUrl must be on a public address');
  }
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
