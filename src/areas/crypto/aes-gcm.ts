import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { DevutilError, invalidField } from '../../errors.js';
import { readKeySource, resolveKey, type KeyFields, type WireScrypt } from './aes-gcm-keys.js';
import { decodeBytes, encodeBytesOutput, type ByteEncoding } from './bytes.js';

/** The one cipher: encrypt returns it as `algorithm`, decrypt accepts it back. */
export const AES_ALGORITHM = 'aes-256-gcm';
/** The one passphrase KDF: encrypt returns it as `kdf`, decrypt accepts it back. */
export const PASSPHRASE_KDF = 'scrypt';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export interface EncryptInput extends KeyFields {
  plaintext: string;
  plaintext_encoding?: ByteEncoding;
  aad?: string;
  aad_encoding?: ByteEncoding;
}

export interface DecryptInput extends KeyFields {
  algorithm?: typeof AES_ALGORITHM;
  kdf?: typeof PASSPHRASE_KDF;
  ciphertext: string;
  ciphertext_encoding?: ByteEncoding;
  iv: string;
  iv_encoding?: ByteEncoding;
  tag: string;
  tag_encoding?: ByteEncoding;
  aad?: string;
  aad_encoding?: ByteEncoding;
  plaintext_encoding?: 'utf8' | 'hex' | 'base64';
}

export interface Encrypted {
  algorithm: typeof AES_ALGORITHM;
  ciphertext: string;
  iv: string;
  tag: string;
  /** Only when the key was generated here: the caller must keep it. */
  key?: string;
  salt?: string;
  kdf?: typeof PASSPHRASE_KDF;
  kdf_params?: WireScrypt;
}

/**
 * `POST /v1/auth/encrypt`: AES-256-GCM with a fresh random 96-bit IV and a 128-bit tag, under a
 * key, a passphrase (scrypt) or a key generated here; every output is base64, and the answer can
 * be sent back to decrypt as it is.
 *
 * @example
 *   await encryptAesGcm({ plaintext: 'hi' }) // { algorithm: 'aes-256-gcm', ciphertext: '...', iv: '...', tag: '...', key: '...' }
 */
export async function encryptAesGcm(input: EncryptInput): Promise<Encrypted> {
  const plaintext = decodeBytes(input.plaintext, input.plaintext_encoding, 'plaintext');
  const aad = input.aad === undefined ? undefined : decodeBytes(input.aad, input.aad_encoding, 'aad');
  const { key, generatedKey, salt, scrypt } = await resolveKey(readKeySource(input, true));
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  if (aad) cipher.setAAD(aad);
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  const out: Encrypted = {
    algorithm: AES_ALGORITHM,
    ciphertext: ciphertext.toString('base64'),
    iv: iv.toString('base64'),
    tag: cipher.getAuthTag().toString('base64'),
  };
  if (generatedKey) out.key = generatedKey.toString('base64');
  if (salt && scrypt) {
    out.salt = salt.toString('base64');
    out.kdf = PASSPHRASE_KDF;
    out.kdf_params = { log_n: scrypt.logN, r: scrypt.r, p: scrypt.p };
  }
  return out;
}

/**
 * `POST /v1/auth/decrypt`: AES-256-GCM decryption. Any mismatch (key, IV, tag, AAD, ciphertext)
 * is 422 `decryption_failed`; the cause is deliberately not told apart. The plaintext is UTF-8
 * when it is valid UTF-8, else hex, unless `plaintext_encoding` asks for hex or base64.
 *
 * @example
 *   await decryptAesGcm({ ciphertext, iv, tag, key }) // { plaintext: 'hi', plaintext_encoding: 'utf8' }
 */
export async function decryptAesGcm(input: DecryptInput): Promise<{ plaintext: string; plaintext_encoding: 'utf8' | 'hex' | 'base64' }> {
  const ciphertext = decodeBytes(input.ciphertext, input.ciphertext_encoding ?? 'base64', 'ciphertext');
  const iv = decodeBytes(input.iv, input.iv_encoding ?? 'base64', 'iv');
  const tag = decodeBytes(input.tag, input.tag_encoding ?? 'base64', 'tag');
  const aad = input.aad === undefined ? undefined : decodeBytes(input.aad, input.aad_encoding, 'aad');
  const source = readKeySource(input, false);
  if (iv.length !== IV_BYTES) throw invalidField('iv', `must be ${IV_BYTES} bytes, got ${iv.length}`);
  if (tag.length !== TAG_BYTES) throw invalidField('tag', `must be ${TAG_BYTES} bytes, got ${tag.length}`);
  if (source.kind === 'passphrase' && !source.salt) throw invalidField('salt', 'is required with a passphrase');
  const { key } = await resolveKey(source);
  const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  decipher.setAuthTag(tag);
  if (aad) decipher.setAAD(aad);
  let plain: Buffer;
  try {
    plain = Buffer.concat([decipher.update(ciphertext), decipher.final()]);
  } catch (cause) {
    throw new DevutilError('decryption_failed', undefined, { cause });
  }
  if (input.plaintext_encoding === 'hex' || input.plaintext_encoding === 'base64') {
    return { plaintext: plain.toString(input.plaintext_encoding), plaintext_encoding: input.plaintext_encoding };
  }
  const { text, encoding } = encodeBytesOutput(plain);
  return { plaintext: text, plaintext_encoding: encoding };
}
