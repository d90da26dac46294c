import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { invalidField } from '../../errors.js';
import { byteEncodingSchema, decodeBytes, type ByteEncoding } from './bytes.js';
import { computeHash, computeHmac, DIGEST_ENCODINGS, HASH_ALGORITHMS, HMAC_ALGORITHMS, verifyHmac, type DigestEncoding, type HashAlgorithm, type HmacAlgorithm } from './digest.js';
import { postTool } from '../../http/tool-route.js';

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

interface HashBody { data: string; data_encoding?: ByteEncoding; algorithm: HashAlgorithm; encoding: DigestEncoding }
interface HmacBody { data: string; data_encoding?: ByteEncoding; key: string; key_encoding?: ByteEncoding; algorithm: HmacAlgorithm; encoding: DigestEncoding }
interface HmacVerifyBody extends HmacBody { signature: string }

const hashList = Object.entries(HASH_ALGORITHMS).map(([name, row]) => `\`${name}\` (${row.bits} bits, ${row.standard})`).join(', ');

/** Read a signature in `encoding`; `sha256=...`-style prefixes (GitHub, Shopify headers) are accepted. */
function readSignature(text: string, algorithm: HmacAlgorithm, encoding: DigestEncoding): Buffer {
  const prefix = /^(sha\d+)=/i.exec(text)?.[1];
  if (prefix !== undefined && prefix.toLowerCase() !== algorithm) {
    throw invalidField('signature', `starts with "${prefix}=", which names another algorithm than "${algorithm}" (set algorithm to match)`);
  }
  const bare = prefix !== undefined ? text.slice(prefix.length + 1) : text;
  return decodeBytes(bare, encoding, 'signature');
}

/** `POST /v1/auth/hash`, `/v1/auth/hmac`, `/v1/auth/hmac-verify`. */
export default async function digestRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  void ctx;
  postTool(app, '/v1/auth/hash', {
    area: 'auth',
    schema: {
      summary: 'Hash data (MD5, SHA-1, SHA-2, SHA-3, BLAKE2)',
      description: `Algorithms: ${hashList}. SHA-3 is the FIPS 202 standard, not Keccak. Output in \`encoding\` hex (default, lowercase) or base64.`,
      body: {
        type: 'object',
        required: ['data'],
        properties: { data: describeBytes('Data to hash (UTF-8 unless `data_encoding`).'), data_encoding: byteEncodingSchema, algorithm: { type: 'string', enum: Object.keys(HASH_ALGORITHMS), default: 'sha256' }, encoding },
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
    },
  }, (b: HashBody) => {
    const hash = computeHash(decodeBytes(b.data, b.data_encoding, 'data'), b.algorithm, b.encoding);
    return { hash, algorithm: b.algorithm, encoding: b.encoding };
  });

  postTool(app, '/v1/auth/hmac', {
    area: 'auth',
    schema: {
      summary: 'HMAC signature (SHA-256, SHA-384, SHA-512)',
      description: 'RFC 2104 HMAC. `signature` is written in `encoding` (hex default, base64), which is what hmac-verify reads.',
      body: { type: 'object', required: ['data', 'key'], properties: hmacInput, additionalProperties: false, examples: [{ data: 'what do ya want for nothing?', key: 'Jefe', algorithm: 'sha256' }] },
      response: {
        200: {
          type: 'object',
          required: ['signature', 'algorithm', 'encoding'],
          properties: { signature: { type: 'string' }, algorithm: { type: 'string' }, encoding: { type: 'string' } },
          examples: [{ signature: '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843', algorithm: 'sha256', encoding: 'hex' }],
        },
      },
    },
  }, (b: HmacBody) => {
    const signature = computeHmac(decodeBytes(b.data, b.data_encoding, 'data'), decodeBytes(b.key, b.key_encoding, 'key'), b.algorithm, b.encoding);
    return { signature, algorithm: b.algorithm, encoding: b.encoding };
  });

  postTool(app, '/v1/auth/hmac-verify', {
    area: 'auth',
    schema: {
      summary: 'Verify an HMAC signature in constant time',
      description: '`signature` is read in `encoding` (hex default, case-insensitive; or base64); a leading `<algorithm>=` (as in ' +
        '`X-Hub-Signature-256: sha256=...`) is ignored. The comparison takes the same time wherever the signatures differ; a signature of the wrong length is `valid: false`, ' +
        'text that is not valid hex/base64 is 422.',
      body: {
        type: 'object',
        required: ['data', 'key', 'signature'],
        properties: { ...hmacInput, signature: { type: 'string', maxLength: 4096 } },
        additionalProperties: false,
        examples: [{ data: 'what do ya want for nothing?', key: 'Jefe', algorithm: 'sha256', signature: '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843' }],
      },
      response: {
        200: { type: 'object', required: ['valid', 'algorithm'], properties: { valid: { type: 'boolean' }, algorithm: { type: 'string' } }, examples: [{ valid: true, algorithm: 'sha256' }] },
      },
    },
  }, (b: HmacVerifyBody) => {
    const signature = readSignature(b.signature, b.algorithm, b.encoding);
    const valid = verifyHmac(decodeBytes(b.data, b.data_encoding, 'data'), decodeBytes(b.key, b.key_encoding, 'key'), b.algorithm, signature);
    return { valid, algorithm: b.algorithm };
  });
}
