import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { invalidField } from '../../errors.js';
import { decodeBytes, type ByteEncoding } from './bytes.js';
import { hashSchema, hmacSchema, hmacVerifySchema } from './digest-schemas.js';
import { computeHash, computeHmac, verifyHmac, type DigestEncoding, type HashAlgorithm, type HmacAlgorithm } from './digest.js';
import { postTool } from '../../http/tool-route.js';

interface HashBody { data: string; data_encoding?: ByteEncoding; algorithm: HashAlgorithm; encoding: DigestEncoding }
interface HmacBody { data: string; data_encoding?: ByteEncoding; key: string; key_encoding?: ByteEncoding; algorithm: HmacAlgorithm; encoding: DigestEncoding }
interface HmacVerifyBody extends HmacBody { signature: string }

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
    schema: hashSchema,
  }, (b: HashBody) => {
    const hash = computeHash(decodeBytes(b.data, b.data_encoding, 'data'), b.algorithm, b.encoding);
    return { hash, algorithm: b.algorithm, encoding: b.encoding };
  });

  postTool(app, '/v1/auth/hmac', {
    area: 'auth',
    schema: hmacSchema,
  }, (b: HmacBody) => {
    const signature = computeHmac(decodeBytes(b.data, b.data_encoding, 'data'), decodeBytes(b.key, b.key_encoding, 'key'), b.algorithm, b.encoding);
    return { signature, algorithm: b.algorithm, encoding: b.encoding };
  });

  postTool(app, '/v1/auth/hmac-verify', {
    area: 'auth',
    schema: hmacVerifySchema,
  }, (b: HmacVerifyBody) => {
    const signature = readSignature(b.signature, b.algorithm, b.encoding);
    const valid = verifyHmac(decodeBytes(b.data, b.data_encoding, 'data'), decodeBytes(b.key, b.key_encoding, 'key'), b.algorithm, signature);
    return { valid, algorithm: b.algorithm };
  });
}
