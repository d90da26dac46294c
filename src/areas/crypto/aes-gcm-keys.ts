import { randomBytes, scrypt } from 'node:crypto';
import { invalidField } from '../../errors.js';
import { decodeBytes, type ByteEncoding } from './bytes.js';

export const KEY_BYTES = 32;
const SALT_BYTES = 16;

/** scrypt parameters for passphrases: N = 2^15, r = 8, p = 1 (32 MiB, tens of ms, off the main thread). */
export interface ScryptParams {
  logN: number;
  r: number;
  p: number;
}
const DEFAULT_SCRYPT: ScryptParams = { logN: 15, r: 8, p: 1 };

/** Where the AES key comes from: raw bytes, a passphrase (+ salt), or nothing (generate one). */
export type KeySource =
  { kind: 'key'; key: Buffer } | { kind: 'passphrase'; passphrase: string; salt?: Buffer; scrypt: ScryptParams } | { kind: 'generate' };

export interface WireScrypt {
  log_n: number;
  r: number;
  p: number;
}

/** The key fields encrypt and decrypt share, as the wire names them. */
export interface KeyFields {
  key?: string;
  key_encoding?: ByteEncoding;
  passphrase?: string;
  salt?: string;
  salt_encoding?: ByteEncoding;
  kdf?: string;
  kdf_params?: WireScrypt;
}

/** Exactly 64 hex digits: as base64 that would be 48 bytes, never an AES-256 key, so it can only be hex. */
const HEX_KEY = /^[0-9a-fA-F]{64}$/;

/**
 * The key source the fields name: `key` (hex when exactly 64 hex digits and no `key_encoding`,
 * else base64), `passphrase` (+ `salt`, `kdf_params`), or, when `allowGenerate`, neither. Both, a
 * salt or KDF without a passphrase, or a key that is not 32 bytes is a 422 naming the field.
 *
 * @example
 *   readKeySource({ passphrase: 'correct horse' }, true) // { kind: 'passphrase', passphrase: 'correct horse', salt: undefined, scrypt: { logN: 15, r: 8, p: 1 } }
 */
export function readKeySource(b: KeyFields, allowGenerate: boolean): KeySource {
  if (b.key !== undefined && b.passphrase !== undefined) throw invalidField('passphrase', 'cannot be combined with key: send one of them');
  if (b.passphrase === undefined) {
    for (const field of ['salt', 'kdf', 'kdf_params'] as const) {
      if (b[field] !== undefined) throw invalidField(field, 'applies only with a passphrase');
    }
  }
  if (b.key !== undefined) {
    // Spaces and line breaks are layout (decodeBytes skips them), also when telling hex from base64.
    const compact = b.key.replace(/[ \t\r\n]+/g, '');
    const encoding = b.key_encoding ?? (HEX_KEY.test(compact) ? 'hex' : 'base64');
    const key = decodeBytes(compact, encoding, 'key');
    if (key.length !== KEY_BYTES) {
      // Say how the key was read: a short hex key is otherwise read as base64 without a word.
      const hexLike = b.key_encoding === undefined && /^(?:[0-9a-fA-F]{2})+$/.test(compact);
      const read = b.key_encoding
        ? `as ${b.key_encoding}`
        : hexLike
          ? `as base64 (a key is hex only when it is exactly 64 hex digits; as hex these ${compact.length} digits are ${compact.length / 2} bytes)`
          : 'as base64';
      throw invalidField('key', `must be ${KEY_BYTES} bytes (AES-256), got ${key.length} reading it ${read}`);
    }
    return { kind: 'key', key };
  }
  if (b.passphrase !== undefined) {
    const salt = b.salt === undefined ? undefined : decodeBytes(b.salt, b.salt_encoding ?? 'base64', 'salt');
    const scrypt = b.kdf_params ? { logN: b.kdf_params.log_n, r: b.kdf_params.r, p: b.kdf_params.p } : DEFAULT_SCRYPT;
    return { kind: 'passphrase', passphrase: b.passphrase, salt, scrypt };
  }
  if (!allowGenerate) throw invalidField('key', 'is required (or passphrase and salt)');
  return { kind: 'generate' };
}

/** Derive a 32-byte key from a passphrase with scrypt on libuv's thread pool. */
function deriveKey(passphrase: string, salt: Buffer, params: ScryptParams): Promise<Buffer> {
  const N = 2 ** params.logN;
  const options = { N, r: params.r, p: params.p, maxmem: 256 * N * params.r + 1024 * 1024 };
  return new Promise((resolve, reject) => {
    scrypt(passphrase.normalize('NFC'), salt, KEY_BYTES, options, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

/**
 * The AES key of a source, and what the caller must get back to decrypt: a generated key, or the
 * salt and scrypt parameters of a passphrase (a fresh 16-byte salt unless one was given).
 *
 * @example
 *   await resolveKey({ kind: 'generate' }) // { key: <Buffer ... 32 bytes>, generatedKey: <the same> }
 */
export async function resolveKey(source: KeySource): Promise<{ key: Buffer; generatedKey?: Buffer; salt?: Buffer; scrypt?: ScryptParams }> {
  if (source.kind === 'generate') {
    const key = randomBytes(KEY_BYTES);
    return { key, generatedKey: key };
  }
  if (source.kind === 'key') {
    if (source.key.length !== KEY_BYTES) throw invalidField('key', `must be ${KEY_BYTES} bytes (AES-256), got ${source.key.length}`);
    return { key: source.key };
  }
  const salt = source.salt ?? randomBytes(SALT_BYTES);
  return { key: await deriveKey(source.passphrase, salt, source.scrypt), salt, scrypt: source.scrypt };
}
