import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isNonPublicAddress } from './ip-address.js';
import { urlProblem, type OutboundPolicy } from './outbound-url.js';

type LookupCallback = (error: NodeJS.ErrnoException | null, address?: string | LookupAddress[], family?: number) => void;

/**
 * Resolves like dns.lookup, but hands the connection only public addresses: the check happens on the
 * addresses actually connected to, so a name that resolved to a public address when it was checked
 * and to 169.254.169.254 now (DNS rebinding) is refused here.
 */
function publicOnlyLookup(hostname: string, options: { all?: boolean; family?: number }, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error);
    const list = addresses as LookupAddress[];
    if (!list.length || list.some((entry) => isNonPublicAddress(entry.address))) {
      return callback(Object.assign(new Error(`${hostname} resolves to an address outside the public internet`), { code: 'ENOTPUBLIC' }));
    }
    if (options.all) callback(null, list);
    else callback(null, list[0]!.address, list[0]!.family);
  });
}

interface Dispatcher {
  destroy(): Promise<void>;
}

let publicDispatcher: Dispatcher | undefined;

/**
 * A connection pool whose every connection goes through publicOnlyLookup: the Agent class of the
 * undici inside Node's own fetch (reached through its global dispatcher, as oidc-provider does), so
 * fetch takes it as `dispatcher` with no second HTTP client bundled.
 */
function publicOnlyDispatcher(): Dispatcher {
  if (publicDispatcher) return publicDispatcher;
  void Response; // loads Node's fetch, which installs its global dispatcher
  const global = (globalThis as Record<symbol, unknown>)[Symbol.for('undici.globalDispatcher.1')] as { constructor: new (options: object) => Dispatcher } | undefined;
  if (!global) throw new Error('outbound requests cannot be checked here: no undici Agent in this Node');
  publicDispatcher = new global.constructor({ connect: { lookup: publicOnlyLookup } });
  return publicDispatcher;
}

const refused = (url: string, why: string) => Object.assign(new TypeError(`fetch to ${url} refused: ${why}`), { code: 'ENOTPUBLIC' });

/**
 * fetch as every request our servers make on a caller's say-so goes out (model providers, client ID
 * metadata documents): redirects are never followed (a 307 would re-send the prompt, and the key, to a
 * host nobody checked; the caller sees the 3xx as the answer), and under `public` the URL is checked
 * and every connection is made only to public addresses.
 */
export function outboundFetch(policy: OutboundPolicy): typeof fetch {
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const problem = urlProblem(url, policy);
    if (problem) throw refused(url.origin, problem);
    const options: RequestInit & { dispatcher?: Dispatcher } = { ...init, redirect: 'manual' };
    if (policy === 'public') options.dispatcher = publicOnlyDispatcher();
    return fetch(input, options);
  };
}
