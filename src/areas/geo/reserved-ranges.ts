import { BlockList } from 'node:net';

/**
 * Special-purpose ranges (IANA IPv4/IPv6 Special-Purpose Address Registries) that have no
 * geographic location: one row per range.
 */
export const RESERVED_RANGES: readonly { network: string; prefix: number; family: 'ipv4' | 'ipv6'; name: string }[] = [
  { network: '0.0.0.0', prefix: 8, family: 'ipv4', name: '"this network" (RFC 791)' },
  { network: '10.0.0.0', prefix: 8, family: 'ipv4', name: 'private (RFC 1918)' },
  { network: '100.64.0.0', prefix: 10, family: 'ipv4', name: 'carrier-grade NAT (RFC 6598)' },
  { network: '127.0.0.0', prefix: 8, family: 'ipv4', name: 'loopback (RFC 1122)' },
  { network: '169.254.0.0', prefix: 16, family: 'ipv4', name: 'link-local (RFC 3927)' },
  { network: '172.16.0.0', prefix: 12, family: 'ipv4', name: 'private (RFC 1918)' },
  { network: '192.0.0.0', prefix: 24, family: 'ipv4', name: 'IETF protocol assignments (RFC 6890)' },
  { network: '192.0.2.0', prefix: 24, family: 'ipv4', name: 'documentation TEST-NET-1 (RFC 5737)' },
  { network: '192.88.99.0', prefix: 24, family: 'ipv4', name: '6to4 relay anycast (RFC 7526)' },
  { network: '192.168.0.0', prefix: 16, family: 'ipv4', name: 'private (RFC 1918)' },
  { network: '198.18.0.0', prefix: 15, family: 'ipv4', name: 'benchmarking (RFC 2544)' },
  { network: '198.51.100.0', prefix: 24, family: 'ipv4', name: 'documentation TEST-NET-2 (RFC 5737)' },
  { network: '203.0.113.0', prefix: 24, family: 'ipv4', name: 'documentation TEST-NET-3 (RFC 5737)' },
  { network: '224.0.0.0', prefix: 4, family: 'ipv4', name: 'multicast (RFC 5771)' },
  { network: '240.0.0.0', prefix: 4, family: 'ipv4', name: 'reserved, and broadcast 255.255.255.255 (RFC 1112, RFC 919)' },
  { network: '::', prefix: 128, family: 'ipv6', name: 'unspecified (RFC 4291)' },
  { network: '::1', prefix: 128, family: 'ipv6', name: 'loopback (RFC 4291)' },
  { network: '64:ff9b:1::', prefix: 48, family: 'ipv6', name: 'local-use IPv4/IPv6 translation (RFC 8215)' },
  { network: '100::', prefix: 64, family: 'ipv6', name: 'discard-only (RFC 6666)' },
  { network: '2001::', prefix: 23, family: 'ipv6', name: 'IETF protocol assignments (RFC 2928)' },
  { network: '2001:db8::', prefix: 32, family: 'ipv6', name: 'documentation (RFC 3849)' },
  { network: '3fff::', prefix: 20, family: 'ipv6', name: 'documentation (RFC 9637)' },
  { network: '5f00::', prefix: 16, family: 'ipv6', name: 'segment routing SIDs (RFC 9602)' },
  { network: 'fc00::', prefix: 7, family: 'ipv6', name: 'unique local (RFC 4193)' },
  { network: 'fe80::', prefix: 10, family: 'ipv6', name: 'link-local (RFC 4291)' },
  { network: 'fec0::', prefix: 10, family: 'ipv6', name: 'site-local, deprecated (RFC 3879)' },
  { network: 'ff00::', prefix: 8, family: 'ipv6', name: 'multicast (RFC 4291)' },
];

const RESERVED_V6 = new BlockList();
for (const range of RESERVED_RANGES) if (range.family === 'ipv6') RESERVED_V6.addSubnet(range.network, range.prefix, 'ipv6');
/** IPv4 rows as [network, mask] integers, compared as numbers. */
const RESERVED_V4 = RESERVED_RANGES.filter((r) => r.family === 'ipv4').map((r) => {
  const mask = r.prefix === 0 ? 0 : (0xffffffff << (32 - r.prefix)) >>> 0;
  return [(ipv4ToNumber(r.network) & mask) >>> 0, mask] as const;
});

/**
 * Whether an address (already validated; IPv4-mapped IPv6 already unwrapped) is in a reserved range.
 *
 * @example
 *   isReservedIp('192.168.1.10', 4); // true
 *   isReservedIp('8.8.8.8', 4);      // false
 */
export function isReservedIp(ip: string, family: 4 | 6): boolean {
  if (family === 6) return RESERVED_V6.check(ip, 'ipv6');
  const n = ipv4ToNumber(ip);
  return RESERVED_V4.some(([network, mask]) => (n & mask) >>> 0 === network);
}

function ipv4ToNumber(ip: string): number {
  return ip.split('.').reduce((acc, octet) => acc * 256 + Number(octet), 0);
}
