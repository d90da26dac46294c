import { DevutilError, invalidField } from '../../errors.js';
import type { ByteEncoding } from './bytes.js';
import { isJwtAlgorithm, keyMismatch, type JwtAlgorithmName, type JwtKey } from './jwt-algorithms.js';
import { JwtMalformedError, readJwt } from './jwt-decode.js';
import { importHmacSecret, importPublicKey, jwkRefusal, type WireKey } from './jwt-keys.js';
import { verifySignature } from './jwt-signature.js';

export const VERIFY_REASONS = [
  'expired',
  'not_yet_valid',
  'invalid_signature',
  'claim_mismatch',
  'malformed',
  'algorithm_not_allowed',
] as const;
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

/** A claim check that failed: which reason of the contract, and why. */
interface ClaimFailure {
  reason: 'expired' | 'not_yet_valid' | 'claim_mismatch';
  error: string;
}

interface ClaimExpectations {
  issuer?: string;
  subject?: string;
  audience?: string | string[];
  /** Seconds of leeway for `exp` and `nbf`. */
  clockTolerance: number;
  /** Epoch milliseconds. */
  now: number;
}

const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** A time claim as the ISO time and the claim (`… (exp 1700000000)`), or the claim alone past what a Date holds (±8.64e12 s). */
function claimTime(claim: 'nbf' | 'exp', seconds: number): string {
  const date = new Date(seconds * 1000);
  return Number.isNaN(date.getTime()) ? `${claim} ${seconds}` : `${date.toISOString()} (${claim} ${seconds})`;
}

/**
 * Check registered claims as RFC 7519 §4.1 defines them, in jose's order: `iss`, `sub` and `aud`
 * (when the caller expects them), the types of `iat`/`nbf`/`exp`, then `nbf` and `exp` against
 * `now` ± `clockTolerance`. A token expires at `exp` exactly.
 */
function checkClaims(payload: Record<string, unknown>, expect: ClaimExpectations): ClaimFailure | undefined {
  const mismatch = (error: string): ClaimFailure => ({ reason: 'claim_mismatch', error });
  if (expect.issuer !== undefined && payload.iss !== expect.issuer) {
    return mismatch(`iss is ${JSON.stringify(payload.iss ?? null)}, expected ${JSON.stringify(expect.issuer)}`);
  }
  if (expect.subject !== undefined && payload.sub !== expect.subject) {
    return mismatch(`sub is ${JSON.stringify(payload.sub ?? null)}, expected ${JSON.stringify(expect.subject)}`);
  }
  if (expect.audience !== undefined) {
    const wanted = [expect.audience].flat();
    const given = typeof payload.aud === 'string' ? [payload.aud] : Array.isArray(payload.aud) ? payload.aud : [];
    if (!given.some((a) => wanted.includes(a)))
      return mismatch(`aud ${JSON.stringify(payload.aud ?? null)} names none of ${wanted.join(', ')}`);
  }
  for (const claim of ['iat', 'nbf', 'exp']) {
    if (Object.hasOwn(payload, claim) && !isNumber(payload[claim])) return mismatch(`${claim} must be a number of seconds`);
  }
  const now = Math.floor(expect.now / 1000);
  const { nbf, exp } = payload;
  if (isNumber(nbf) && nbf > now + expect.clockTolerance) {
    return { reason: 'not_yet_valid', error: `the token is not valid before ${claimTime('nbf', nbf)}` };
  }
  if (isNumber(exp) && exp <= now - expect.clockTolerance) {
    return { reason: 'expired', error: `the token expired at ${claimTime('exp', exp)}` };
  }
  return undefined;
}

/**
 * Verify a compact JWT with an imported key, in this order: it must parse (header a JSON object);
 * `alg: none`, unknown algorithms and algorithms outside `algorithms` are refused; the key must
 * fit the algorithm's family; `crit` extensions are not supported; the signature must hold; the
 * payload must be a claims set; then `iss`/`aud` and `nbf`/`exp` (with `clockTolerance`). Every
 * failure is an outcome, never a throw. ES384 and ES512 signatures are checked on the thread pool.
 *
 * @example
 *   await verifyCompactJwt(token, secretKey, { now: Date.now() }) // { valid: true, header, payload }
 *   await verifyCompactJwt(expired, secretKey, { now: Date.now() }) // { valid: false, reason: 'expired', error: '...' }
 */
export async function verifyCompactJwt(token: string, key: JwtKey, options: VerifyJwtOptions): Promise<VerifyOutcome> {
  let read: ReturnType<typeof readJwt>;
  try {
    read = readJwt(token);
  } catch (err) {
    if (err instanceof JwtMalformedError) return fail('malformed', err.message);
    throw err;
  }
  const alg = read.header.alg;
  if (typeof alg === 'string' && alg.toLowerCase() === 'none')
    return fail('algorithm_not_allowed', 'alg "none" (an unsigned token) is never accepted');
  // A JWS header must name its algorithm (RFC 7515 §4.1.1): without one the token is malformed.
  if (alg === undefined) return fail('malformed', 'the header has no "alg"');
  if (!isJwtAlgorithm(alg)) return fail('algorithm_not_allowed', `alg ${JSON.stringify(alg)} is not a supported JWS algorithm`);
  if (options.algorithms && !options.algorithms.includes(alg))
    return fail('algorithm_not_allowed', `alg ${alg} is not in the allowed algorithms (${options.algorithms.join(', ')})`);
  const mismatch = keyMismatch(alg, key);
  if (mismatch) return fail('algorithm_not_allowed', `the token's ${mismatch}`);
  const refusal = options.keyRefusal?.(alg);
  if (refusal) return fail('algorithm_not_allowed', `the token's alg is ${alg} and the public key ${refusal}`);
  // RFC 7515 §4.1.11: extensions named in `crit` must be understood, and this verifier knows none.
  if (Object.hasOwn(read.header, 'crit'))
    return fail('malformed', 'the header lists "crit" extensions, which this verifier does not support');

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

/** The body of `jwt-verify`, as the wire names it. */
export interface JwtVerifyInput {
  token: string;
  secret?: string;
  secret_encoding?: ByteEncoding;
  public_key?: WireKey;
  algorithms?: JwtAlgorithmName[];
  issuer?: string;
  subject?: string;
  audience?: string | string[];
  clock_tolerance: number;
}

/**
 * `POST /v1/auth/jwt-verify`: import the one key given (`secret` for HS*, else `public_key`; both
 * or neither is a 422, as is unusable key material) and {@link verifyCompactJwt} the token at
 * `now` (epoch milliseconds), a public JWK's own `alg`, `use` and `key_ops` respected.
 *
 * @example
 *   await verifyJwt({ token, secret: 'a-long-shared-secret', algorithms: ['HS256'], clock_tolerance: 0 }, Date.now())
 *   // { valid: true, header: { alg: 'HS256', typ: 'JWT' }, payload: { sub: '42', ... } }
 */
export function verifyJwt(input: JwtVerifyInput, now: number): Promise<VerifyOutcome> {
  if (input.secret !== undefined && input.public_key !== undefined)
    throw invalidField('public_key', 'cannot be given together with secret');
  if (input.secret === undefined && input.public_key === undefined) {
    throw new DevutilError('validation_error', 'Give secret (HS*) or public_key (other algorithms).', {
      errors: [{ path: 'secret', message: 'or public_key is required' }],
    });
  }
  const key = input.secret !== undefined ? importHmacSecret(input.secret, input.secret_encoding) : importPublicKey(input.public_key!);
  const publicKey = input.public_key;
  return verifyCompactJwt(input.token, key, {
    algorithms: input.algorithms,
    keyRefusal: publicKey === undefined ? undefined : (alg) => jwkRefusal(publicKey, alg, 'verify'),
    issuer: input.issuer,
    subject: input.subject,
    audience: input.audience,
    clockTolerance: input.clock_tolerance,
    now,
  });
}
