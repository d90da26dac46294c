// Words for the IP geolocation page's card: coordinates in degrees with their hemisphere, and what
// kind of reserved address an IP is. Pure: no DOM.

/**
 * `37.422, -122.085` → `37.4220° N, 122.0850° W`.
 *
 * @example
 *   formatCoordinates(-33.8688, 151.2093) // '33.8688° S, 151.2093° E'
 */
export function formatCoordinates(latitude: number, longitude: number): string {
  const part = (value: number, positive: string, negative: string) => `${Math.abs(value).toFixed(4)}° ${value < 0 ? negative : positive}`;
  return `${part(latitude, 'N', 'S')}, ${part(longitude, 'E', 'W')}`;
}

/** The IPv4 address an IPv4-mapped IPv6 address (`::ffff:127.0.0.1`) carries, else the address itself. */
const unmapped = (ip: string) => ip.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');

/**
 * Which reserved range a reserved address is in, as a phrase: the common ones by name, the others
 * as "a special-purpose range". The API only says `reserved: true`; this names it for people.
 *
 * @example
 *   reservedKind('127.0.0.1') // 'a loopback address (this machine itself)'
 */
export function reservedKind(ip: string): string {
  const address = unmapped(ip.toLowerCase());
  if (/^127\./.test(address) || address === '::1') return 'a loopback address (this machine itself)';
  if (/^10\.|^192\.168\.|^172\.(1[6-9]|2\d|3[01])\./.test(address)) return 'a private network address (RFC 1918)';
  if (/^100\.(6[4-9]|[7-9]\d|1[01]\d|12[0-7])\./.test(address)) return 'a carrier-grade NAT address (RFC 6598)';
  if (/^169\.254\./.test(address) || /^fe[89ab]/.test(address)) return 'a link-local address';
  if (/^f[cd]/.test(address)) return 'a unique local IPv6 address (a private network)';
  if (/^(22[4-9]|23\d)\./.test(address) || /^ff/.test(address)) return 'a multicast address';
  if (/^(192\.0\.2|198\.51\.100|203\.0\.113)\./.test(address) || /^2001:0?db8:/.test(address)) return 'a documentation address';
  return 'in a special-purpose range';
}
