import type { KeyObject } from 'node:crypto';
import { compactVerify, errors, jwtVerify } from 'jose';
import { isJwtAlgorithm, keyMismatch, type JwtAlgorithmName } from './jwt-algorithms.js';
import { JwtMalformedError, readJwt } from './jwt-decode.js';

export const VERIFY_REASONS = ['expired', 'not_yet_valid', 'invalid_signature', 'claim_mismatch', 'malformed', 'algorithm_not_allowed'] as const;
export type VerifyReason = (typeof VERIFY_REASONS)[number];

export type VerifyOutcome =
  | { valid: true; header: Record<string, unknown>; payload: Record<string, unknown> }
  | { valid: false; error: string; reason: VerifyReason };

export interface VerifyJwtOptions {
  /** Algorithms the caller accepts; default: every supported one that fits the key. */
  algorithms?: JwtAlgorithmName[];
  issuer?: string;
  audience?: string | string[];
  /** Seconds of leeway for `exp` and `nbf`. */
  clockTolerance?: number;
  /** Epoch milliseconds used as the current time. */
  now: number;
}

const fail = (reason: VerifyReason, error: string): VerifyOutcome => ({ valid: false, reason, error });

/** jose's verification errors → the contract's reasons. */
function explainFailure(err: unknown): VerifyOutcome {
  if (err instanceof errors.JWTExpired) return fail('expired', `the token expired (${err.message})`);
  if (err instanceof errors.JWTClaimValidationFailed) {
    if (err.claim === 'nbf' && err.reason === 'check_failed') return fail('not_yet_valid', `the token is not valid yet (${err.message})`);
    return fail('claim_mismatch', err.message);
  }
  if (err instanceof errors.JWSSignatureVerificationFailed) return fail('invalid_signature', 'the signature does not match the header and payload with this key');
  if (err instanceof errors.JOSEAlgNotAllowed) return fail('algorithm_not_allowed', err.message);
  // Anything else (a header jose refuses, such as an unknown `crit`) is a token problem, not a server one.
  return fail('malformed', err instanceof Error ? err.message : String(err));
}

/**
 * Verify a compact JWT: `alg: none` and algorithms outside `algorithms` are refused, the key must
 * fit the token's algorithm family, then the signature is checked, then `exp`/`nbf` (with
 * `clockTolerance`), `iss` and `aud`. Every failure is an outcome, never a throw.
 *
 * @example
 *   await verifyJwt(token, secretKey, { now: Date.now() }) // { valid: true, header, payload }
 *   await verifyJwt(expired, secretKey, { now: Date.now() }) // { valid: false, reason: 'expired', error: '...' }
 */
export async function verifyJwt(token: string, key: KeyObject, options: VerifyJwtOptions): Promise<VerifyOutcome> {
  let read: ReturnType<typeof readJwt>;
  try {
    read = readJwt(token);
  } catch (err) {
    if (err instanceof JwtMalformedError) return fail('malformed', err.message);
    throw err;
  }
  const alg = read.header.alg;
  if (typeof alg === 'string' && alg.toLowerCase() === 'none') return fail('algorithm_not_allowed', 'alg "none" (an unsigned token) is never accepted');
  if (!isJwtAlgorithm(alg)) return fail('algorithm_not_allowed', `alg ${JSON.stringify(alg)} is not a supported JWS algorithm`);
  if (options.algorithms && !options.algorithms.includes(alg)) return fail('algorithm_not_allowed', `alg ${alg} is not in the allowed algorithms (${options.algorithms.join(', ')})`);
  const mismatch = keyMismatch(alg, key);
  if (mismatch) return fail('algorithm_not_allowed', `the token's ${mismatch}`);

  try {
    if (!read.payload) {
      // A JWS whose payload is not a claims set (RFC 8037 A.4 signs a sentence): say whether the signature holds.
      await compactVerify(token, key, { algorithms: [alg] });
      return fail('malformed', `the signature is valid but ${read.payloadProblem}, so this is a JWS and not a JWT`);
    }
    const { payload, protectedHeader } = await jwtVerify(token, key, {
      algorithms: [alg],
      issuer: options.issuer,
      audience: options.audience,
      clockTolerance: options.clockTolerance ?? 0,
      currentDate: new Date(options.now),
    });
    return { valid: true, header: protectedHeader as Record<string, unknown>, payload: payload as Record<string, unknown> };
  } catch (err) {
    return explainFailure(err);
  }
}
