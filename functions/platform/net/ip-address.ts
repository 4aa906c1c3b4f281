import { isIP } from 'node:net';

/** IPv4 ranges that are not the public internet: this host, private networks, shared, link-local, test, benchmarking, multicast, reserved. */
const NON_PUBLIC_V4: [prefix: number, bits: number][] = [
  [0x00000000, 8], // "this network"
  [0x0a000000, 8], // private
  [0x64400000, 10], // carrier-grade NAT
  [0x7f000000, 8], // loopback
  [0xa9fe0000, 16], // link-local (cloud metadata services)
  [0xac100000, 12], // private
  [0xc0000000, 24], // IETF protocol assignments
  [0xc0000200, 24], // TEST-NET-1
  [0xc0586300, 24], // 6to4 relay anycast
  [0xc0a80000, 16], // private
  [0xc6120000, 15], // benchmarking
  [0xc6336400, 24], // TEST-NET-2
  [0xcb007100, 24], // TEST-NET-3
  [0xe0000000, 4], // multicast
  [0xf0000000, 4], // reserved, broadcast
];

function v4ToInt(address: string): number {
  return address.split('.').reduce((value, octet) => value * 256 + Number(octet), 0) >>> 0;
}

function nonPublicV4(value: number): boolean {
  return NON_PUBLIC_V4.some(([prefix, bits]) => (bits === 0 ? true : value >>> (32 - bits) === prefix >>> (32 - bits)));
}

/** The 16 bytes of an IPv6 address (any textual form: compressed, zero-padded, with a dotted quad), or undefined. */
export function ipv6Bytes(address: string): number[] | undefined {
  const bare = address.replace(/^\[|\]$/g, '').split('%')[0]!.toLowerCase();
  if (isIP(bare) !== 6) return undefined;
  let text = bare;
  const quad = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (quad) {
    const value = v4ToInt(quad[1]!);
    text = `${text.slice(0, quad.index)}${(value >>> 16).toString(16)}:${(value & 0xffff).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return groups.flatMap((group) => {
    const value = parseInt(group, 16);
    return [value >> 8, value & 0xff];
  });
}

const startsWith = (bytes: number[], prefix: number[], bits: number) => {
  for (let bit = 0; bit < bits; bit++) {
    const byte = bit >> 3;
    const mask = 0x80 >> (bit & 7);
    if ((bytes[byte]! & mask) !== (prefix[byte]! & mask)) return false;
  }
  return true;
};

/** IPv6 ranges that are not the public internet, or that carry an IPv4 address we would have to trust a gateway with. */
const NON_PUBLIC_V6: [prefix: number[], bits: number][] = [
  [[0, 0x64, 0xff, 0x9b], 32], // NAT64 (64:ff9b::/96 and the local-use 64:ff9b:1::/48)
  [[0x01, 0x00], 64], // discard
  [[0x20, 0x01, 0x00], 23], // IETF protocol assignments, Teredo included
  [[0x20, 0x01, 0x0d, 0xb8], 32], // documentation
  [[0x20, 0x02], 16], // 6to4
  [[0x3f, 0xff], 20], // documentation
  [[0x5f, 0x00], 16], // segment routing
  [[0xfc], 7], // unique local
  [[0xfe, 0x80], 10], // link-local
  [[0xfe, 0xc0], 10], // site-local (deprecated)
  [[0xff], 8], // multicast
];

/**
 * Whether an address (IPv4 or IPv6 in any notation) is one a server must never be sent to on a
 * caller's say-so: loopback, private, link-local (the cloud metadata service), shared, reserved,
 * multicast, and every IPv6 form that embeds such an IPv4 address (mapped `::ffff:a9fe:a9fe`,
 * compatible `::a9fe:a9fe`) or hands one to a translator (NAT64, 6to4, Teredo).
 */
export function isNonPublicAddress(address: string): boolean {
  if (isIP(address) === 4) return nonPublicV4(v4ToInt(address));
  const bytes = ipv6Bytes(address);
  if (!bytes) return true; // not an address at all: never public
  const first80Zero = bytes.slice(0, 10).every((b) => b === 0);
  // ::ffff:0:0/96 (mapped) and ::/96 (compatible, :: and ::1 included): the IPv4 address inside decides.
  if (first80Zero && ((bytes[10] === 0xff && bytes[11] === 0xff) || (bytes[10] === 0 && bytes[11] === 0))) {
    const embedded = ((bytes[12]! << 24) | (bytes[13]! << 16) | (bytes[14]! << 8) | bytes[15]!) >>> 0;
    return embedded <= 1 || nonPublicV4(embedded);
  }
  return NON_PUBLIC_V6.some(([prefix, bits]) => startsWith(bytes, prefix, bits));
}
