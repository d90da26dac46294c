import { randomBytes, randomUUID } from 'node:crypto';
import { BASE62, randomString } from '../../lib/ids.js';

/** nanoid's own URL-safe alphabet (its `urlAlphabet`): A-Z, a-z, 0-9, `_` and `-`, 64 characters, 6 bits each. */
const NANOID_ALPHABET = 'useandom-26T198340PX75pxJACKVERYMINDBUSHWOLF_GQZbfghjklqvwyzrict';
if (new Set(NANOID_ALPHABET).size !== 64) throw new Error('the nanoid alphabet must hold 64 distinct characters');

/** Key kinds of `generate-key`: what `length` means, its default, and how one key is made. */
export const KEY_TYPES = {
  api_key: {
    lengthUnit: 'characters',
    defaultLength: 32,
    defaultPrefix: 'dk_',
    bitsPerUnit: Math.log2(62),
    make: (n: number) => randomString(n, BASE62),
  },
  uuid: { lengthUnit: 'fixed', defaultLength: 36, defaultPrefix: '', bitsPerUnit: 122 / 36, make: () => randomUUID() },
  nanoid: {
    lengthUnit: 'characters',
    defaultLength: 21,
    defaultPrefix: '',
    bitsPerUnit: 6,
    make: (n: number) => randomString(n, NANOID_ALPHABET),
  },
  secret: {
    lengthUnit: 'bytes',
    defaultLength: 32,
    defaultPrefix: '',
    bitsPerUnit: 8,
    make: (n: number) => randomBytes(n).toString('base64url'),
  },
  hex: { lengthUnit: 'bytes', defaultLength: 32, defaultPrefix: '', bitsPerUnit: 8, make: (n: number) => randomBytes(n).toString('hex') },
} as const;
export type KeyType = keyof typeof KEY_TYPES;

/** The query of `generate-key`, as the wire names it. */
export interface GenerateKeysInput {
  type: KeyType;
  length?: number;
  prefix?: string;
  count: number;
}

export interface GeneratedKeys {
  keys: string[];
  /** The first of `keys`. */
  key: string;
  type: KeyType;
  length: number;
  entropy_bits: number;
}

/**
 * `GET /v1/auth/generate-key`: `count` random keys of one type from a CSPRNG (rejection sampling
 * for alphabets, so no modulo bias). `length` is ignored for `uuid`; `prefix` (default `dk_` for
 * `api_key`) is prepended.
 *
 * @example
 *   generateKeys({ type: 'nanoid', count: 2 }) // { keys: ['V1StGXR8_Z5jdHi6B-myT', '...'], key: 'V1St...', type: 'nanoid', length: 21, entropy_bits: 126 }
 */
export function generateKeys(options: GenerateKeysInput): GeneratedKeys {
  const row = KEY_TYPES[options.type];
  const length = row.lengthUnit === 'fixed' ? row.defaultLength : (options.length ?? row.defaultLength);
  const prefix = options.prefix ?? row.defaultPrefix;
  const keys = Array.from({ length: options.count }, () => prefix + row.make(length));
  return { keys, key: keys[0], type: options.type, length, entropy_bits: Math.floor(length * row.bitsPerUnit) };
}
