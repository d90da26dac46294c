import { invalidField } from '../../errors.js';
import { ARGON2_LIMITS, hashArgon2id, verifyArgon2 } from './password-argon2.js';
import { BCRYPT_LIMITS, hashBcrypt, verifyBcrypt } from './password-bcrypt.js';
import { SCRYPT_LIMITS, hashScrypt, verifyScrypt } from './password-scrypt.js';

/** Options of `hash-password`, camelCase; each algorithm reads its own and refuses the others'. */
export interface HashPasswordOptions {
  cost?: number;
  memoryKib?: number;
  iterations?: number;
  parallelism?: number;
  logN?: number;
  r?: number;
  p?: number;
}

/** The wire names of every option, to name the one given to the wrong algorithm. */
const OPTION_FIELDS: Record<keyof HashPasswordOptions, string> = {
  cost: 'cost',
  memoryKib: 'memory_kib',
  iterations: 'iterations',
  parallelism: 'parallelism',
  logN: 'log_n',
  r: 'r',
  p: 'p',
};

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
    options: ['memoryKib', 'iterations', 'parallelism'],
    hash: (password, o) =>
      hashArgon2id(password, {
        memoryKib: o.memoryKib ?? ARGON2_LIMITS.memoryKib.default,
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
    options: ['logN', 'r', 'p'],
    hash: (password, o) =>
      hashScrypt(password, { logN: o.logN ?? SCRYPT_LIMITS.logN.default, r: o.r ?? SCRYPT_LIMITS.r.default, p: o.p ?? SCRYPT_LIMITS.p.default }),
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
 * Hash a password with argon2id, bcrypt or scrypt; an option of another algorithm is a 422.
 *
 * @example
 *   await hashPassword('hunter2', 'bcrypt', { cost: 10 }) // '$2b$10$...'
 */
export async function hashPassword(password: string, algorithm: PasswordAlgorithm, options: HashPasswordOptions): Promise<string> {
  const row: PasswordAlgorithmRow = PASSWORD_ALGORITHMS[algorithm];
  for (const key of Object.keys(OPTION_FIELDS) as (keyof HashPasswordOptions)[]) {
    if (options[key] !== undefined && !row.options?.includes(key)) {
      throw invalidField(OPTION_FIELDS[key], `does not apply to ${algorithm}`);
    }
  }
  return row.hash!(password, options);
}

/**
 * Verify a password, the algorithm detected from the hash; an unrecognised hash is a 422.
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
