import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { invalidField } from '../../errors.js';
import { DEFAULT_SCRYPT, decryptAesGcm, encryptAesGcm, KEY_BYTES, type KeySource, type ScryptParams } from './aes-gcm.js';
import { AES_ALGORITHM, PASSPHRASE_KDF, decryptSchema, encryptSchema, type DecryptBody, type EncryptBody, type WireScrypt } from './aes-gcm-schemas.js';
import { decodeBytes, encodeBytesOutput, type ByteEncoding } from './bytes.js';
import { postTool } from '../../http/tool-route.js';

function readScryptParams(wire: WireScrypt | undefined): ScryptParams {
  return wire ? { logN: wire.log_n, r: wire.r, p: wire.p } : DEFAULT_SCRYPT;
}

/** Exactly 64 hex digits: as base64 that would be 48 bytes, never an AES-256 key, so it can only be hex. */
const HEX_KEY = /^[0-9a-fA-F]{64}$/;

interface KeyFields {
  key?: string;
  key_encoding?: ByteEncoding;
  passphrase?: string;
  salt?: string;
  salt_encoding?: ByteEncoding;
  kdf?: string;
  kdf_params?: WireScrypt;
}

function readKeySource(b: KeyFields, allowGenerate: boolean): KeySource {
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
      const read = b.key_encoding ? `as ${b.key_encoding}` : hexLike ? `as base64 (a key is hex only when it is exactly 64 hex digits; as hex these ${compact.length} digits are ${compact.length / 2} bytes)` : 'as base64';
      throw invalidField('key', `must be ${KEY_BYTES} bytes (AES-256), got ${key.length} reading it ${read}`);
    }
    return { kind: 'key', key };
  }
  if (b.passphrase !== undefined) {
    const salt = b.salt === undefined ? undefined : decodeBytes(b.salt, b.salt_encoding ?? 'base64', 'salt');
    return { kind: 'passphrase', passphrase: b.passphrase, salt, scrypt: readScryptParams(b.kdf_params) };
  }
  if (!allowGenerate) throw invalidField('key', 'is required (or passphrase and salt)');
  return { kind: 'generate' };
}

/** `POST /v1/auth/encrypt` and `POST /v1/auth/decrypt` (AES-256-GCM). */
export default async function aesGcmRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  void ctx;
  postTool(app, '/v1/auth/encrypt', {
    area: 'auth',
    schema: encryptSchema,
  }, async (b: EncryptBody) => {
    const plaintext = decodeBytes(b.plaintext, b.plaintext_encoding, 'plaintext');
    const aad = b.aad === undefined ? undefined : decodeBytes(b.aad, b.aad_encoding, 'aad');
    const sealed = await encryptAesGcm(plaintext, readKeySource(b, true), aad);
    const out: Record<string, unknown> = {
      algorithm: AES_ALGORITHM,
      ciphertext: sealed.ciphertext.toString('base64'),
      iv: sealed.iv.toString('base64'),
      tag: sealed.tag.toString('base64'),
    };
    if (sealed.generatedKey) out.key = sealed.generatedKey.toString('base64');
    if (sealed.salt && sealed.scrypt) {
      out.salt = sealed.salt.toString('base64');
      out.kdf = PASSPHRASE_KDF;
      out.kdf_params = { log_n: sealed.scrypt.logN, r: sealed.scrypt.r, p: sealed.scrypt.p };
    }
    return out;
  });

  postTool(app, '/v1/auth/decrypt', {
    area: 'auth',
    schema: decryptSchema,
  }, async (b: DecryptBody) => {
    const sealed = {
      ciphertext: decodeBytes(b.ciphertext, b.ciphertext_encoding ?? 'base64', 'ciphertext'),
      iv: decodeBytes(b.iv, b.iv_encoding ?? 'base64', 'iv'),
      tag: decodeBytes(b.tag, b.tag_encoding ?? 'base64', 'tag'),
    };
    const aad = b.aad === undefined ? undefined : decodeBytes(b.aad, b.aad_encoding, 'aad');
    const plain = await decryptAesGcm(sealed, readKeySource(b, false), aad);
    if (b.plaintext_encoding === 'hex' || b.plaintext_encoding === 'base64') {
      return { plaintext: plain.toString(b.plaintext_encoding), plaintext_encoding: b.plaintext_encoding };
    }
    const { text, encoding } = encodeBytesOutput(plain);
    return { plaintext: text, plaintext_encoding: encoding };
  });
}
