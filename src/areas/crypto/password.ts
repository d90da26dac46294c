import { invalidField } from '../../errors.js';
import type { CryptoWorkers } from './crypto-workers.js';
import { ARGON2_LIMITS, hashArgon2id, verifyArgon2 } from './password-argon2.js';
import { BCRYPT_LIMITS, hashBcrypt, verifyBcrypt } from './password-bcrypt.js';
import { SCRYPT_LIMITS, hashScrypt, verifyScrypt } from './password-scrypt.js';

/** Options of `hash-password`, as the wire names them; each algorithm reads its own and refuses the others'. */
export interface HashPasswordOptions {
  cost?: number;
  memory_kib?: number;
  iterations?: number;
  parallelism?: number;
  log_n?: number;
  r?: number;
  p?: number;
}

/** The body of `hash-password`. */
export interface HashPasswordInput extends HashPasswordOptions {
  password: string;
  algorithm: PasswordAlgorithm;
}

/** Every option, in the order a misplaced one is reported. */
const OPTION_NAMES: (keyof HashPasswordOptions)[] = ['cost', 'memory_kib', 'iterations', 'parallelism', 'log_n', 'r', 'p'];

interface PasswordAlgorithmRow {
  /** Recognises this algorithm's hash strings. */
  detect: RegExp;
  verify(password: string, hash: string): Promise<boolean>;
  /** Absent for formats the service only verifies (argon2i, argon2d). */
  hash?: (password: string, o: HashPasswordOptions) => Promise<string>;
  /** Options `hash` reads; the others are refused. */
  options?: (keyof HashPasswordOptions)[];
}

/** Password algorithms, one row each: how to detect, verify and (for three of them) hash. All run off the main thread. */
const PASSWORD_ALGORITHMS = {
  argon2id: {
    detect: /^\$argon2id\$/,
    verify: verifyArgon2,
    options: ['memory_kib', 'iterations', 'parallelism'],
    hash: (password, o) =>
      hashArgon2id(password, {
        memoryKib: o.memory_kib ?? ARGON2_LIMITS.memoryKib.default,
        iterations: o.iterations ?? ARGON2_LIMITS.iterations.default,
        parallelism: o.parallelism ?? ARGON2_LIMITS.parallelism.default,
      }),
  },
  argon2i: { detect: /^\$argon2i\$/, verify: verifyArgon2 },
  argon2d: { detect: /^\$argon2d\$/, verify: verifyArgon2 },
  bcrypt: {
    detect: /^\$2[aby]\$/,
    verify: verifyBcrypt,
    options: ['cost'],
    hash: (password, o) => hashBcrypt(password, o.cost ?? BCRYPT_LIMITS.cost.default),
  },
  scrypt: {
    detect: /^\$scrypt\$/,
    verify: verifyScrypt,
    options: ['log_n', 'r', 'p'],
    hash: (password, o) =>
      hashScrypt(password, {
        logN: o.log_n ?? SCRYPT_LIMITS.logN.default,
        r: o.r ?? SCRYPT_LIMITS.r.default,
        p: o.p ?? SCRYPT_LIMITS.p.default,
      }),
  },
} satisfies Record<string, PasswordAlgorithmRow>;

type AlgorithmName = keyof typeof PASSWORD_ALGORITHMS;
const ROWS = Object.entries(PASSWORD_ALGORITHMS) as [AlgorithmName, PasswordAlgorithmRow][];

/** Algorithms `hash-password` offers. */
export const HASHING_ALGORITHMS = ['argon2id', 'bcrypt', 'scrypt'] as const satisfies AlgorithmName[];
export type PasswordAlgorithm = (typeof HASHING_ALGORITHMS)[number];

/** Names `verify-password` can answer in `algorithm`. */
export const VERIFIABLE_ALGORITHMS = ROWS.map(([name]) => name);

/**
 * `POST /v1/auth/hash-password`: hash with argon2id, bcrypt or scrypt; an option of another
 * algorithm is a 422.
 *
 * @example
 *   await hashPassword({ password: 'hunter2', algorithm: 'bcrypt', cost: 10 }) // { hash: '$2b$10$...', algorithm: 'bcrypt' }
 */
export async function hashPassword(input: HashPasswordInput): Promise<{ hash: string; algorithm: PasswordAlgorithm }> {
  const row: PasswordAlgorithmRow = PASSWORD_ALGORITHMS[input.algorithm];
  for (const option of OPTION_NAMES) {
    if (input[option] !== undefined && !row.options?.includes(option)) throw invalidField(option, `does not apply to ${input.algorithm}`);
  }
  return { hash: await row.hash!(input.password, input), algorithm: input.algorithm };
}

/**
 * `POST /v1/auth/verify-password`: check a password, the algorithm detected from the hash; an unrecognised hash is a 422.
 *
 * @example
 *   await verifyPassword('a', '$2a$06$m0CrhHm10qJ3lXRY.5zDGO3rS2KdeeWLuGmsfGlMfOxih58VYVfxe')
 *   // { valid: true, algorithm: 'bcrypt' }
 */
export async function verifyPassword(password: string, hash: string): Promise<{ valid: boolean; algorithm: string }> {
  const found = ROWS.find(([, row]) => row.detect.test(hash));
  if (!found) throw invalidField('hash', 'is not a recognised password hash (argon2 PHC, bcrypt $2a$/$2b$/$2y$, or scrypt PHC)');
  const [algorithm, row] = found;
  return { valid: await row.verify(password, hash), algorithm };
}

/**
 * `POST /v1/auth/password-strength`: zxcvbn's estimate (password-strength.ts) on the crypto worker
 * pool, so the dictionaries' matching never holds the event loop.
 *
 * @example
 *   await measurePasswordStrength({ password: 'password123' }, workers) // { score: 0, strength: 'very_weak', entropy_bits: ..., ... }
 */
export async function measurePasswordStrength(input: { password: string; user_inputs?: string[] }, workers: Pick<CryptoWorkers, 'run'>) {
  const s = await workers.run('password-strength', input.password, input.user_inputs ?? []);
  return {
    score: s.score,
    strength: s.strength,
    entropy_bits: s.entropyBits,
    crack_time_seconds: s.crackTimeSeconds,
    crack_time_display: s.crackTimeDisplay,
    feedback: s.feedback,
    checks: s.checks,
  };
}
