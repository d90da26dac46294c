import { ARGON2_LIMITS } from './password-argon2.js';
import { BCRYPT_LIMITS, BCRYPT_MAX_BYTES } from './password-bcrypt.js';
import { HASHING_ALGORITHMS, VERIFIABLE_ALGORITHMS } from './password.js';
import { SCRYPT_LIMITS } from './password-scrypt.js';
import { ESTIMATOR_MAX_LENGTH, STRENGTH_BY_SCORE } from './password-strength.js';

const range = (limit: { min: number; max: number; default: number }, what: string) => ({
  type: 'integer',
  minimum: limit.min,
  maximum: limit.max,
  description: `${what}; ${limit.min}..${limit.max}, default ${limit.default}.`,
});

const hashPasswordBody = {
  type: 'object',
  required: ['password'],
  additionalProperties: false,
  properties: {
    password: {
      type: 'string',
      minLength: 1,
      maxLength: 1024,
      description: `bcrypt: at most ${BCRYPT_MAX_BYTES} bytes in UTF-8 (longer is a 422, never truncated).`,
    },
    algorithm: { type: 'string', enum: HASHING_ALGORITHMS, default: 'argon2id' },
    cost: range(BCRYPT_LIMITS.cost, 'bcrypt cost (log2 rounds)'),
    memory_kib: range(ARGON2_LIMITS.memoryKib, 'argon2 memory in KiB (at least 8 × parallelism)'),
    iterations: range(ARGON2_LIMITS.iterations, 'argon2 passes'),
    parallelism: range(ARGON2_LIMITS.parallelism, 'argon2 lanes'),
    log_n: range(SCRYPT_LIMITS.logN, 'scrypt log2(N); memory 128 · r · 2^log_n must stay within 256 MiB'),
    r: range(SCRYPT_LIMITS.r, 'scrypt block size'),
    p: range(SCRYPT_LIMITS.p, 'scrypt parallelism'),
  },
  examples: [
    { password: 'correct horse battery staple', algorithm: 'argon2id' },
    { password: 'hunter2', algorithm: 'bcrypt', cost: 12 },
  ],
} as const;

const hashPasswordResponse = {
  type: 'object',
  required: ['hash', 'algorithm'],
  properties: { hash: { type: 'string' }, algorithm: { type: 'string', enum: HASHING_ALGORITHMS } },
  examples: [
    { hash: '$argon2id$v=19$m=19456,t=2,p=1$3tyL0Ckq1EMnK5bGRHH4xw$5c7kbkBHDBGxM1jNTY8mSKVsZmgScvOu0dpPH0pWCDo', algorithm: 'argon2id' },
  ],
} as const;

const verifyPasswordBody = {
  type: 'object',
  required: ['password', 'hash'],
  additionalProperties: false,
  properties: { password: { type: 'string', maxLength: 1024 }, hash: { type: 'string', minLength: 1, maxLength: 512 } },
  examples: [{ password: 'a', hash: '$2a$06$m0CrhHm10qJ3lXRY.5zDGO3rS2KdeeWLuGmsfGlMfOxih58VYVfxe' }],
} as const;

const verifyPasswordResponse = {
  type: 'object',
  required: ['valid', 'algorithm'],
  properties: { valid: { type: 'boolean' }, algorithm: { type: 'string', enum: VERIFIABLE_ALGORITHMS } },
  examples: [{ valid: true, algorithm: 'bcrypt' }],
} as const;

const strengthBody = {
  type: 'object',
  required: ['password'],
  additionalProperties: false,
  properties: {
    password: {
      type: 'string',
      minLength: 1,
      maxLength: 1024,
      description: `The estimator reads the first ${ESTIMATOR_MAX_LENGTH} characters.`,
    },
    user_inputs: {
      type: 'array',
      maxItems: 100,
      items: { type: 'string', maxLength: 256 },
      description: 'Words tied to the user (name, e-mail, site) that make a password weaker.',
    },
  },
  examples: [{ password: 'alice2024!', user_inputs: ['alice', 'alice@example.com'] }],
} as const;

const strengthResponse = {
  type: 'object',
  required: ['score', 'strength', 'entropy_bits', 'crack_time_seconds', 'crack_time_display', 'feedback', 'checks'],
  properties: {
    score: { type: 'integer', minimum: 0, maximum: 4 },
    strength: { type: 'string', enum: STRENGTH_BY_SCORE },
    entropy_bits: { type: 'number', description: 'log2 of the estimated number of guesses.' },
    crack_time_seconds: { type: 'number', description: 'Offline attack on a slow hash, 10^4 guesses per second.' },
    crack_time_display: { type: 'string' },
    feedback: {
      type: 'object',
      required: ['warning', 'suggestions'],
      properties: { warning: { type: ['string', 'null'] }, suggestions: { type: 'array', items: { type: 'string' } } },
    },
    checks: {
      type: 'object',
      required: ['length', 'lowercase', 'uppercase', 'digits', 'symbols'],
      properties: {
        length: { type: 'integer' },
        lowercase: { type: 'boolean' },
        uppercase: { type: 'boolean' },
        digits: { type: 'boolean' },
        symbols: { type: 'boolean' },
      },
    },
  },
  examples: [
    {
      score: 2,
      strength: 'fair',
      entropy_bits: 23.25,
      crack_time_seconds: 1001,
      crack_time_display: '17 minutes',
      feedback: {
        warning: 'There should not be any personal or page related data.',
        suggestions: ['Add more words that are less common.'],
      },
      checks: { length: 10, lowercase: true, uppercase: false, digits: true, symbols: true },
    },
  ],
} as const;

const flag = (description: string, value: boolean) => ({ type: 'boolean', default: value, description });

const generateQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    length: { type: 'integer', minimum: 8, maximum: 128, default: 16 },
    count: { type: 'integer', minimum: 1, maximum: 50, default: 1 },
    uppercase: flag('A-Z', true),
    lowercase: flag('a-z', true),
    digits: flag('0-9', true),
    symbols: flag('!#$%&()*+,-./:;<=>?@[]^_{|}~', true),
    exclude_ambiguous: flag('Drop I l 1 | O 0 o.', false),
    exclude: { type: 'string', maxLength: 256, default: '', description: 'Characters never to use.' },
  },
  examples: [{ length: 20, count: 2, symbols: false, exclude_ambiguous: true }],
} as const;

const generateResponse = {
  type: 'object',
  required: ['passwords', 'length', 'count', 'entropy_bits'],
  properties: {
    passwords: { type: 'array', items: { type: 'string' } },
    length: { type: 'integer' },
    count: { type: 'integer' },
    entropy_bits: { type: 'number', description: 'Exact entropy of one password: log2 of how many qualifying passwords exist.' },
  },
  examples: [{ passwords: ['vQ7#tK2m!Rz9pX4w'], length: 16, count: 1, entropy_bits: 104.5 }],
} as const;

/** `POST /v1/auth/hash-password` (CONTRACT §4). */
export const hashPasswordSchema = {
  operationId: 'hashPassword',
  summary: 'Hash a password with argon2id, bcrypt or scrypt',
  description:
    'argon2id (default; OWASP parameters m=19456 KiB, t=2, p=1), bcrypt (`$2b$`, cost 4..15, default 12) or scrypt ' +
    '(PHC `$scrypt$ln=17,r=8,p=1$<salt>$<hash>`, unpadded base64, 16-byte salt, 32-byte key). Options of another ' +
    'algorithm are a 422, as is a bcrypt password over 72 UTF-8 bytes. Parameters are bounded so one request cannot ' +
    'exhaust memory (argon2 at most 256 MiB, scrypt at most 256 MiB). Hashing runs off the event loop.',
  body: hashPasswordBody,
  response: { 200: hashPasswordResponse },
} as const;

/** `POST /v1/auth/verify-password`. */
export const verifyPasswordSchema = {
  operationId: 'verifyPassword',
  summary: 'Verify a password against an argon2, bcrypt or scrypt hash',
  description:
    'The algorithm is read from the hash: `$argon2id$`/`$argon2i$`/`$argon2d$` PHC, `$2a$`/`$2b$`/`$2y$` bcrypt, ' +
    '`$scrypt$` PHC. An unrecognised or malformed hash, or one whose parameters exceed the hashing limits ' +
    '(argon2 m ≤ 262144, t ≤ 10, p ≤ 8; bcrypt cost 4..15; scrypt memory ≤ 256 MiB), is a 422. ' +
    'A bcrypt password over 72 bytes is a 422 rather than a truncated comparison.',
  body: verifyPasswordBody,
  response: { 200: verifyPasswordResponse },
} as const;

/** `POST /v1/auth/password-strength`. */
export const passwordStrengthSchema = {
  operationId: 'estimatePasswordStrength',
  summary: 'Estimate password strength (zxcvbn)',
  description:
    'zxcvbn-ts with the common and English dictionaries: `entropy_bits` is log2 of the estimated guesses, ' +
    '`crack_time_*` assume an offline attack on a slow hash (10^4 guesses/s). The estimator reads the first 128 ' +
    'characters; `checks` cover the whole password (`symbols` = anything not a letter or digit). Runs in a worker thread.',
  body: strengthBody,
  response: { 200: strengthResponse },
} as const;

/** `GET /v1/auth/generate-password`. */
export const generatePasswordSchema = {
  operationId: 'generatePassword',
  summary: 'Generate random passwords',
  description:
    'Characters come from a CSPRNG without modulo bias; each password is drawn uniformly over the enabled classes ' +
    'and redrawn until every enabled class appears, so `entropy_bits` (per password) is exact. Symbols are ' +
    '`!#$%&()*+,-./:;<=>?@[]^_{|}~`; `exclude_ambiguous` drops `Il1|O0o`. No class enabled, or `exclude` emptying ' +
    'an enabled class, is a 422.',
  querystring: generateQuery,
  response: { 200: generateResponse },
} as const;
