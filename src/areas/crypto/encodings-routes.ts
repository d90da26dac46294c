import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { decodeBytes, encodeBytesOutput, type ByteEncoding } from './bytes.js';
import { decodeBase64, encodeBase64, transcode, type TextFormat } from './encodings.js';
import { base64DecodeSchema, base64EncodeSchema, encodeSchema } from './encodings-schemas.js';
import { postTool } from '../../http/tool-route.js';

interface Base64EncodeBody { data: string; data_encoding?: ByteEncoding; url_safe: boolean; padding: boolean }
interface Base64DecodeBody { data: string }
interface EncodeBody { data: string; data_encoding?: ByteEncoding; format: TextFormat; action: 'encode' | 'decode' }

/** `POST /v1/auth/base64-encode`, `/v1/auth/base64-decode`, `/v1/auth/encode`. */
export default async function encodingsRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  void ctx;
  postTool(app, '/v1/auth/base64-encode', {
    area: 'auth',
    schema: base64EncodeSchema,
  }, (b: Base64EncodeBody) => {
    const result = encodeBase64(decodeBytes(b.data, b.data_encoding, 'data'), { urlSafe: b.url_safe, padding: b.padding });
    return { result, url_safe: b.url_safe, padding: b.padding };
  });

  postTool(app, '/v1/auth/base64-decode', {
    area: 'auth',
    schema: base64DecodeSchema,
  }, (body: Base64DecodeBody) => {
    const { text, encoding } = encodeBytesOutput(decodeBase64(body.data, 'data'));
    return { result: text, result_encoding: encoding };
  });

  postTool(app, '/v1/auth/encode', {
    area: 'auth',
    schema: encodeSchema,
  }, (b: EncodeBody) => {
    const { text, encoding } = encodeBytesOutput(transcode(decodeBytes(b.data, b.data_encoding, 'data'), b.format, b.action));
    return { result: text, format: b.format, action: b.action, result_encoding: encoding };
  });
}
