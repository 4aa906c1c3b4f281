import { ipv6Bytes } from '../../platform/net/ip-address.js';

/**
 * The network address a request came from, as the edge that received it saw it: the socket's peer on
 * the local server, API Gateway's `sourceIp` in AWS. Kept beside the Request rather than in a header, so
 * no caller can claim an address of its choosing. Per-address limits (registration, sign-in, bearer
 * guessing) key on it.
 */
const addresses = new WeakMap<Request, string>();

export function withClientAddress(request: Request, address: string | undefined): Request {
  if (address) addresses.set(request, address);
  return request;
}

/**
 * The address a limit counts under: IPv4 as is, IPv6 by its /64 (one subscriber's network: a client
 * holds a whole /64 and could otherwise take a new address per attempt), `unknown` when the edge knew none.
 */
export function clientAddressOf(request: Request): string {
  const address = addresses.get(request);
  if (!address) return 'unknown';
  const v4 = /^(?:::ffff:)?(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (v4) return v4[1]!;
  const bytes = ipv6Bytes(address);
  if (!bytes) return address;
  const groups = [0, 2, 4, 6].map((i) => ((bytes[i]! << 8) | bytes[i + 1]!).toString(16));
  return `${groups.join(':')}::/64`;
}
