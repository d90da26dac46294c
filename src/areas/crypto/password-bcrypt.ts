import type * as Bcrypt from '@node-rs/bcrypt';
import { invalidField } from '../../errors.js';
import { runCpuBound } from './crypto-workers.js';

// The native addon loads with the first bcrypt call, not at start: most processes never hash a password.
let bcrypt: Promise<typeof Bcrypt> | undefined;
const loadBcrypt = () => (bcrypt ??= import('@node-rs/bcrypt'));

/** bcrypt cost bounds (2^cost rounds), for hashing and for hashes offered to verify alike. */
export const BCRYPT_LIMITS = { cost: { min: 4, max: 15, default: 12 } } as const;

/** bcrypt only reads the first 72 bytes of its input; longer passwords are refused, never truncated. */
export const BCRYPT_MAX_BYTES = 72;

const MODULAR_CRYPT = /^\$2[aby]\$(\d\d)\$[./A-Za-z0-9]{53}$/;

function assertBcryptInput(password: string): void {
  const bytes = Buffer.byteLength(password, 'utf8');
  if (bytes > BCRYPT_MAX_BYTES) {
    throw invalidField('password', `is ${bytes} bytes in UTF-8; bcrypt reads at most ${BCRYPT_MAX_BYTES} and this service never truncates`);
  }
}

/**
 * `$2b$` bcrypt hash with a fresh salt; runs on the libuv thread pool.
 *
 * @example
 *   await hashBcrypt('hunter2', 12) // '$2b$12$...'
 */
export async function hashBcrypt(password: string, cost: number): Promise<string> {
  assertBcryptInput(password);
  const { hash } = await loadBcrypt();
  // @node-rs/bcrypt 1.x labels its output $2y$; $2y$ and $2b$ are the same algorithm (both fixed the
  // $2a$ wrap-around bug), and $2b$ is the label the contract and most verifiers expect.
  const encoded = await runCpuBound(() => hash(password, cost));
  return `$2b$${encoded.slice(4)}`;
}

/**
 * Check a password against a `$2a$`/`$2b$`/`$2y$` hash whose cost is within {@link BCRYPT_LIMITS}.
 *
 * @example
 *   await verifyBcrypt('a', '$2a$06$m0CrhHm10qJ3lXRY.5zDGO3rS2KdeeWLuGmsfGlMfOxih58VYVfxe') // true
 */
export async function verifyBcrypt(password: string, encoded: string): Promise<boolean> {
  const match = MODULAR_CRYPT.exec(encoded);
  if (!match) throw invalidField('hash', 'is not a valid bcrypt hash ($2a$/$2b$/$2y$, two-digit cost, 53 characters)');
  const cost = Number(match[1]);
  if (cost < BCRYPT_LIMITS.cost.min || cost > BCRYPT_LIMITS.cost.max) {
    throw invalidField('hash', `has bcrypt cost ${cost}; this service verifies costs ${BCRYPT_LIMITS.cost.min}..${BCRYPT_LIMITS.cost.max}`);
  }
  assertBcryptInput(password);
  const { verify } = await loadBcrypt();
  return runCpuBound(() => verify(password, encoded));
}
