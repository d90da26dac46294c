import { invalidField } from '../../errors.js';

/** Bytes `encodeURIComponent` leaves as they are: RFC 3986 unreserved characters and `!*'()`. */
const KEPT = new Uint8Array(128);
for (const c of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.!~*'()") KEPT[c.charCodeAt(0)] = 1;

const PERCENT_RUNS = /((?:%[0-9A-Fa-f]{2})+)/;

/**
 * Percent-encode bytes as `encodeURIComponent` does for UTF-8 text (uppercase `%XX`), byte by
 * byte, so bytes that are not UTF-8 are encoded too.
 *
 * @example
 *   encodePercent(Buffer.from([0x61, 0x20, 0xff])) // 'a%20%FF'
 */
export function encodePercent(bytes: Buffer): string {
  let out = '';
  for (const byte of bytes) {
    out += byte < 128 && KEPT[byte] === 1 ? String.fromCharCode(byte) : `%${byte < 16 ? '0' : ''}${byte.toString(16).toUpperCase()}`;
  }
  return out;
}

/**
 * Decode percent-encoding to bytes: each `%XX` is one byte, other characters are their UTF-8
 * bytes, `+` stays `+`. The bytes need not be UTF-8 (`caf%E9` is `63 61 66 e9`); a `%` that does
 * not start two hex digits is a 422 on `field`.
 *
 * @example
 *   decodePercent('caf%C3%A9', 'data').toString() // 'café'
 */
export function decodePercent(text: string, field: string): Buffer {
  // split() with a capturing group: odd indices are runs of %XX, even ones the text between them.
  const parts = text.split(PERCENT_RUNS);
  const chunks: Buffer[] = [];
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (i % 2 === 1) chunks.push(Buffer.from(part.replaceAll('%', ''), 'hex'));
    else if (part.includes('%')) throw invalidField(field, 'is not valid percent-encoding (a % must start a %XX sequence of two hex digits)');
    else if (part !== '') chunks.push(Buffer.from(part, 'utf8'));
  }
  return Buffer.concat(chunks);
}
