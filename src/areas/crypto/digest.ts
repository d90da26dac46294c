import { createHmac, hash, timingSafeEqual } from 'node:crypto';

/**
 * Hash algorithms of `POST /v1/auth/hash`: wire name → node:crypto name, digest size, standard.
 * node's `sha3-*` are FIPS 202 SHA-3 (not the pre-standard Keccak padding).
 */
export const HASH_ALGORITHMS = {
  md5: { node: 'md5', bits: 128, standard: 'RFC 1321 (broken: checksums only)' },
  sha1: { node: 'sha1', bits: 160, standard: 'FIPS 180-4 (collisions known)' },
  sha256: { node: 'sha256', bits: 256, standard: 'FIPS 180-4' },
  sha384: { node: 'sha384', bits: 384, standard: 'FIPS 180-4' },
  sha512: { node: 'sha512', bits: 512, standard: 'FIPS 180-4' },
  'sha3-256': { node: 'sha3-256', bits: 256, standard: 'FIPS 202' },
  'sha3-384': { node: 'sha3-384', bits: 384, standard: 'FIPS 202' },
  'sha3-512': { node: 'sha3-512', bits: 512, standard: 'FIPS 202' },
  blake2b512: { node: 'blake2b512', bits: 512, standard: 'RFC 7693 BLAKE2b-512' },
  blake2s256: { node: 'blake2s256', bits: 256, standard: 'RFC 7693 BLAKE2s-256' },
} as const;
export type HashAlgorithm = keyof typeof HASH_ALGORITHMS;

/** HMAC algorithms (RFC 2104 over the FIPS 180-4 hashes). */
export const HMAC_ALGORITHMS = {
  sha256: { node: 'sha256', bits: 256 },
  sha384: { node: 'sha384', bits: 384 },
  sha512: { node: 'sha512', bits: 512 },
} as const;
export type HmacAlgorithm = keyof typeof HMAC_ALGORITHMS;

/** How digests are written on the wire. */
export const DIGEST_ENCODINGS = ['hex', 'base64'] as const;
export type DigestEncoding = (typeof DIGEST_ENCODINGS)[number];

/**
 * Digest of `data` with one of {@link HASH_ALGORITHMS}.
 *
 * @example
 *   computeHash(Buffer.from('abc'), 'sha256', 'hex') // 'ba7816bf8f01cfea...'
 */
export function computeHash(data: Buffer, algorithm: HashAlgorithm, encoding: DigestEncoding): string {
  // The one-shot form: no Hash object (a native handle the garbage collector must track) per call.
  return hash(HASH_ALGORITHMS[algorithm].node, data, encoding);
}

/**
 * HMAC of `data` under `key`.
 *
 * @example
 *   computeHmac(Buffer.from('what do ya want for nothing?'), Buffer.from('Jefe'), 'sha256', 'hex') // '5bdcc146bf60754e...'
 */
export function computeHmac(data: Buffer, key: Buffer, algorithm: HmacAlgorithm, encoding: DigestEncoding): string {
  return createHmac(HMAC_ALGORITHMS[algorithm].node, key).update(data).digest(encoding);
}

/**
 * Constant-time check of an HMAC. A signature of the wrong length is simply not valid (the
 * length of a MAC is public, so checking it first leaks nothing).
 *
 * @example
 *   verifyHmac(data, key, 'sha256', Buffer.from('5bdc...', 'hex')) // true
 */
export function verifyHmac(data: Buffer, key: Buffer, algorithm: HmacAlgorithm, signature: Buffer): boolean {
  const expected = createHmac(HMAC_ALGORITHMS[algorithm].node, key).update(data).digest();
  return signature.length === expected.length && timingSafeEqual(signature, expected);
}
