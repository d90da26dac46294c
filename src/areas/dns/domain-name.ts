import { isIP } from 'node:net';
import { domainToASCII } from 'node:url';
import { invalidField } from '../../errors.js';

const LABEL = /^[a-z0-9_-]{1,63}$/;
/** ASCII characters a name may carry alongside non-ASCII ones before IDNA conversion. */
const ASCII_IN_UNICODE_NAME = /^(?:[a-z0-9._-]|[^\x00-\x7f])+$/i;
/** Longest name in text form, without the final dot (RFC 1035's 255 octets on the wire). */
export const MAX_NAME_LENGTH = 253;

/**
 * Check a domain name and return it in the form queried: lower case, without a final dot, and
 * with internationalised labels converted to punycode (IDNA via `url.domainToASCII`).
 * Labels are 1-63 of `a-z 0-9 - _` (underscore for `_dmarc`, `_sip._tcp`), 253 characters at most.
 * An IP address is refused (422) unless `allowIp` (PTR).
 *
 * @example
 *   normalizeDomain('Bücher.Example.', 'domain'); // 'xn--bcher-kva.example'
 *   normalizeDomain('a b.com', 'domain');         // throws 422 validation_error
 */
export function normalizeDomain(input: string, field: string, allowIp = false): string {
  if (allowIp && isIP(input)) {
    if (input.includes('%'))
      throw invalidField(
        field,
        'must be an address without a zone id (such as %eth0): a zone is local to one host and has no reverse name',
      );
    return input.toLowerCase();
  }
  if (isIP(input)) throw invalidField(field, 'must be a domain name, not an IP address (use type PTR for reverse lookups)');
  if (input.length === 0) throw invalidField(field, 'must not be empty');
  if (/\s/.test(input)) throw invalidField(field, 'must not contain spaces');
  let name = input.endsWith('.') ? input.slice(0, -1) : input;
  if (/[^\x00-\x7f]/.test(name)) {
    if (!ASCII_IN_UNICODE_NAME.test(name)) throw invalidField(field, 'contains characters not allowed in a domain name');
    name = domainToASCII(name);
    if (name === '') throw invalidField(field, 'is not a valid internationalised domain name');
  }
  name = checkLabels(name.toLowerCase(), field);
  if (/^\d+$/.test(name.slice(name.lastIndexOf('.') + 1))) {
    throw invalidField(field, 'must be a domain name, not an IP address (a top-level label is never all digits)');
  }
  return name;
}

/**
 * Check a DKIM selector (one or more ASCII labels, e.g. `google` or `s1024.mail`), lower-cased.
 *
 * @example
 *   normalizeSelector('Selector1'); // 'selector1'
 */
export function normalizeSelector(input: string): string {
  if (/\s/.test(input)) throw invalidField('selector', 'must not contain spaces');
  return checkLabels(input.toLowerCase(), 'selector');
}

function checkLabels(name: string, field: string): string {
  if (name.length === 0) throw invalidField(field, 'must not be empty');
  if (name.length > MAX_NAME_LENGTH) throw invalidField(field, `must be at most ${MAX_NAME_LENGTH} characters long (${name.length} given)`);
  for (const label of name.split('.')) {
    if (label.length === 0) throw invalidField(field, 'must not contain an empty label (two dots in a row)');
    if (label.length > 63) throw invalidField(field, `has a label longer than 63 characters (${label.length})`);
    if (!LABEL.test(label)) throw invalidField(field, `has a label with characters other than letters, digits, "-" and "_": "${label}"`);
  }
  return name;
}

/**
 * The name a PTR query asks for: `d.c.b.a.in-addr.arpa` for IPv4, nibbles under `ip6.arpa` for IPv6;
 * any other name is queried as given.
 *
 * @example
 *   reverseName('192.0.2.1'); // '1.2.0.192.in-addr.arpa'
 *   reverseName('2001:db8::1'); // '1.0.0.0.…8.b.d.0.1.0.0.2.ip6.arpa'
 */
export function reverseName(domainOrIp: string): string {
  const family = isIP(domainOrIp);
  if (family === 4) return `${domainOrIp.split('.').reverse().join('.')}.in-addr.arpa`;
  if (family === 6) return `${[...expandIpv6(domainOrIp)].reverse().join('.')}.ip6.arpa`;
  return domainOrIp;
}

/** 32 hex digits of an IPv6 address (an embedded IPv4 tail such as `::ffff:1.2.3.4` included). */
function expandIpv6(ip: string): string {
  let text = ip.toLowerCase();
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const missing = 8 - headGroups.length - tailGroups.length;
  const groups = [...headGroups, ...Array<string>(tail === undefined ? 0 : missing).fill('0'), ...tailGroups];
  return groups.map((g) => g.padStart(4, '0')).join('');
}
