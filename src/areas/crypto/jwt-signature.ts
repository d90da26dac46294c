import { constants, createHmac, timingSafeEqual, verify, type KeyObject } from 'node:crypto';
import { JWT_ALGORITHMS, type JwtAlgorithm, type JwtAlgorithmName } from './jwt-algorithms.js';

/** Per family: the node:crypto options that make `verify` read a JOSE signature. */
const VERIFY_OPTIONS: Record<JwtAlgorithm['family'], (row: JwtAlgorithm) => object> = {
  hmac: () => ({}),
  rsa: () => ({ padding: constants.RSA_PKCS1_PADDING }),
  // RFC 7518 §3.5: MGF1 with the same hash, salt as long as the hash output.
  'rsa-pss': (row) => ({ padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: Number(row.hash?.slice(3)) / 8 }),
  ecdsa: () => ({ dsaEncoding: 'ieee-p1363' }),
  eddsa: () => ({}),
};

/**
 * Check a JWS signature over `signingInput` (`header.payload` as in the token) with node:crypto,
 * synchronously: these are public-key or HMAC operations of microseconds, so a thread-pool round
 * trip would cost more than the work. The key must already fit the algorithm (see `keyMismatch`).
 *
 * @example
 *   verifySignature('HS256', secretKey, 'eyJhbGciOiJIUzI1NiJ9.e30', signatureBytes) // true
 */
export function verifySignature(alg: JwtAlgorithmName, key: KeyObject, signingInput: string, signature: Buffer): boolean {
  const row: JwtAlgorithm = JWT_ALGORITHMS[alg];
  const data = Buffer.from(signingInput, 'ascii');
  if (row.family === 'hmac') {
    const expected = createHmac(row.hash!, key).update(data).digest();
    return expected.length === signature.length && timingSafeEqual(expected, signature);
  }
  if (row.signatureBytes !== undefined && signature.length !== row.signatureBytes) return false;
  return verify(row.hash, data, { key, ...VERIFY_OPTIONS[row.family](row) }, signature);
}
