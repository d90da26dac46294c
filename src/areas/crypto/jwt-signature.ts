import { constants, createHmac, sign, timingSafeEqual, verify, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';
import type { MaybePromise } from '../../maybe-promise.js';
import { HmacSecret, JWT_ALGORITHMS, type JwtAlgorithm, type JwtAlgorithmName, type JwtKey } from './jwt-algorithms.js';

/** Per family: the node:crypto options that make `sign`/`verify` write and read a JOSE signature. */
const KEY_OPTIONS: Record<JwtAlgorithm['family'], (row: JwtAlgorithm) => object> = {
  hmac: () => ({}),
  rsa: () => ({ padding: constants.RSA_PKCS1_PADDING }),
  // RFC 7518 §3.5: MGF1 with the same hash, salt as long as the hash output.
  'rsa-pss': (row) => ({ padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: Number(row.hash?.slice(3)) / 8 }),
  // RFC 7518 §3.4: the raw r||s pair, not DER.
  ecdsa: () => ({ dsaEncoding: 'ieee-p1363' }),
  eddsa: () => ({}),
};

// node:crypto's callback forms run the operation on libuv's thread pool.
const signOnThreadPool = promisify(sign) as (hash: string | null, data: Buffer, key: object) => Promise<Buffer>;
const verifyOnThreadPool = promisify(verify) as (hash: string | null, data: Buffer, key: object, signature: Buffer) => Promise<boolean>;

const hmac = (row: JwtAlgorithm, key: JwtKey, data: Buffer) => createHmac(row.hash!, key instanceof HmacSecret ? key.bytes : key).update(data).digest();

/**
 * The JWS signature of `signingInput` (`header.payload`, base64url) with node:crypto. The key must
 * already fit the algorithm (see `keyMismatch`). Slow operations (the row's `offEventLoop`: RSA
 * private keys, P-384 and P-521) run on the thread pool and return a promise; the rest return now.
 *
 * @example
 *   createSignature('HS256', secretKey, 'eyJhbGciOiJIUzI1NiJ9.e30') // Buffer of 32 bytes
 */
export function createSignature(alg: JwtAlgorithmName, key: JwtKey, signingInput: string): MaybePromise<Buffer> {
  const row: JwtAlgorithm = JWT_ALGORITHMS[alg];
  const data = Buffer.from(signingInput, 'ascii');
  if (row.family === 'hmac') return hmac(row, key, data);
  if (key instanceof HmacSecret) throw new TypeError(`${alg} cannot sign with an HMAC secret`); // keyMismatch refuses it first
  const options = { key, ...KEY_OPTIONS[row.family](row) };
  return row.offEventLoop?.includes('sign') ? signOnThreadPool(row.hash, data, options) : sign(row.hash, data, options);
}

/**
 * Check a JWS signature over `signingInput` with node:crypto; HMACs compare in constant time.
 * Inline for the algorithms whose check takes microseconds, on the thread pool (a promise) for
 * P-384 and P-521. The key must already fit the algorithm (see `keyMismatch`).
 *
 * @example
 *   verifySignature('HS256', secretKey, 'eyJhbGciOiJIUzI1NiJ9.e30', signatureBytes) // true
 */
export function verifySignature(alg: JwtAlgorithmName, key: JwtKey, signingInput: string, signature: Buffer): MaybePromise<boolean> {
  const row: JwtAlgorithm = JWT_ALGORITHMS[alg];
  const data = Buffer.from(signingInput, 'ascii');
  if (row.family === 'hmac') {
    const expected = hmac(row, key, data);
    return expected.length === signature.length && timingSafeEqual(expected, signature);
  }
  if (key instanceof HmacSecret || (row.signatureBytes !== undefined && signature.length !== row.signatureBytes)) return false;
  const options = { key, ...KEY_OPTIONS[row.family](row) };
  return row.offEventLoop?.includes('verify') ? verifyOnThreadPool(row.hash, data, options, signature) : verify(row.hash, data, options, signature);
}
