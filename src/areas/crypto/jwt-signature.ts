import { constants, createHmac, sign, timingSafeEqual, verify } from 'node:crypto';
import { promisify } from 'node:util';
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

/** The HS* signature bytes (every HS* row names its hash; the secret is an HmacSecret once `keyMismatch` has passed). */
const hmac = (row: JwtAlgorithm, key: JwtKey, signingInput: string) =>
  createHmac(row.hash as string, key instanceof HmacSecret ? key.bytes : key.export())
    .update(signingInput)
    .digest();

/**
 * The JWS signature of `signingInput` (`header.payload`, base64url), itself base64url, with
 * node:crypto. The key must already fit the algorithm (see `keyMismatch`). Slow operations (the
 * row's `offEventLoop`: RSA private keys, P-384 and P-521) run on the thread pool; the rest inline.
 *
 * @example
 *   await createSignature('HS256', secretKey, 'eyJhbGciOiJIUzI1NiJ9.e30') // 43 base64url characters (32 bytes)
 */
export async function createSignature(alg: JwtAlgorithmName, key: JwtKey, signingInput: string): Promise<string> {
  const row: JwtAlgorithm = JWT_ALGORITHMS[alg];
  if (row.family === 'hmac') return hmac(row, key, signingInput).toString('base64url');
  if (key instanceof HmacSecret) throw new TypeError(`${alg} cannot sign with an HMAC secret`); // keyMismatch refuses it first
  const data = Buffer.from(signingInput, 'ascii');
  const options = { key, ...KEY_OPTIONS[row.family](row) };
  if (!row.offEventLoop?.includes('sign')) return sign(row.hash, data, options).toString('base64url');
  return (await signOnThreadPool(row.hash, data, options)).toString('base64url');
}

/**
 * Check a JWS signature (base64url, as in the token) over `signingInput` with node:crypto; HMACs
 * compare in constant time. Inline for the algorithms whose check takes microseconds, on the
 * thread pool for P-384 and P-521. The key must already fit the algorithm (see `keyMismatch`).
 *
 * @example
 *   await verifySignature('HS256', secretKey, 'eyJhbGciOiJIUzI1NiJ9.e30', 'ZBuY...') // true
 */
export async function verifySignature(alg: JwtAlgorithmName, key: JwtKey, signingInput: string, signature: string): Promise<boolean> {
  const row: JwtAlgorithm = JWT_ALGORITHMS[alg];
  if (row.family === 'hmac') {
    // Compared as bytes: other trailing bits in the last character spell the same bytes (base64url decoders ignore them, jose's too).
    const given = Buffer.from(signature, 'base64url');
    const wanted = hmac(row, key, signingInput);
    return given.length === wanted.length && timingSafeEqual(given, wanted);
  }
  const bytes = Buffer.from(signature, 'base64url');
  if (key instanceof HmacSecret || (row.signatureBytes !== undefined && bytes.length !== row.signatureBytes)) return false;
  const data = Buffer.from(signingInput, 'ascii');
  const options = { key, ...KEY_OPTIONS[row.family](row) };
  return row.offEventLoop?.includes('verify') ? verifyOnThreadPool(row.hash, data, options, bytes) : verify(row.hash, data, options, bytes);
}
