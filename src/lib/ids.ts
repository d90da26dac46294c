import { hash, randomFillSync } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * `length` characters from `alphabet`, drawn from a CSPRNG by rejection sampling (no modulo bias).
 *
 * @example
 *   randomString(32, BASE62) // 'q3ZP0...'
 */
export function randomString(length: number, alphabet: string = BASE62): string {
  if (alphabet.length < 2 || alphabet.length > 256) throw new RangeError('alphabet must have 2..256 characters');
  const limit = 256 - (256 % alphabet.length);
  let out = '';
  while (out.length < length) {
    const byte = randomByte();
    if (byte < limit) out += alphabet[byte % alphabet.length];
  }
  return out;
}

// CSPRNG bytes drawn 4 KiB at a time: one system call serves a few hundred ids instead of one each.
// Each byte is handed out once and the pool is refilled only when used up.
const pool = Buffer.alloc(4096);
let poolOffset = pool.length;

function randomByte(): number {
  if (poolOffset === pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  return pool[poolOffset++]!;
}

export { BASE62 };

/**
 * A public identifier: prefix + 22 base62 characters (131 bits), URL-safe.
 *
 * @example
 *   newId('bin_') // 'bin_4fQ9...'
 */
export function newId(prefix: 'bin_' | 'req_' | 'mock_' | 'key_'): string {
  return prefix + randomString(22);
}

/** Fixed width of the sequence part of {@link newSequencedId}: 62^6 is above 2^32. */
const SEQUENCE_CHARS = 6;

/** The largest sequence number {@link newSequencedId} takes. */
export const MAX_ID_SEQUENCE = 2 ** 32 - 1;

/** Hex characters of the tag that ties a sequenced id to its bin (24 bits). */
const TAG_CHARS = 6;
const TAG = /^[0-9a-f]{6}$/;

/** The tag of a sequenced id's random part in `scope` (its bin): the first 24 bits of their SHA-256, in hex. */
function scopeTag(scope: string, random: string): string {
  return hash('sha256', `${scope}\n${random}`, 'hex').slice(0, TAG_CHARS);
}

/**
 * What follows the number in a sequenced id of `scope`: 22 random base62 characters and their
 * tag in `scope`, so that an id of another bin, or one made up, is told apart even once no
 * request of that number is kept to compare it with (see {@link isIdOfScope}).
 *
 * @example
 *   sequencedIdTail('bin_x') // 22 random characters + 6 hex digits
 */
export function sequencedIdTail(scope: string): string {
  const random = randomString(22);
  return random + scopeTag(scope, random);
}

/**
 * A public identifier that carries a sequence number: prefix + `seq` in 6 base62 digits + 22
 * random base62 characters (131 bits, as {@link newId}) + their 6-hex-digit tag in `scope` (the
 * bin). Both stores name a captured request by its number in its bin: SQLite finds the request by
 * its key alone (no index of ids), and a stream resuming after an id places it in capture order
 * even once the request is gone.
 *
 * @example
 *   newSequencedId('req_', 1, 'bin_x') // 'req_000001' + 22 random characters + 6 hex digits
 */
export function newSequencedId(prefix: 'req_', seq: number, scope: string): string {
  if (!Number.isInteger(seq) || seq < 0 || seq > MAX_ID_SEQUENCE) throw new RangeError(`sequence ${seq} is out of range`);
  let digits = '';
  for (let i = 0, n = seq; i < SEQUENCE_CHARS; i++, n = Math.floor(n / 62)) digits = BASE62[n % 62] + digits;
  return prefix + digits + sequencedIdTail(scope);
}

/** Length of a sequenced id made before ids carried a tag, and of one with its tag. */
const UNTAGGED = SEQUENCE_CHARS + 22;

/**
 * The sequence number in an id made by {@link newSequencedId} (or before ids carried a tag), or
 * null for any other text.
 *
 * @example
 *   sequenceOfId('req_', 'req_00000z' + 'x'.repeat(22) + '0a1b2c') // 61
 */
export function sequenceOfId(prefix: 'req_', id: string): number | null {
  const length = id.length - prefix.length;
  if ((length !== UNTAGGED && length !== UNTAGGED + TAG_CHARS) || !id.startsWith(prefix)) return null;
  if (length !== UNTAGGED && !TAG.test(id.slice(prefix.length + UNTAGGED))) return null;
  let seq = 0;
  for (let i = 0; i < UNTAGGED; i++) {
    const digit = BASE62.indexOf(id[prefix.length + i]!);
    if (digit === -1) return null;
    if (i < SEQUENCE_CHARS) seq = seq * 62 + digit;
  }
  return seq <= MAX_ID_SEQUENCE ? seq : null;
}

/**
 * Whether a sequenced id (one {@link sequenceOfId} reads) may be one of `scope`'s: its tag
 * matches. An id made before ids carried a tag cannot tell, and passes.
 *
 * @example
 *   isIdOfScope('req_', newSequencedId('req_', 1, 'bin_a'), 'bin_b') // false
 */
export function isIdOfScope(prefix: 'req_', id: string, scope: string): boolean {
  const random = prefix.length + SEQUENCE_CHARS;
  if (id.length === random + 22) return true;
  return id.slice(random + 22) === scopeTag(scope, id.slice(random, random + 22));
}

/** Fixed width of the time part of {@link newTimeOrderedId}: 62^8 ms reach beyond the year 8000. */
const TIME_CHARS = 8;

/**
 * A public identifier whose text sorts by creation time: prefix + the epoch milliseconds in 8
 * base62 digits + 22 random base62 characters (131 bits, as {@link newId}). The Redis store named
 * captured requests with it until they carried their number in their bin, as {@link newSequencedId}
 * gives it; Redis data from then still holds such ids.
 *
 * @example
 *   newTimeOrderedId('req_', 1795300000000) // 'req_0VbFd3rq' + 22 random characters
 */
export function newTimeOrderedId(prefix: 'req_', now: number): string {
  let t = Math.max(0, Math.floor(now));
  let time = '';
  for (let i = 0; i < TIME_CHARS; i++) {
    time = BASE62[t % 62] + time;
    t = Math.floor(t / 62);
  }
  return prefix + time + randomString(22);
}
