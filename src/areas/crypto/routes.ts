import type { FastifyInstance } from 'fastify';
import type { Area } from '../../auth/plans.js';
import type { AppContext } from '../../context.js';
import { postTool } from '../../http/tool-route.js';
import { decryptAesGcm, encryptAesGcm } from './aes-gcm.js';
import { createCryptoWorkers } from './crypto-workers.js';
import { decryptSchema, encryptSchema } from './aes-gcm-schemas.js';
import { hashData, signHmac, verifyHmac } from './digest.js';
import { hashSchema, hmacSchema, hmacVerifySchema } from './digest-schemas.js';
import { decodeBase64, encodeBase64, transcode } from './encodings.js';
import { base64DecodeSchema, base64EncodeSchema, encodeSchema } from './encodings-schemas.js';
import { decodeJwt } from './jwt-decode.js';
import { generateKeypairSchema, jwtDecodeSchema, jwtGenerateSchema, jwtVerifySchema } from './jwt-schemas.js';
import { signJwt, type JwtGenerateInput } from './jwt-sign.js';
import { verifyJwt, type JwtVerifyInput } from './jwt-verify.js';
import { generateKeyPair } from './keypair.js';
import { hashPassword, measurePasswordStrength, verifyPassword } from './password.js';
import { generatePasswords, type GeneratePasswordInput } from './password-generate.js';
import { generatePasswordSchema, hashPasswordSchema, passwordStrengthSchema, verifyPasswordSchema } from './password-schemas.js';
import { generateKeys, type GenerateKeysInput } from './random-key.js';
import { generateKeySchema } from './random-key-schemas.js';
import { generateTotp, verifyTotpCode, type TotpGenerateInput, type TotpVerifyInput } from './totp.js';
import { totpGenerateSchema, totpVerifySchema } from './totp-schemas.js';

/** The plan area of every endpoint here (spec §4.4 calls it `auth`, after the URLs). */
const area: Area = 'auth';

/**
 * The cryptographic tools under /v1/auth (spec §4.4, CONTRACT §4): every endpoint, its schema and
 * the function that answers it, each a pure function of the parsed body or query. The folder is
 * named after what the tools are rather than their URL prefix, so that src/auth/ means only key
 * admission (keys, plans, credits, rate limits).
 */
export default async function cryptoRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  // Worker threads for the password estimator and the slow curves' key checks.
  const workers = createCryptoWorkers();
  app.addHook('onClose', () => workers.close());

  // Passwords: password.ts, password-generate.ts
  postTool(app, '/v1/auth/hash-password', { area, schema: hashPasswordSchema }, hashPassword);
  postTool(app, '/v1/auth/verify-password', { area, schema: verifyPasswordSchema }, (b: { password: string; hash: string }) =>
    verifyPassword(b.password, b.hash),
  );
  postTool(app, '/v1/auth/password-strength', { area, schema: passwordStrengthSchema }, (b: { password: string; user_inputs?: string[] }) =>
    measurePasswordStrength(b, workers),
  );
  app.get<{ Querystring: GeneratePasswordInput }>('/v1/auth/generate-password', { config: { area }, schema: generatePasswordSchema }, (r) =>
    generatePasswords(r.query),
  );

  // JWTs and key pairs: jwt-sign.ts, jwt-verify.ts, jwt-decode.ts, keypair.ts
  postTool(app, '/v1/auth/jwt-generate', { area, schema: jwtGenerateSchema }, (b: JwtGenerateInput) => signJwt(b, ctx.now(), workers));
  postTool(app, '/v1/auth/jwt-verify', { area, schema: jwtVerifySchema }, (b: JwtVerifyInput) => verifyJwt(b, ctx.now()));
  postTool(app, '/v1/auth/jwt-decode', { area, schema: jwtDecodeSchema }, (b: { token: string }) => decodeJwt(b.token));
  postTool(app, '/v1/auth/generate-keypair', { area, schema: generateKeypairSchema }, generateKeyPair);

  // One-time passwords (RFC 6238): totp.ts
  app.get<{ Querystring: TotpGenerateInput }>('/v1/auth/totp-generate', { config: { area }, schema: totpGenerateSchema }, (r) =>
    generateTotp(r.query),
  );
  postTool(app, '/v1/auth/totp-verify', { area, schema: totpVerifySchema }, (b: TotpVerifyInput) => verifyTotpCode(b, ctx.now()));

  // Random keys and AES-256-GCM: random-key.ts, aes-gcm.ts
  app.get<{ Querystring: GenerateKeysInput }>('/v1/auth/generate-key', { config: { area }, schema: generateKeySchema }, (r) =>
    generateKeys(r.query),
  );
  postTool(app, '/v1/auth/encrypt', { area, schema: encryptSchema }, encryptAesGcm);
  postTool(app, '/v1/auth/decrypt', { area, schema: decryptSchema }, decryptAesGcm);

  // Digests: digest.ts
  postTool(app, '/v1/auth/hash', { area, schema: hashSchema }, hashData);
  postTool(app, '/v1/auth/hmac', { area, schema: hmacSchema }, signHmac);
  postTool(app, '/v1/auth/hmac-verify', { area, schema: hmacVerifySchema }, verifyHmac);

  // Encodings: encodings.ts
  postTool(app, '/v1/auth/base64-encode', { area, schema: base64EncodeSchema }, encodeBase64);
  postTool(app, '/v1/auth/base64-decode', { area, schema: base64DecodeSchema }, decodeBase64);
  postTool(app, '/v1/auth/encode', { area, schema: encodeSchema }, transcode);
}
