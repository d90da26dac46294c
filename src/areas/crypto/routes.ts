import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import encodingRoutes from './encoding-routes.js';
import passwordRoutes from './password-routes.js';
import secretRoutes from './secret-routes.js';
import tokenRoutes from './token-routes.js';

/** Cryptographic utilities under /v1/auth (spec §4.4, CONTRACT §4). */
export default async function cryptoRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await app.register(passwordRoutes, ctx); // hash/verify-password, password-strength, generate-password
  await app.register(tokenRoutes, ctx); // jwt-generate/verify/decode, generate-keypair
  await app.register(secretRoutes, ctx); // totp-generate/verify, generate-key, encrypt/decrypt
  await app.register(encodingRoutes, ctx); // hash, hmac, hmac-verify, base64-encode/decode, encode
}
