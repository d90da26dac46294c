import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import digestRoutes from './digest-routes.js';
import encodingsRoutes from './encodings-routes.js';

/** Digests (digest-routes.ts: hash, hmac, hmac-verify) and encodings (encodings-routes.ts: base64, url, html, hex, ascii85). */
export default async function encodingRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await app.register(digestRoutes, ctx);
  await app.register(encodingsRoutes, ctx);
}
