import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { runInWorker } from './crypto-workers.js';
import { generatePasswords } from './password-generate.js';
import { hashPassword, verifyPassword, type PasswordAlgorithm } from './password-hashing.js';
import {
  generateQuery,
  generateResponse,
  hashPasswordBody,
  hashPasswordResponse,
  strengthBody,
  strengthResponse,
  verifyPasswordBody,
  verifyPasswordResponse,
} from './password-schemas.js';
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
    schema: {
      summary: 'Hash a password with argon2id, bcrypt or scrypt',
      description:
        'argon2id (default; OWASP parameters m=19456 KiB, t=2, p=1), bcrypt (`$2b$`, cost 4..15, default 12) or scrypt ' +
        '(PHC `$scrypt$ln=17,r=8,p=1$<salt>$<hash>`, unpadded base64, 16-byte salt, 32-byte key). Options of another ' +
        'algorithm are a 422, as is a bcrypt password over 72 UTF-8 bytes. Parameters are bounded so one request cannot ' +
        'exhaust memory (argon2 at most 256 MiB, scrypt at most 256 MiB). Hashing runs off the event loop.',
      body: hashPasswordBody,
      response: { 200: hashPasswordResponse },
    },
  }, async (b: HashPasswordWire) => {
    const options = { cost: b.cost, memoryKib: b.memory_kib, iterations: b.iterations, parallelism: b.parallelism, logN: b.log_n, r: b.r, p: b.p };
    return { hash: await hashPassword(b.password, b.algorithm, options), algorithm: b.algorithm };
  });

  postTool(app, '/v1/auth/verify-password', {
    area: 'auth',
    schema: {
      summary: 'Verify a password against an argon2, bcrypt or scrypt hash',
      description:
        'The algorithm is read from the hash: `$argon2id$`/`$argon2i$`/`$argon2d$` PHC, `$2a$`/`$2b$`/`$2y$` bcrypt, ' +
        '`$scrypt$` PHC. An unrecognised or malformed hash, or one whose parameters exceed the hashing limits ' +
        '(argon2 m ≤ 262144, t ≤ 10, p ≤ 8; bcrypt cost 4..15; scrypt memory ≤ 256 MiB), is a 422. ' +
        'A bcrypt password over 72 bytes is a 422 rather than a truncated comparison.',
      body: verifyPasswordBody,
      response: { 200: verifyPasswordResponse },
    },
  }, (b: { password: string; hash: string }) => {
    return verifyPassword(b.password, b.hash);
  });

  postTool(app, '/v1/auth/password-strength', {
    area: 'auth',
    schema: {
      summary: 'Estimate password strength (zxcvbn)',
      description:
        'zxcvbn-ts with the common and English dictionaries: `entropy_bits` is log2 of the estimated guesses, ' +
        '`crack_time_*` assume an offline attack on a slow hash (10^4 guesses/s). The estimator reads the first 128 ' +
        'characters; `checks` cover the whole password (`symbols` = anything not a letter or digit). Runs in a worker thread.',
      body: strengthBody,
      response: { 200: strengthResponse },
    },
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
    schema: {
      summary: 'Generate random passwords',
      description:
        'Characters come from a CSPRNG without modulo bias; each password is drawn uniformly over the enabled classes ' +
        'and redrawn until every enabled class appears, so `entropy_bits` (per password) is exact. Symbols are ' +
        '`!#$%&()*+,-./:;<=>?@[]^_{|}~`; `exclude_ambiguous` drops `Il1|O0o`. No class enabled, or `exclude` emptying ' +
        'an enabled class, is a 422.',
      querystring: generateQuery,
      response: { 200: generateResponse },
    },
    handler: (request) => {
      const q = request.query as GenerateQueryWire;
      const classes = { uppercase: q.uppercase, lowercase: q.lowercase, digits: q.digits, symbols: q.symbols };
      const result = generatePasswords({ length: q.length, count: q.count, classes, excludeAmbiguous: q.exclude_ambiguous, exclude: q.exclude });
      return { passwords: result.passwords, length: q.length, count: q.count, entropy_bits: result.entropyBits };
    },
  });
}
