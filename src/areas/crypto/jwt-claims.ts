/** A claim check that failed: which reason of the contract, and why. */
export interface ClaimFailure {
  reason: 'expired' | 'not_yet_valid' | 'claim_mismatch';
  error: string;
}

export interface ClaimExpectations {
  issuer?: string;
  subject?: string;
  audience?: string | string[];
  /** Seconds of leeway for `exp` and `nbf`. */
  clockTolerance: number;
  /** Epoch milliseconds. */
  now: number;
}

const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/**
 * Check registered claims as RFC 7519 §4.1 defines them, in jose's order: `iss`, `sub` and `aud`
 * (when the caller expects them), the types of `iat`/`nbf`/`exp`, then `nbf` and `exp` against
 * `now` ± `clockTolerance`. A token expires at `exp` exactly.
 *
 * @example
 *   checkClaims({ exp: 1 }, { clockTolerance: 0, now: Date.now() }) // { reason: 'expired', error: '...' }
 */
export function checkClaims(payload: Record<string, unknown>, expect: ClaimExpectations): ClaimFailure | undefined {
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
    if (!given.some((a) => wanted.includes(a))) return mismatch(`aud ${JSON.stringify(payload.aud ?? null)} names none of ${wanted.join(', ')}`);
  }
  for (const claim of ['iat', 'nbf', 'exp']) {
    if (Object.hasOwn(payload, claim) && !isNumber(payload[claim])) return mismatch(`${claim} must be a number of seconds`);
  }
  const now = Math.floor(expect.now / 1000);
  const { nbf, exp } = payload;
  if (isNumber(nbf) && nbf > now + expect.clockTolerance) {
    return { reason: 'not_yet_valid', error: `the token is not valid before ${new Date(nbf * 1000).toISOString()} (nbf ${nbf})` };
  }
  if (isNumber(exp) && exp <= now - expect.clockTolerance) {
    return { reason: 'expired', error: `the token expired at ${new Date(exp * 1000).toISOString()} (exp ${exp})` };
  }
  return undefined;
}
