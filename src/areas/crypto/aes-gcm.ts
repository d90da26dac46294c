import { createCipheriv, createDecipheriv, randomBytes, scrypt } from 'node:crypto';
import { DevutilError, invalidField } from '../../errors.js';

export const KEY_BYTES = 32;
export const IV_BYTES = 12;
export const TAG_BYTES = 16;
export const SALT_BYTES = 16;

/** scrypt parameters for passphrases: N = 2^15, r = 8, p = 1 (32 MiB, tens of ms, off the main thread). */
export interface ScryptParams {
  logN: number;
  r: number;
  p: number;
}
export const DEFAULT_SCRYPT: ScryptParams = { logN: 15, r: 8, p: 1 };

/** Where the AES key comes from: raw bytes, a passphrase (+ salt), or nothing (generate one). */
export type KeySource =
  | { kind: 'key'; key: Buffer }
  | { kind: 'passphrase'; passphrase: string; salt?: Buffer; scrypt: ScryptParams }
  | { kind: 'generate' };

export interface Sealed {
  ciphertext: Buffer;
  iv: Buffer;
  tag: Buffer;
  /** Set when the key was generated here and must be returned to the caller. */
  generatedKey?: Buffer;
  salt?: Buffer;
  scrypt?: ScryptParams;
}

/**
 * Derive a 32-byte key from a passphrase with scrypt on libuv's thread pool.
 *
 * @example
 *   await deriveKey('correct horse', randomBytes(16), DEFAULT_SCRYPT) // <Buffer ... 32 bytes>
 */
export function deriveKey(passphrase: string, salt: Buffer, params: ScryptParams): Promise<Buffer> {
  const N = 2 ** params.logN;
  const options = { N, r: params.r, p: params.p, maxmem: 256 * N * params.r + 1024 * 1024 };
  return new Promise((resolve, reject) => {
    scrypt(passphrase.normalize('NFC'), salt, KEY_BYTES, options, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

async function resolveKey(source: KeySource): Promise<{ key: Buffer; generatedKey?: Buffer; salt?: Buffer; scrypt?: ScryptParams }> {
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

/**
 * AES-256-GCM encryption with a fresh random 96-bit IV and a 128-bit tag.
 *
 * @example
 *   await encryptAesGcm(Buffer.from('hi'), { kind: 'generate' }) // { ciphertext, iv, tag, generatedKey }
 */
export async function encryptAesGcm(plaintext: Buffer, source: KeySource, aad?: Buffer): Promise<Sealed> {
  const { key, ...extra } = await resolveKey(source);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  if (aad) cipher.setAAD(aad);
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return { ciphertext, iv, tag: cipher.getAuthTag(), ...extra };
}

/**
 * AES-256-GCM decryption. Any mismatch (key, IV, tag, AAD, ciphertext) is 422 `decryption_failed`;
 * the cause is deliberately not told apart.
 *
 * @example
 *   await decryptAesGcm({ ciphertext, iv, tag }, { kind: 'key', key }) // <Buffer 68 69>
 */
export async function decryptAesGcm(sealed: { ciphertext: Buffer; iv: Buffer; tag: Buffer }, source: KeySource, aad?: Buffer): Promise<Buffer> {
  if (sealed.iv.length !== IV_BYTES) throw invalidField('iv', `must be ${IV_BYTES} bytes, got ${sealed.iv.length}`);
  if (sealed.tag.length !== TAG_BYTES) throw invalidField('tag', `must be ${TAG_BYTES} bytes, got ${sealed.tag.length}`);
  if (source.kind === 'passphrase' && !source.salt) throw invalidField('salt', 'is required with a passphrase');
  const { key } = await resolveKey(source);
  const decipher = createDecipheriv('aes-256-gcm', key, sealed.iv, { authTagLength: TAG_BYTES });
  decipher.setAuthTag(sealed.tag);
  if (aad) decipher.setAAD(aad);
  try {
    return Buffer.concat([decipher.update(sealed.ciphertext), decipher.final()]);
  } catch (cause) {
    throw new DevutilError('decryption_failed', undefined, { cause });
  }
}
