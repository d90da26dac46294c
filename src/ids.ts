import { randomBytes } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * `length` characters from `alphabet`, drawn from a CSPRNG by rejection sampling (no modulo bias).
 *
 * @example
 *   randomString(32, BASE62) // 'q3ZP0...'
 */
export function randomString(length: number, alphabet: string = BASE62): string {
  if (alphabet.length < 2 || alphabet.length > 256) throw new RangeError('alphabet must have 2..256 characters');
  const limit = 256 - (256 % alphabet.length);
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(Math.ceil((length - out.length) * 1.3) + 8)) {
      if (byte < limit) out += alphabet[byte % alphabet.length];
      if (out.length === length) break;
    }
  }
  return out;
}

export { BASE62 };

/**
 * A public identifier: prefix + 22 base62 characters (131 bits), URL-safe.
 *
 * @example
 *   newId('bin_') // 'bin_4fQ9...'
 */
export function newId(prefix: 'bin_' | 'req_' | 'mock_' | 'key_'): string {
  return prefix + randomString(22);
}
