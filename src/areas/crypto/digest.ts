import { createHmac, hash, timingSafeEqual } from 'node:crypto';
import { invalidField } from '../../errors.js';
import { decodeBytes, type ByteEncoding } from './bytes.js';

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

export interface HashInput {
  data: string;
  data_encoding?: ByteEncoding;
  algorithm: HashAlgorithm;
  encoding: DigestEncoding;
}
export interface HmacInput {
  data: string;
  data_encoding?: ByteEncoding;
  key: string;
  key_encoding?: ByteEncoding;
  algorithm: HmacAlgorithm;
  encoding: DigestEncoding;
}
export interface HmacVerifyInput extends HmacInput {
  signature: string;
}

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
 * `POST /v1/auth/hash`: the digest of `data` (read in `data_encoding`), written in `encoding`.
 *
 * @example
 *   hashData({ data: 'abc', algorithm: 'sha256', encoding: 'hex' }) // { hash: 'ba7816bf...', algorithm: 'sha256', encoding: 'hex' }
 */
export function hashData(input: HashInput): { hash: string; algorithm: HashAlgorithm; encoding: DigestEncoding } {
  const digest = computeHash(decodeBytes(input.data, input.data_encoding, 'data'), input.algorithm, input.encoding);
  return { hash: digest, algorithm: input.algorithm, encoding: input.encoding };
}

/**
 * `POST /v1/auth/hmac`: the HMAC of `data` under `key`, written in `encoding`.
 *
 * @example
 *   signHmac({ data: 'what do ya want for nothing?', key: 'Jefe', algorithm: 'sha256', encoding: 'hex' })
 *   // { signature: '5bdcc146bf60754e...', algorithm: 'sha256', encoding: 'hex' }
 */
export function signHmac(input: HmacInput): { signature: string; algorithm: HmacAlgorithm; encoding: DigestEncoding } {
  const data = decodeBytes(input.data, input.data_encoding, 'data');
  const key = decodeBytes(input.key, input.key_encoding, 'key');
  const signature = createHmac(HMAC_ALGORITHMS[input.algorithm].node, key).update(data).digest(input.encoding);
  return { signature, algorithm: input.algorithm, encoding: input.encoding };
}

/** Read a signature in `encoding`; `sha256=...`-style prefixes (GitHub, Shopify headers) are accepted. */
function readSignature(text: string, algorithm: HmacAlgorithm, encoding: DigestEncoding): Buffer {
  const prefix = /^(sha\d+)=/i.exec(text)?.[1];
  if (prefix !== undefined && prefix.toLowerCase() !== algorithm) {
    throw invalidField('signature', `starts with "${prefix}=", which names another algorithm than "${algorithm}" (set algorithm to match)`);
  }
  const bare = prefix !== undefined ? text.slice(prefix.length + 1) : text;
  return decodeBytes(bare, encoding, 'signature');
}

/**
 * `POST /v1/auth/hmac-verify`: a constant-time check of `signature`. A signature of the wrong
 * length is simply not valid (the length of a MAC is public, so checking it first leaks nothing).
 *
 * @example
 *   verifyHmac({ data: 'what do ya want for nothing?', key: 'Jefe', algorithm: 'sha256', encoding: 'hex', signature: 'sha256=5bdc...' })
 *   // { valid: true, algorithm: 'sha256' }
 */
export function verifyHmac(input: HmacVerifyInput): { valid: boolean; algorithm: HmacAlgorithm } {
  const signature = readSignature(input.signature, input.algorithm, input.encoding);
  const data = decodeBytes(input.data, input.data_encoding, 'data');
  const key = decodeBytes(input.key, input.key_encoding, 'key');
  const expected = createHmac(HMAC_ALGORITHMS[input.algorithm].node, key).update(data).digest();
  return { valid: signature.length === expected.length && timingSafeEqual(signature, expected), algorithm: input.algorithm };
}
