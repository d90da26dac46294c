import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { invalidField } from '../../errors.js';
import { decodeBase32 } from './base32.js';
import { createTotpSetup, verifyTotp, type TotpAlgorithm } from './totp.js';
import { totpGenerateSchema, totpVerifySchema } from './totp-schemas.js';
import { postTool } from '../../http/tool-route.js';

interface GenerateQuery { issuer: string; account: string; digits: 6 | 8; period: number; algorithm: TotpAlgorithm }
interface VerifyBody { secret: string; code: string | number; digits: 6 | 8; period: number; algorithm: TotpAlgorithm; window: number; timestamp?: number }

/** `GET /v1/auth/totp-generate` and `POST /v1/auth/totp-verify` (RFC 6238). */
export default async function totpRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.get<{ Querystring: GenerateQuery }>('/v1/auth/totp-generate', {
    config: { area: 'auth' },
    schema: totpGenerateSchema,
  }, async (request) => {
    const { issuer, account, digits, period, algorithm } = request.query;
    const setup = await createTotpSetup(issuer, account, { digits, period, algorithm });
    return { secret: setup.secret, otpauth_uri: setup.otpauthUri, qr_code: setup.qrCode, digits, period, algorithm, issuer, account };
  });

  postTool(app, '/v1/auth/totp-verify', {
    area: 'auth',
    schema: totpVerifySchema,
  }, (b: VerifyBody) => {
    const secret = decodeBase32(b.secret, 'secret');
    if (secret.length === 0) throw invalidField('secret', 'decodes to no bytes');
    const code = typeof b.code === 'number' ? String(b.code).padStart(b.digits, '0') : b.code.replace(/ /g, '');
    const timestamp = b.timestamp ?? Math.floor(ctx.now() / 1000);
    return verifyTotp(secret, code, timestamp, { digits: b.digits, period: b.period, algorithm: b.algorithm }, b.window);
  });
}
