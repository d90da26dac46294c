import { ARGON2_LIMITS } from './password-argon2.js';
import { BCRYPT_LIMITS, BCRYPT_MAX_BYTES } from './password-bcrypt.js';
import { HASHING_ALGORITHMS, VERIFIABLE_ALGORITHMS } from './password-hashing.js';
import { SCRYPT_LIMITS } from './password-scrypt.js';
import { ESTIMATOR_MAX_LENGTH, STRENGTH_BY_SCORE } from './password-strength.js';

const range = (limit: { min: number; max: number; default: number }, what: string) => ({
  type: 'integer',
  minimum: limit.min,
  maximum: limit.max,
  description: `${what}; ${limit.min}..${limit.max}, default ${limit.default}.`,
});

/** Wire schemas of the password endpoints (CONTRACT §4). */
export const hashPasswordBody = {
  type: 'object',
  required: ['password'],
  additionalProperties: false,
  properties: {
    password: { type: 'string', minLength: 1, maxLength: 1024, description: `bcrypt: at most ${BCRYPT_MAX_BYTES} bytes in UTF-8 (longer is a 422, never truncated).` },
    algorithm: { type: 'string', enum: HASHING_ALGORITHMS, default: 'argon2id' },
    cost: range(BCRYPT_LIMITS.cost, 'bcrypt cost (log2 rounds)'),
    memory_kib: range(ARGON2_LIMITS.memoryKib, 'argon2 memory in KiB (at least 8 × parallelism)'),
    iterations: range(ARGON2_LIMITS.iterations, 'argon2 passes'),
    parallelism: range(ARGON2_LIMITS.parallelism, 'argon2 lanes'),
    log_n: range(SCRYPT_LIMITS.logN, 'scrypt log2(N); memory 128 · r · 2^log_n must stay within 256 MiB'),
    r: range(SCRYPT_LIMITS.r, 'scrypt block size'),
    p: range(SCRYPT_LIMITS.p, 'scrypt parallelism'),
  },
  examples: [{ password: 'correct horse battery staple', algorithm: 'argon2id' }, { password: 'hunter2', algorithm: 'bcrypt', cost: 12 }],
} as const;

export const hashPasswordResponse = {
  type: 'object',
  required: ['hash', 'algorithm'],
  properties: { hash: { type: 'string' }, algorithm: { type: 'string', enum: HASHING_ALGORITHMS } },
  examples: [{ hash: '$argon2id$v=19$m=19456,t=2,p=1$3tyL0Ckq1EMnK5bGRHH4xw$5c7kbkBHDBGxM1jNTY8mSKVsZmgScvOu0dpPH0pWCDo', algorithm: 'argon2id' }],
} as const;

export const verifyPasswordBody = {
  type: 'object',
  required: ['password', 'hash'],
  additionalProperties: false,
  properties: { password: { type: 'string', maxLength: 1024 }, hash: { type: 'string', minLength: 1, maxLength: 512 } },
  examples: [{ password: 'a', hash: '$2a$06$m0CrhHm10qJ3lXRY.5zDGO3rS2KdeeWLuGmsfGlMfOxih58VYVfxe' }],
} as const;

export const verifyPasswordResponse = {
  type: 'object',
  required: ['valid', 'algorithm'],
  properties: { valid: { type: 'boolean' }, algorithm: { type: 'string', enum: VERIFIABLE_ALGORITHMS } },
  examples: [{ valid: true, algorithm: 'bcrypt' }],
} as const;

export const strengthBody = {
  type: 'object',
  required: ['password'],
  additionalProperties: false,
  properties: {
    password: { type: 'string', minLength: 1, maxLength: 1024, description: `The estimator reads the first ${ESTIMATOR_MAX_LENGTH} characters.` },
    user_inputs: { type: 'array', maxItems: 100, items: { type: 'string', maxLength: 256 }, description: 'Words tied to the user (name, e-mail, site) that make a password weaker.' },
  },
  examples: [{ password: 'alice2024!', user_inputs: ['alice', 'alice@example.com'] }],
} as const;

export const strengthResponse = {
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
  examples: [{
    score: 2, strength: 'fair', entropy_bits: 23.25, crack_time_seconds: 1001, crack_time_display: '17 minutes',
    feedback: { warning: 'There should not be any personal or page related data.', suggestions: ['Add more words that are less common.'] },
    checks: { length: 10, lowercase: true, uppercase: false, digits: true, symbols: true },
  }],
} as const;

const flag = (description: string, value: boolean) => ({ type: 'boolean', default: value, description });

export const generateQuery = {
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

export const generateResponse = {
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
