import { invalidField } from '../../errors.js';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
/** Unpadded lengths a base32 text can have modulo 8 (RFC 4648 §6: 1, 3 and 6 are impossible). */
const VALID_REMAINDERS = new Set([0, 2, 4, 5, 7]);

/**
 * RFC 4648 §6 base32 without padding (what authenticator apps expect).
 *
 * @example
 *   encodeBase32(Buffer.from('foobar')) // 'MZXW6YTBOI'
 */
export function encodeBase32(bytes: Uint8Array, padding = false): string {
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = ((buffer << 8) | byte) & 0xffff;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(buffer >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += ALPHABET[(buffer << (5 - bits)) & 31];
  if (padding) while (out.length % 8 !== 0) out += '=';
  return out;
}

/**
 * RFC 4648 base32 decoding that is forgiving about form: case-insensitive, spaces ignored,
 * padding optional (but when present it must complete the last 8-character block).
 * Anything else is a 422 on `field`.
 *
 * @example
 *   decodeBase32('mzxw 6ytb oi', 'secret') // <Buffer 66 6f 6f 62 61 72>
 */
export function decodeBase32(text: string, field: string): Buffer {
  const compact = text.replace(/[ \t\r\n]/g, '').toUpperCase();
  const body = compact.replace(/=+$/, '');
  if (body.length !== compact.length && compact.length % 8 !== 0) throw invalidField(field, 'has wrong base32 padding');
  if (!/^[A-Z2-7]*$/.test(body)) throw invalidField(field, 'is not base32 (RFC 4648: letters A-Z and digits 2-7)');
  if (!VALID_REMAINDERS.has(body.length % 8)) throw invalidField(field, 'has an impossible base32 length');
  const out = Buffer.alloc(Math.floor((body.length * 5) / 8));
  let buffer = 0;
  let bits = 0;
  let index = 0;
  for (const char of body) {
    buffer = ((buffer << 5) | ALPHABET.indexOf(char)) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      out[index++] = (buffer >>> (bits - 8)) & 0xff;
      bits -= 8;
    }
  }
  return out;
}
