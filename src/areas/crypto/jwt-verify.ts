import { isJwtAlgorithm, keyMismatch, type JwtAlgorithmName, type JwtKey } from './jwt-algorithms.js';
import { checkClaims } from './jwt-claims.js';
import { JwtMalformedError, readJwt } from './jwt-decode.js';
import { verifySignature } from './jwt-signature.js';

export const VERIFY_REASONS = ['expired', 'not_yet_valid', 'invalid_signature', 'claim_mismatch', 'malformed', 'algorithm_not_allowed'] as const;
export type VerifyReason = (typeof VERIFY_REASONS)[number];

export type VerifyOutcome =
  | { valid: true; header: Record<string, unknown>; payload: Record<string, unknown> }
  | { valid: false; error: string; reason: VerifyReason };

export interface VerifyJwtOptions {
  /** Algorithms the caller accepts; default: every supported one (the key still has to fit). */
  algorithms?: JwtAlgorithmName[];
  issuer?: string;
  subject?: string;
  audience?: string | string[];
  /** Why the key itself (a JWK's `alg`, `use`, `key_ops`) refuses the token's algorithm, if it does. */
  keyRefusal?: (alg: JwtAlgorithmName) => string | undefined;
  /** Seconds of leeway for `exp` and `nbf`. */
  clockTolerance?: number;
  /** Epoch milliseconds used as the current time. */
  now: number;
}

const fail = (reason: VerifyReason, error: string): VerifyOutcome => ({ valid: false, reason, error });

/**
 * Verify a compact JWT, in this order: it must parse (header a JSON object); `alg: none`, unknown
 * algorithms and algorithms outside `algorithms` are refused; the key must fit the algorithm's
 * family; `crit` extensions are not supported; the signature must hold; the payload must be a
 * claims set; then `iss`/`aud` and `nbf`/`exp` (with `clockTolerance`). Every failure is an
 * outcome, never a throw. ES384 and ES512 signatures are checked on the thread pool.
 *
 * @example
 *   await verifyJwt(token, secretKey, { now: Date.now() }) // { valid: true, header, payload }
 *   await verifyJwt(expired, secretKey, { now: Date.now() }) // { valid: false, reason: 'expired', error: '...' }
 */
export async function verifyJwt(token: string, key: JwtKey, options: VerifyJwtOptions): Promise<VerifyOutcome> {
  let read: ReturnType<typeof readJwt>;
  try {
    read = readJwt(token);
  } catch (err) {
    if (err instanceof JwtMalformedError) return fail('malformed', err.message);
    throw err;
  }
  const alg = read.header.alg;
  if (typeof alg === 'string' && alg.toLowerCase() === 'none') return fail('algorithm_not_allowed', 'alg "none" (an unsigned token) is never accepted');
  // A JWS header must name its algorithm (RFC 7515 §4.1.1): without one the token is malformed.
  if (alg === undefined) return fail('malformed', 'the header has no "alg"');
  if (!isJwtAlgorithm(alg)) return fail('algorithm_not_allowed', `alg ${JSON.stringify(alg)} is not a supported JWS algorithm`);
  if (options.algorithms && !options.algorithms.includes(alg)) return fail('algorithm_not_allowed', `alg ${alg} is not in the allowed algorithms (${options.algorithms.join(', ')})`);
  const mismatch = keyMismatch(alg, key);
  if (mismatch) return fail('algorithm_not_allowed', `the token's ${mismatch}`);
  const refusal = options.keyRefusal?.(alg);
  if (refusal) return fail('algorithm_not_allowed', `the token's alg is ${alg} and the public key ${refusal}`);
  // RFC 7515 §4.1.11: extensions named in `crit` must be understood, and this verifier knows none.
  if (Object.hasOwn(read.header, 'crit')) return fail('malformed', 'the header lists "crit" extensions, which this verifier does not support');

  const signingInput = token.slice(0, token.lastIndexOf('.'));
  if (!(await verifySignature(alg, key, signingInput, read.signature))) {
    return fail('invalid_signature', 'the signature does not match the header and payload with this key');
  }
  // A JWS whose payload is not a claims set (RFC 8037 A.4 signs a sentence): its signature holds, but it is no JWT.
  if (!read.payload) return fail('malformed', `the signature is valid but ${read.payloadProblem}, so this is a JWS and not a JWT`);
  const claimFailure = checkClaims(read.payload, {
    issuer: options.issuer,
    subject: options.subject,
    audience: options.audience,
    clockTolerance: options.clockTolerance ?? 0,
    now: options.now,
  });
  if (claimFailure) return fail(claimFailure.reason, claimFailure.error);
  return { valid: true, header: read.header, payload: read.payload };
}
