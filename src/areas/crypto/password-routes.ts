import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { runInWorker } from './crypto-workers.js';
import { generatePasswords } from './password-generate.js';
import { hashPassword, verifyPassword, type PasswordAlgorithm } from './password-hashing.js';
import { generatePasswordSchema, hashPasswordSchema, passwordStrengthSchema, verifyPasswordSchema } from './password-schemas.js';
import { postTool } from '../../http/tool-route.js';

interface HashPasswordWire {
  password: string;
  algorithm: PasswordAlgorithm;
  cost?: number;
  memory_kib?: number;
  iterations?: number;
  parallelism?: number;
  log_n?: number;
  r?: number;
  p?: number;
}

interface GenerateQueryWire {
  length: number;
  count: number;
  uppercase: boolean;
  lowercase: boolean;
  digits: boolean;
  symbols: boolean;
  exclude_ambiguous: boolean;
  exclude: string;
}

/** hash-password, verify-password, password-strength, generate-password (CONTRACT §4). */
export default async function passwordRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  void ctx;

  postTool(app, '/v1/auth/hash-password', {
    area: 'auth',
    schema: hashPasswordSchema,
  }, async (b: HashPasswordWire) => {
    const options = { cost: b.cost, memoryKib: b.memory_kib, iterations: b.iterations, parallelism: b.parallelism, logN: b.log_n, r: b.r, p: b.p };
    return { hash: await hashPassword(b.password, b.algorithm, options), algorithm: b.algorithm };
  });

  postTool(app, '/v1/auth/verify-password', {
    area: 'auth',
    schema: verifyPasswordSchema,
  }, (b: { password: string; hash: string }) => {
    return verifyPassword(b.password, b.hash);
  });

  postTool(app, '/v1/auth/password-strength', {
    area: 'auth',
    schema: passwordStrengthSchema,
  }, async (b: { password: string; user_inputs?: string[] }) => {
    const s = await runInWorker('password-strength', b.password, b.user_inputs ?? []);
    return {
      score: s.score,
      strength: s.strength,
      entropy_bits: s.entropyBits,
      crack_time_seconds: s.crackTimeSeconds,
      crack_time_display: s.crackTimeDisplay,
      feedback: s.feedback,
      checks: s.checks,
    };
  });

  app.get('/v1/auth/generate-password', {
    config: { area: 'auth' },
    schema: generatePasswordSchema,
    handler: (request) => {
      const q = request.query as GenerateQueryWire;
      const classes = { uppercase: q.uppercase, lowercase: q.lowercase, digits: q.digits, symbols: q.symbols };
      const result = generatePasswords({ length: q.length, count: q.count, classes, excludeAmbiguous: q.exclude_ambiguous, exclude: q.exclude });
      return { passwords: result.passwords, length: q.length, count: q.count, entropy_bits: result.entropyBits };
    },
  });
}
