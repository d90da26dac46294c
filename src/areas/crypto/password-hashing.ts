import { invalidField } from '../../errors.js';
import { ARGON2_LIMITS, detectArgon2Variant, hashArgon2id, verifyArgon2 } from './password-argon2.js';
import { BCRYPT_LIMITS, hashBcrypt, verifyBcrypt } from './password-bcrypt.js';
import { SCRYPT_LIMITS, hashScrypt, verifyScrypt } from './password-scrypt.js';

/** Options of `hash-password`, camelCase; each scheme reads its own and refuses the others'. */
export interface HashPasswordOptions {
  cost?: number;
  memoryKib?: number;
  iterations?: number;
  parallelism?: number;
  logN?: number;
  r?: number;
  p?: number;
}

/** The wire names of every option, to name the one given to the wrong scheme. */
const OPTION_FIELDS: Record<keyof HashPasswordOptions, string> = {
  cost: 'cost',
  memoryKib: 'memory_kib',
  iterations: 'iterations',
  parallelism: 'parallelism',
  logN: 'log_n',
  r: 'r',
  p: 'p',
};

interface PasswordSchemeRow {
  /** Options this scheme reads. */
  options: (keyof HashPasswordOptions)[];
  hash(password: string, o: HashPasswordOptions): Promise<string>;
}

/** Hashing schemes, one row each; all of them run off the main thread. */
export const PASSWORD_SCHEMES = {
  argon2id: {
    options: ['memoryKib', 'iterations', 'parallelism'],
    hash: (password, o) =>
      hashArgon2id(password, {
        memoryKib: o.memoryKib ?? ARGON2_LIMITS.memoryKib.default,
        iterations: o.iterations ?? ARGON2_LIMITS.iterations.default,
        parallelism: o.parallelism ?? ARGON2_LIMITS.parallelism.default,
      }),
  },
  bcrypt: {
    options: ['cost'],
    hash: (password, o) => hashBcrypt(password, o.cost ?? BCRYPT_LIMITS.cost.default),
  },
  scrypt: {
    options: ['logN', 'r', 'p'],
    hash: (password, o) =>
      hashScrypt(password, { logN: o.logN ?? SCRYPT_LIMITS.logN.default, r: o.r ?? SCRYPT_LIMITS.r.default, p: o.p ?? SCRYPT_LIMITS.p.default }),
  },
} satisfies Record<string, PasswordSchemeRow>;

export type PasswordAlgorithm = keyof typeof PASSWORD_SCHEMES;
export const PASSWORD_SCHEME_NAMES = Object.keys(PASSWORD_SCHEMES) as PasswordAlgorithm[];

/** Verifiers, one row per hash format, found by the hash's prefix. */
const VERIFIERS: { prefix: RegExp; name: (hash: string) => string; verify(password: string, hash: string): Promise<boolean> }[] = [
  { prefix: /^\$argon2(?:id|i|d)\$/, name: (h) => detectArgon2Variant(h) ?? 'argon2id', verify: verifyArgon2 },
  { prefix: /^\$2[aby]\$/, name: () => 'bcrypt', verify: verifyBcrypt },
  { prefix: /^\$scrypt\$/, name: () => 'scrypt', verify: verifyScrypt },
];

/** Names `verify-password` can answer in `algorithm`. */
export const VERIFIABLE_ALGORITHMS = ['argon2id', 'argon2i', 'argon2d', 'bcrypt', 'scrypt'] as const;

/**
 * Hash a password with one of {@link PASSWORD_SCHEMES}; an option of another scheme is a 422.
 *
 * @example
 *   await hashPassword('hunter2', 'bcrypt', { cost: 10 }) // '$2b$10$...'
 */
export async function hashPassword(password: string, algorithm: PasswordAlgorithm, options: HashPasswordOptions): Promise<string> {
  const scheme: PasswordSchemeRow = PASSWORD_SCHEMES[algorithm];
  for (const key of Object.keys(OPTION_FIELDS) as (keyof HashPasswordOptions)[]) {
    if (options[key] !== undefined && !scheme.options.includes(key)) {
      throw invalidField(OPTION_FIELDS[key], `does not apply to ${algorithm}`);
    }
  }
  return scheme.hash(password, options);
}

/**
 * Verify a password, the scheme detected from the hash; an unrecognised hash is a 422.
 *
 * @example
 *   await verifyPassword('a', '$2a$06$m0CrhHm10qJ3lXRY.5zDGO3rS2KdeeWLuGmsfGlMfOxih58VYVfxe')
 *   // { valid: true, algorithm: 'bcrypt' }
 */
export async function verifyPassword(password: string, hash: string): Promise<{ valid: boolean; algorithm: string }> {
  const verifier = VERIFIERS.find((v) => v.prefix.test(hash));
  if (!verifier) throw invalidField('hash', 'is not a recognised password hash (argon2 PHC, bcrypt $2a$/$2b$/$2y$, or scrypt PHC)');
  return { valid: await verifier.verify(password, hash), algorithm: verifier.name(hash) };
}
