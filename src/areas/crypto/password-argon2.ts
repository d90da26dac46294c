import type * as Argon2 from '@node-rs/argon2';
import { invalidField } from '../../errors.js';
import { runCpuBound } from './crypto-workers.js';

// The native addon loads with the first argon2 call, not at start: most processes never hash a password.
let argon2: Promise<typeof Argon2> | undefined;
const loadArgon2 = () => (argon2 ??= import('@node-rs/argon2'));

/**
 * Bounds on argon2 parameters, for hashing and for hashes offered to verify alike: a caller must
 * not be able to make one request allocate gigabytes or run for minutes.
 */
export const ARGON2_LIMITS = {
  memoryKib: { min: 8, max: 262_144, default: 19_456 },
  iterations: { min: 1, max: 10, default: 2 },
  parallelism: { min: 1, max: 8, default: 1 },
} as const;

export interface Argon2Params {
  memoryKib: number;
  iterations: number;
  parallelism: number;
}

// The package's `Algorithm` is a const enum; its values are spelled out so no enum object is needed at runtime.
const ARGON2ID = 2 as Argon2.Algorithm;

/**
 * argon2id PHC string with a fresh 16-byte salt; runs on the libuv thread pool.
 *
 * @example
 *   await hashArgon2id('hunter2', { memoryKib: 19456, iterations: 2, parallelism: 1 })
 *   // '$argon2id$v=19$m=19456,t=2,p=1$...$...'
 */
export async function hashArgon2id(password: string, params: Argon2Params): Promise<string> {
  if (params.memoryKib < 8 * params.parallelism) {
    throw invalidField('memory_kib', `must be at least 8 × parallelism (${8 * params.parallelism})`);
  }
  const options: Argon2.Options = {
    algorithm: ARGON2ID,
    memoryCost: params.memoryKib,
    timeCost: params.iterations,
    parallelism: params.parallelism,
  };
  const { hash } = await loadArgon2();
  return runCpuBound(() => hash(password, options));
}

/**
 * Check a password against an argon2i/argon2d/argon2id PHC string whose parameters are within
 * {@link ARGON2_LIMITS}; a malformed string or one beyond the limits is a 422 on `hash`.
 *
 * @example
 *   await verifyArgon2('password', '$argon2id$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$CTFh...') // true
 */
export async function verifyArgon2(password: string, phc: string): Promise<boolean> {
  const { parseOptions, verify } = await loadArgon2();
  let parsed: ReturnType<typeof parseOptions>;
  try {
    parsed = parseOptions(phc);
  } catch {
    throw invalidField('hash', 'is not a valid argon2 PHC string');
  }
  const { memoryKib, iterations, parallelism } = ARGON2_LIMITS;
  if (parsed.memoryCost > memoryKib.max || parsed.timeCost > iterations.max || parsed.parallelism > parallelism.max) {
    throw invalidField(
      'hash',
      `has argon2 parameters beyond this service's limits (m <= ${memoryKib.max}, t <= ${iterations.max}, p <= ${parallelism.max})`,
    );
  }
  try {
    return await runCpuBound(() => verify(phc, password));
  } catch {
    throw invalidField('hash', 'is not a valid argon2 PHC string');
  }
}
