import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import aesGcmRoutes from './aes-gcm-routes.js';
import randomKeyRoutes from './random-key-routes.js';
import totpRoutes from './totp-routes.js';

/** Secrets: TOTP (totp-routes.ts), random keys (random-key-routes.ts), AES-256-GCM (aes-gcm-routes.ts). */
export default async function secretRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await app.register(totpRoutes, ctx); // GET totp-generate, POST totp-verify
  await app.register(randomKeyRoutes, ctx); // GET generate-key
  await app.register(aesGcmRoutes, ctx); // POST encrypt, decrypt
}
