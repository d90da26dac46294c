import { invalidField } from '../../errors.js';
import { keyMismatch, type JwtAlgorithmName, type JwtKey } from './jwt-algorithms.js';
import { createSignature } from './jwt-signature.js';

export interface SignJwtInput {
  algorithm: JwtAlgorithmName;
  key: JwtKey;
  /** Wire field the key came from, for error paths (`secret` or `private_key`). */
  keyField: string;
  payload: Record<string, unknown>;
  /** Seconds from now. */
  expiresIn?: number;
  /** Seconds from now before which the token is not valid. */
  notBefore?: number;
  issuer?: string;
  subject?: string;
  audience?: string | string[];
  header?: Record<string, unknown>;
  /** Epoch milliseconds. */
  now: number;
}

export interface SignedJwt {
  token: string;
  header: Record<string, unknown>;
  payload: Record<string, unknown>;
}

/** Registered claims a payload may carry, with the type RFC 7519 §4.1 gives them. */
const CLAIM_TYPES: Record<string, (v: unknown) => boolean> = {
  exp: Number.isFinite,
  nbf: Number.isFinite,
  iat: Number.isFinite,
  iss: (v) => typeof v === 'string',
  sub: (v) => typeof v === 'string',
  aud: (v) => typeof v === 'string' || (Array.isArray(v) && v.every((x) => typeof x === 'string')),
  jti: (v) => typeof v === 'string',
};

// Header parameters the caller may not set: `alg` comes from `algorithm`; `crit`/`b64` change how
// the token must be processed and are not supported.
const RESERVED_HEADER = ['crit', 'b64'];
/** Header parameters RFC 7515 §4.1 defines as strings. */
const STRING_HEADER = ['typ', 'cty', 'kid', 'jku', 'x5u'];

const base64urlJson = (value: object) => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');

/**
 * Sign a JWT (RFC 7515 compact serialization of the JSON header and claims). `iat` is `now`
 * unless the payload carries one; `expiresIn`, `notBefore`, `issuer`, `subject` and `audience`
 * set (and override) `exp`, `nbf`, `iss`, `sub`, `aud`. Signing with RS*, PS*, ES384 and ES512
 * runs on the thread pool.
 *
 * @example
 *   await signJwt({ algorithm: 'HS256', key, keyField: 'secret', payload: { sub: '42' }, expiresIn: 3600, now: Date.now() })
 *   // { token: 'eyJ...', header: { alg: 'HS256', typ: 'JWT' }, payload: { sub: '42', iat: ..., exp: ... } }
 */
export async function signJwt(input: SignJwtInput): Promise<SignedJwt> {
  const mismatch = keyMismatch(input.algorithm, input.key);
  if (mismatch) throw invalidField(input.keyField, mismatch);
  for (const [claim, valid] of Object.entries(CLAIM_TYPES)) {
    if (Object.hasOwn(input.payload, claim) && !valid(input.payload[claim])) throw invalidField(`payload.${claim}`, 'has the wrong type for a registered claim');
  }
  const iat = Math.floor(input.now / 1000);
  // Spread copies own properties only (a `__proto__` key stays an ordinary claim).
  const payload: Record<string, unknown> = { ...input.payload };
  payload.iat = Object.hasOwn(input.payload, 'iat') ? input.payload.iat : iat;
  if (input.expiresIn !== undefined) payload.exp = iat + input.expiresIn;
  if (input.notBefore !== undefined) payload.nbf = iat + input.notBefore;
  if (input.issuer !== undefined) payload.iss = input.issuer;
  if (input.subject !== undefined) payload.sub = input.subject;
  if (input.audience !== undefined) payload.aud = input.audience;

  const extra = input.header ?? {};
  if (Object.hasOwn(extra, 'alg') && extra.alg !== input.algorithm) throw invalidField('header.alg', `must be absent or equal to algorithm (${input.algorithm})`);
  for (const name of RESERVED_HEADER) if (Object.hasOwn(extra, name)) throw invalidField(`header.${name}`, 'is not supported');
  for (const name of STRING_HEADER) if (Object.hasOwn(extra, name) && typeof extra[name] !== 'string') throw invalidField(`header.${name}`, 'must be a string (RFC 7515 §4.1)');
  // `alg` first, as jsonwebtoken and jose write it, so the same input gives the same token string.
  const header: Record<string, unknown> = { alg: input.algorithm, typ: 'JWT', ...extra };
  const signingInput = `${base64urlJson(header)}.${base64urlJson(payload)}`;
  const signature = await createSignature(input.algorithm, input.key, signingInput);
  return { token: `${signingInput}.${signature}`, header, payload };
}
