import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { invalidField } from '../../errors.js';
import { runCpuBound } from './crypto-workers.js';

/**
 * scrypt bounds. Memory is 128 · r · 2^ln bytes, capped at {@link SCRYPT_MAX_MEMORY} whatever
 * the combination; the same bounds apply to hashes offered to verify.
 */
export const SCRYPT_LIMITS = {
  logN: { min: 1, max: 20, default: 17 },
  r: { min: 1, max: 32, default: 8 },
  p: { min: 1, max: 16, default: 1 },
} as const;
export const SCRYPT_MAX_MEMORY = 256 * 1024 * 1024;

export interface ScryptParams {
  logN: number;
  r: number;
  p: number;
}

const SALT_BYTES = 16;
const KEY_BYTES = 32;
const PHC = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,3}),p=(\d{1,3})\$([A-Za-z0-9+/]{2,})\$([A-Za-z0-9+/]{22,})$/;

function deriveKey(password: string, salt: Buffer, length: number, params: ScryptParams, field: string): Promise<Buffer> {
  const memory = 128 * params.r * 2 ** params.logN;
  if (memory > SCRYPT_MAX_MEMORY) {
    throw invalidField(field, `needs ${memory / 2 ** 20} MiB (128 · r · 2^log_n); the limit is ${SCRYPT_MAX_MEMORY / 2 ** 20} MiB`);
  }
  const options: ScryptOptions = { N: 2 ** params.logN, r: params.r, p: params.p, maxmem: SCRYPT_MAX_MEMORY + 2 ** 20 };
  return runCpuBound(
    () =>
      new Promise((resolve, reject) => {
        scrypt(password, salt, length, options, (err, key) => (err ? reject(invalidField(field, err.message)) : resolve(key)));
      }),
  );
}

function toB64(bytes: Buffer): string {
  return bytes.toString('base64').replace(/=+$/, '');
}

/**
 * scrypt PHC string (`$scrypt$ln=17,r=8,p=1$<salt>$<hash>`, unpadded base64) with a 16-byte
 * salt and a 32-byte key; node:crypto runs it on the libuv thread pool.
 *
 * @example
 *   await hashScrypt('hunter2', { logN: 17, r: 8, p: 1 }) // '$scrypt$ln=17,r=8,p=1$...$...'
 */
export async function hashScrypt(password: string, params: ScryptParams): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await deriveKey(password, salt, KEY_BYTES, params, 'log_n');
  return `$scrypt$ln=${params.logN},r=${params.r},p=${params.p}$${toB64(salt)}$${toB64(key)}`;
}

/**
 * Check a password against a scrypt PHC string, in constant time.
 *
 * @example
 *   await verifyScrypt('hunter2', '$scrypt$ln=17,r=8,p=1$...$...') // true
 */
export async function verifyScrypt(password: string, phc: string): Promise<boolean> {
  const match = PHC.exec(phc);
  if (!match) throw invalidField('hash', 'is not a valid scrypt PHC string ($scrypt$ln=..,r=..,p=..$salt$hash)');
  const params = { logN: Number(match[1]), r: Number(match[2]), p: Number(match[3]) };
  for (const [name, limit] of Object.entries(SCRYPT_LIMITS)) {
    const value = params[name as keyof ScryptParams];
    if (value < limit.min || value > limit.max)
      throw invalidField('hash', `has scrypt ${name} ${value}, outside ${limit.min}..${limit.max}`);
  }
  const salt = Buffer.from(match[4], 'base64');
  const expected = Buffer.from(match[5], 'base64');
  if (expected.length > 128) throw invalidField('hash', 'has a scrypt key longer than 128 bytes');
  const actual = await deriveKey(password, salt, expected.length, params, 'hash');
  return timingSafeEqual(actual, expected);
}
