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
  const groups = expandIpv6(address);
  return groups ? `${groups.slice(0, 4).join(':')}::/64` : address;
}

/** The eight 16-bit groups of an IPv6 address (hex, unpadded), or undefined when it is not one. */
export function expandIpv6(address: string): string[] | undefined {
  const bare = address.replace(/^\[|\]$/g, '').split('%')[0]!.toLowerCase();
  if (!/^[0-9a-f:.]+$/.test(bare) || !bare.includes(':')) return undefined;
  let text = bare;
  // A trailing dotted quad is the last 32 bits.
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (quad) {
    const octets = quad.slice(1).map(Number);
    if (octets.some((octet) => octet > 255)) return undefined;
    text = `${text.slice(0, quad.index)}${((octets[0]! << 8) | octets[1]!).toString(16)}:${((octets[2]! << 8) | octets[3]!).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const head = halves[0] ? halves[0].split(':') : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...tail];
  if (groups.some((group) => !/^[0-9a-f]{1,4}$/.test(group))) return undefined;
  return groups.map((group) => group.replace(/^0+(?=.)/, ''));
}
