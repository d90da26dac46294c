import { errorResponses } from '../../http/schemas.js';
import { AES_ALGORITHM, PASSPHRASE_KDF } from './aes-gcm.js';
import { byteEncodingSchema } from './bytes.js';

/** Byte encodings for fields that are binary by nature (keys, IVs, tags, salts): no utf8. */
const binaryEncodingSchema = { type: 'string', enum: ['base64', 'hex', 'base64url'] } as const;

const kdfParams = {
  type: 'object',
  required: ['log_n', 'r', 'p'],
  properties: {
    log_n: { type: 'integer', minimum: 10, maximum: 16, description: 'scrypt cost N = 2^log_n (10..16).' },
    r: { type: 'integer', minimum: 1, maximum: 8, description: 'Block size 1..8 (memory 128 * N * r bytes: at most 64 MiB).' },
    p: { type: 'integer', minimum: 1, maximum: 4 },
  },
  additionalProperties: false,
} as const;

const keyProps = {
  key: {
    type: 'string',
    maxLength: 1024,
    description: '32 bytes: base64, or hex when it is exactly 64 hex digits, unless `key_encoding` says otherwise.',
  },
  key_encoding: binaryEncodingSchema,
  passphrase: { type: 'string', minLength: 1, maxLength: 1024 },
  aad: { type: 'string', description: 'Additional authenticated data (UTF-8 unless `aad_encoding`).' },
  aad_encoding: byteEncodingSchema,
} as const;

const encryptBody = {
  type: 'object',
  required: ['plaintext'],
  properties: {
    plaintext: { type: 'string', description: 'UTF-8 text unless `plaintext_encoding` says hex, base64 or base64url.' },
    plaintext_encoding: byteEncodingSchema,
    ...keyProps,
    kdf_params: { ...kdfParams, description: 'scrypt parameters with a passphrase (default log_n 15, r 8, p 1).' },
  },
  additionalProperties: false,
  examples: [
    { plaintext: 'attack at dawn', key: 'q83vEjRWeJCrze8SNFZ4kKvN7xI0VniQq83vEjRWeJA=' },
    { plaintext: 'attack at dawn', passphrase: 'correct horse battery staple', aad: 'user:42' },
  ],
} as const;

const encryptResponse = {
  type: 'object',
  required: ['algorithm', 'ciphertext', 'iv', 'tag'],
  properties: {
    algorithm: { type: 'string', enum: [AES_ALGORITHM] },
    ciphertext: { type: 'string' },
    iv: { type: 'string', description: '12 bytes, base64.' },
    tag: { type: 'string', description: '16 bytes, base64.' },
    key: { type: 'string', description: 'Only when no key or passphrase was sent: the generated key (base64). Keep it.' },
    salt: { type: 'string', description: 'Only with a passphrase (base64).' },
    kdf: { type: 'string', enum: [PASSPHRASE_KDF] },
    kdf_params: kdfParams,
  },
  examples: [{ algorithm: 'aes-256-gcm', ciphertext: 'pWb3j0bS2c5tQ0sV8Q4=', iv: 'r0XW3y2lXxq0bE8m', tag: 'u2Cw0hY4Nq1c7Zl3yQmGfA==' }],
} as const;

const decryptBody = {
  type: 'object',
  required: ['ciphertext', 'iv', 'tag'],
  properties: {
    ciphertext: { type: 'string' },
    ciphertext_encoding: binaryEncodingSchema,
    iv: { type: 'string', maxLength: 1024 },
    iv_encoding: binaryEncodingSchema,
    tag: { type: 'string', maxLength: 1024 },
    tag_encoding: binaryEncodingSchema,
    algorithm: { type: 'string', enum: [AES_ALGORITHM], description: 'Optional, as encrypt returns it; only `aes-256-gcm`.' },
    ...keyProps,
    salt: { type: 'string', maxLength: 1024, description: 'The salt returned by encrypt (base64).' },
    salt_encoding: binaryEncodingSchema,
    kdf: {
      type: 'string',
      enum: [PASSPHRASE_KDF],
      description: 'Optional, as encrypt returns it with a passphrase; only `scrypt`, only with `passphrase`.',
    },
    kdf_params: kdfParams,
    plaintext_encoding: { type: 'string', enum: ['utf8', 'hex', 'base64'] },
  },
  additionalProperties: false,
  examples: [
    {
      ciphertext: 'pWb3j0bS2c5tQ0sV8Q4=',
      iv: 'r0XW3y2lXxq0bE8m',
      tag: 'u2Cw0hY4Nq1c7Zl3yQmGfA==',
      key: 'q83vEjRWeJCrze8SNFZ4kKvN7xI0VniQq83vEjRWeJA=',
    },
    {
      algorithm: 'aes-256-gcm',
      ciphertext: 'pWb3j0bS2c5tQ0sV8Q4=',
      iv: 'r0XW3y2lXxq0bE8m',
      tag: 'u2Cw0hY4Nq1c7Zl3yQmGfA==',
      key: 'abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789',
    },
  ],
} as const;

const decryptResponse = {
  type: 'object',
  required: ['plaintext', 'plaintext_encoding'],
  properties: {
    plaintext: { type: 'string' },
    plaintext_encoding: { type: 'string', enum: ['utf8', 'hex', 'base64'] },
  },
  examples: [{ plaintext: 'attack at dawn', plaintext_encoding: 'utf8' }],
} as const;

/** `POST /v1/auth/encrypt` (AES-256-GCM, CONTRACT §4). */
export const encryptSchema = {
  operationId: 'encryptData',
  summary: 'Encrypt with AES-256-GCM (key, passphrase or a fresh key)',
  description:
    'Key source: `key` (32 bytes; without `key_encoding` it is hex when it is exactly 64 hex digits, which as base64 ' +
    'would be 48 bytes and never a valid key, and base64 otherwise; `key_encoding` base64, hex or base64url overrides), or `passphrase` ' +
    '(scrypt N=2^15, r=8, p=1 over a random 16-byte salt, computed off the main thread; `salt`, `kdf` and `kdf_params` are returned ' +
    'and must be sent back to decrypt), or neither: a fresh random key is generated and returned as `key` (nothing is stored). ' +
    'A random 12-byte IV is drawn per call; the tag is 16 bytes; `aad` is authenticated but not encrypted. All outputs are base64. ' +
    'The whole response can be sent to decrypt as it is, with `key` or `passphrase` (and `aad`) added.',
  body: encryptBody,
  response: { 200: encryptResponse },
} as const;

/** `POST /v1/auth/decrypt`. */
export const decryptSchema = {
  operationId: 'decryptData',
  summary: 'Decrypt AES-256-GCM ciphertext',
  description:
    '`ciphertext`, `iv` (12 bytes) and `tag` (16 bytes) are base64 unless `<field>_encoding` says hex or base64url. ' +
    'Send `key` (hex when exactly 64 hex digits and no `key_encoding`, else base64, as for encrypt), or `passphrase` + `salt` ' +
    "(+ `kdf_params` when not the defaults). Encrypt's response is accepted as it is: `algorithm` may be sent and must be `aes-256-gcm`, " +
    '`kdf` may be sent with a passphrase and must be `scrypt`; any other value, or `kdf`, `salt` or `kdf_params` without a passphrase, is 422. ' +
    'Any wrong key, AAD or tampered byte answers 422 ' +
    '`decryption_failed` without saying which. `plaintext` is UTF-8 when the bytes are valid UTF-8, else hex; ' +
    '`plaintext_encoding` in the request forces utf8, hex or base64 (utf8 on non-UTF-8 bytes falls back to hex).',
  body: decryptBody,
  response: { 200: decryptResponse, ...errorResponses('decryption_failed') },
} as const;
