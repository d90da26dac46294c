import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { generateKeys, type KeyType } from './random-key.js';
import { generateKeySchema } from './random-key-schemas.js';

interface Query { type: KeyType; length?: number; prefix?: string; count: number }

/** `GET /v1/auth/generate-key`. */
export default async function randomKeyRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  void ctx;
  app.get<{ Querystring: Query }>('/v1/auth/generate-key', {
    config: { area: 'auth' },
    schema: generateKeySchema,
  }, (request) => {
    const q = request.query;
    const result = generateKeys(q.type, { length: q.length, prefix: q.prefix, count: q.count });
    return { keys: result.keys, key: result.keys[0], type: result.type, length: result.length, entropy_bits: result.entropyBits };
  });
}
