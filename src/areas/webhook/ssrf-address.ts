import { isIP } from 'node:net';

/** Why an address may (public) or may not be the target of a replay. */
export type AddressKind =
  | 'public'
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'link_local'
  | 'cgnat'
  | 'multicast'
  | 'broadcast'
  | 'documentation'
  | 'benchmark'
  | 'unique_local'
  | 'reserved';

/**
 * How the low 32 bits of an IPv6 range embed an IPv4 address that decides its kind
 * (`mapped` ::ffff:a.b.c.d, `compatible` ::a.b.c.d, `translated` ::ffff:0:a.b.c.d, NAT64
 * 64:ff9b::a.b.c.d), or `6to4` (2002:AABB:CCDD::, the IPv4 address in bits 16..47).
 */
type Embedding = 'low32' | '6to4';

interface Range<T> {
  prefix: T;
  bits: number;
  kind: AddressKind;
  embeds?: Embedding;
}

/** IPv4 special-purpose ranges (IANA registry); first match wins, so broadcast precedes 240/4. */
const IPV4_RANGES: Range<number>[] = [
  ['0.0.0.0', 8, 'unspecified'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'cgnat'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link_local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'reserved'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.88.99.0', 24, 'reserved'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'benchmark'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['255.255.255.255', 32, 'broadcast'],
  ['240.0.0.0', 4, 'reserved'],
].map(([text, bits, kind]) => ({ prefix: parseIpv4(text as string)!, bits: bits as number, kind: kind as AddressKind }));

/** IPv6 special-purpose ranges; anything outside 2000::/3 (global unicast) is reserved. */
const IPV6_RANGES: Range<bigint>[] = (
  [
    ['::', 128, 'unspecified'],
    ['::1', 128, 'loopback'],
    ['::ffff:0:0', 96, 'reserved', 'low32'],
    ['::ffff:0:0:0', 96, 'reserved', 'low32'],
    ['::', 96, 'reserved', 'low32'],
    ['64:ff9b::', 96, 'reserved', 'low32'],
    ['64:ff9b:1::', 48, 'reserved'],
    ['100::', 64, 'reserved'],
    ['2001:db8::', 32, 'documentation'],
    ['2001::', 23, 'reserved'],
    ['2002::', 16, 'reserved', '6to4'],
    ['3fff::', 20, 'documentation'],
    ['5f00::', 16, 'reserved'],
    ['fc00::', 7, 'unique_local'],
    ['fe80::', 10, 'link_local'],
    ['fec0::', 10, 'reserved'],
    ['ff00::', 8, 'multicast'],
  ] as const
).map(([text, bits, kind, embeds]) => ({ prefix: parseIpv6(text)!, bits, kind, embeds }));

const GLOBAL_UNICAST_V6 = parseIpv6('2000::')!;

/** Dotted-quad text → 32-bit number, or null. Only the canonical form node:dns and WHATWG URL produce. */
export function parseIpv4(text: string): number | null {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (!m) return null;
  const parts = m.slice(1).map(Number);
  if (parts.some((p) => p > 255)) return null;
  return ((parts[0] << 24) | (parts[1] << 16) | (parts[2] << 8) | parts[3]) >>> 0;
}

/** IPv6 text (zone id ignored, dotted tail allowed) → 128-bit bigint, or null. */
export function parseIpv6(text: string): bigint | null {
  const bare = text.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (isIP(bare) !== 6) return null;
  let groups = bare;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(bare);
  if (dotted) {
    const v4 = parseIpv4(dotted[1]);
    if (v4 === null) return null;
    groups = bare.slice(0, -dotted[1].length) + `${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const [head, tail] = groups.includes('::') ? groups.split('::') : [groups, undefined];
  const headParts = head ? head.split(':') : [];
  const tailParts = tail ? tail.split(':') : [];
  const fill = tail === undefined ? [] : new Array(8 - headParts.length - tailParts.length).fill('0');
  const all = [...headParts, ...fill, ...tailParts];
  if (all.length !== 8) return null;
  return all.reduce((acc, g) => (acc << 16n) | BigInt(parseInt(g, 16)), 0n);
}

function classifyIpv4(value: number): AddressKind {
  for (const r of IPV4_RANGES) {
    const mask = r.bits === 0 ? 0 : (~0 << (32 - r.bits)) >>> 0;
    if ((value & mask) >>> 0 === r.prefix) return r.kind;
  }
  return 'public';
}

function classifyIpv6(value: bigint): AddressKind {
  for (const r of IPV6_RANGES) {
    const shift = BigInt(128 - r.bits);
    if (value >> shift !== r.prefix >> shift) continue;
    // An IPv4 address carried inside IPv6 has the kind of that IPv4 address.
    if (r.embeds === 'low32') return classifyIpv4(Number(value & 0xffffffffn));
    if (r.embeds === '6to4') return classifyIpv4(Number((value >> 80n) & 0xffffffffn));
    return r.kind;
  }
  return value >> 125n === GLOBAL_UNICAST_V6 >> 125n ? 'public' : 'reserved';
}

/**
 * Classify an IP address (IPv4 dotted quad or IPv6, brackets and zone ids tolerated) for the
 * replay SSRF guard; `null` when the text is not an IP address.
 *
 * @example
 *   classifyAddress('169.254.169.254') // 'link_local'
 *   classifyAddress('::ffff:7f00:1')   // 'loopback'
 *   classifyAddress('93.184.215.14')   // 'public'
 */
export function classifyAddress(text: string): AddressKind | null {
  const v4 = parseIpv4(text);
  if (v4 !== null) return classifyIpv4(v4);
  const v6 = parseIpv6(text);
  return v6 === null ? null : classifyIpv6(v6);
}
