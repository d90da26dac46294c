import { byteEncodingSchema } from './bytes.js';
import { DIGEST_ENCODINGS, HASH_ALGORITHMS, HMAC_ALGORITHMS } from './digest.js';

const describeBytes = (description: string) => ({ type: 'string', description }) as const;
const encoding = { type: 'string', enum: [...DIGEST_ENCODINGS], default: 'hex' } as const;
const hmacAlgorithm = { type: 'string', enum: Object.keys(HMAC_ALGORITHMS), default: 'sha256' } as const;
const hmacInput = {
  data: describeBytes('Message (UTF-8 unless `data_encoding`).'),
  data_encoding: byteEncodingSchema,
  key: describeBytes('HMAC key (UTF-8 unless `key_encoding`).'),
  key_encoding: byteEncodingSchema,
  algorithm: hmacAlgorithm,
  encoding,
} as const;

const hashList = Object.entries(HASH_ALGORITHMS)
  .map(([name, row]) => `\`${name}\` (${row.bits} bits, ${row.standard})`)
  .join(', ');

/** `POST /v1/auth/hash` (CONTRACT §4). */
export const hashSchema = {
  operationId: 'hashData',
  summary: 'Hash data (MD5, SHA-1, SHA-2, SHA-3, BLAKE2)',
  description: `Algorithms: ${hashList}. SHA-3 is the FIPS 202 standard, not Keccak. Output in \`encoding\` hex (default, lowercase) or base64.`,
  body: {
    type: 'object',
    required: ['data'],
    properties: {
      data: describeBytes('Data to hash (UTF-8 unless `data_encoding`).'),
      data_encoding: byteEncodingSchema,
      algorithm: { type: 'string', enum: Object.keys(HASH_ALGORITHMS), default: 'sha256' },
      encoding,
    },
    additionalProperties: false,
    examples: [{ data: 'abc', algorithm: 'sha256' }],
  },
  response: {
    200: {
      type: 'object',
      required: ['hash', 'algorithm', 'encoding'],
      properties: { hash: { type: 'string' }, algorithm: { type: 'string' }, encoding: { type: 'string' } },
      examples: [{ hash: 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad', algorithm: 'sha256', encoding: 'hex' }],
    },
  },
} as const;

/** `POST /v1/auth/hmac`. */
export const hmacSchema = {
  operationId: 'signHmac',
  summary: 'HMAC signature (SHA-256, SHA-384, SHA-512)',
  description: 'RFC 2104 HMAC. `signature` is written in `encoding` (hex default, base64), which is what hmac-verify reads.',
  body: {
    type: 'object',
    required: ['data', 'key'],
    properties: hmacInput,
    additionalProperties: false,
    examples: [{ data: 'what do ya want for nothing?', key: 'Jefe', algorithm: 'sha256' }],
  },
  response: {
    200: {
      type: 'object',
      required: ['signature', 'algorithm', 'encoding'],
      properties: { signature: { type: 'string' }, algorithm: { type: 'string' }, encoding: { type: 'string' } },
      examples: [{ signature: '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843', algorithm: 'sha256', encoding: 'hex' }],
    },
  },
} as const;

/** `POST /v1/auth/hmac-verify`. */
export const hmacVerifySchema = {
  operationId: 'verifyHmac',
  summary: 'Verify an HMAC signature in constant time',
  description:
    '`signature` is read in `encoding` (hex default, case-insensitive; or base64); a leading `<algorithm>=` (as in ' +
    '`X-Hub-Signature-256: sha256=...`) is ignored. The comparison takes the same time wherever the signatures differ; a signature of the wrong length is `valid: false`, ' +
    'text that is not valid hex/base64 is 422.',
  body: {
    type: 'object',
    required: ['data', 'key', 'signature'],
    properties: { ...hmacInput, signature: { type: 'string', maxLength: 4096 } },
    additionalProperties: false,
    examples: [
      {
        data: 'what do ya want for nothing?',
        key: 'Jefe',
        algorithm: 'sha256',
        signature: '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
      },
    ],
  },
  response: {
    200: {
      type: 'object',
      required: ['valid', 'algorithm'],
      properties: { valid: { type: 'boolean' }, algorithm: { type: 'string' } },
      examples: [{ valid: true, algorithm: 'sha256' }],
    },
  },
} as const;
