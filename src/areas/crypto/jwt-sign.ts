import type { KeyObject } from 'node:crypto';
import { invalidField } from '../../errors.js';
import type { ByteEncoding } from './bytes.js';
import type { CryptoWorkers } from './crypto-workers.js';
import { JWT_ALGORITHMS, keyMismatch, type JwtAlgorithmName, type JwtKey } from './jwt-algorithms.js';
import { checkPrivateJwk, importHmacSecret, importPrivateKey, jwkRefusal, type WireKey } from './jwt-keys.js';
import { createSignature } from './jwt-signature.js';

/** The body of `jwt-generate`, as the wire names it. */
export interface JwtGenerateInput {
  payload: Record<string, unknown>;
  algorithm: JwtAlgorithmName;
  secret?: string;
  secret_encoding?: ByteEncoding;
  private_key?: WireKey;
  /** Seconds from now → `exp`. */
  expires_in?: number;
  /** Seconds from now → `nbf`. */
  not_before?: number;
  issuer?: string;
  subject?: string;
  audience?: string | string[];
  header?: Record<string, unknown>;
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
 * The signing key the algorithm takes: `secret` for HS*, `private_key` for the others. The other
 * field, a missing one, or a key the algorithm (or the JWK's own `alg`, `use`, `key_ops`, or an EC
 * or OKP JWK whose public part is not its private part's) rules out is a 422 naming the field.
 */
async function readSigningKey(input: JwtGenerateInput, workers: Pick<CryptoWorkers, 'run'>): Promise<JwtKey> {
  const isHmac = JWT_ALGORITHMS[input.algorithm].family === 'hmac';
  const [keyField, other] = isHmac ? (['secret', 'private_key'] as const) : (['private_key', 'secret'] as const);
  if (input[other] !== undefined) throw invalidField(other, `does not apply to ${input.algorithm}; use ${keyField}`);
  if (input[keyField] === undefined) throw invalidField(keyField, `is required for ${input.algorithm}`);
  if (isHmac) return importHmacSecret(input.secret!, input.secret_encoding);
  const key = importPrivateKey(input.private_key!);
  const refusal = keyMismatch(input.algorithm, key) ?? jwkRefusal(input.private_key!, input.algorithm, 'sign');
  if (refusal) throw invalidField('private_key', refusal);
  await checkPrivateJwk(input.private_key!, key as KeyObject, workers);
  return key;
}

/**
 * `POST /v1/auth/jwt-generate`: sign a JWT (RFC 7515 compact serialization of the JSON header and
 * claims). `iat` is `now` (epoch milliseconds) unless the payload carries one; `expires_in`,
 * `not_before`, `issuer`, `subject` and `audience` set (and override) `exp`, `nbf`, `iss`, `sub`,
 * `aud`. Signing with RS*, PS*, ES384 and ES512 runs on the thread pool; checking that a P-384 or P-521
 * JWK's public part is its private part's runs on `workers`.
 *
 * @example
 *   await signJwt({ algorithm: 'HS256', secret: 'a-long-shared-secret', payload: { sub: '42' }, expires_in: 3600 }, Date.now(), workers)
 *   // { token: 'eyJ...', header: { alg: 'HS256', typ: 'JWT' }, payload: { sub: '42', iat: ..., exp: ... } }
 */
export async function signJwt(input: JwtGenerateInput, now: number, workers: Pick<CryptoWorkers, 'run'>): Promise<SignedJwt> {
  const key = await readSigningKey(input, workers);
  for (const [claim, valid] of Object.entries(CLAIM_TYPES)) {
    if (Object.hasOwn(input.payload, claim) && !valid(input.payload[claim]))
      throw invalidField(`payload.${claim}`, 'has the wrong type for a registered claim');
  }
  const iat = Math.floor(now / 1000);
  // Spread copies own properties only (a `__proto__` key stays an ordinary claim).
  const payload: Record<string, unknown> = { ...input.payload };
  payload.iat = Object.hasOwn(input.payload, 'iat') ? input.payload.iat : iat;
  if (input.expires_in !== undefined) payload.exp = iat + input.expires_in;
  if (input.not_before !== undefined) payload.nbf = iat + input.not_before;
  if (input.issuer !== undefined) payload.iss = input.issuer;
  if (input.subject !== undefined) payload.sub = input.subject;
  if (input.audience !== undefined) payload.aud = input.audience;

  const extra = input.header ?? {};
  if (Object.hasOwn(extra, 'alg') && extra.alg !== input.algorithm)
    throw invalidField('header.alg', `must be absent or equal to algorithm (${input.algorithm})`);
  for (const name of RESERVED_HEADER) if (Object.hasOwn(extra, name)) throw invalidField(`header.${name}`, 'is not supported');
  for (const name of STRING_HEADER)
    if (Object.hasOwn(extra, name) && typeof extra[name] !== 'string')
      throw invalidField(`header.${name}`, 'must be a string (RFC 7515 §4.1)');
  // `alg` first, as jsonwebtoken and jose write it, so the same input gives the same token string.
  const header: Record<string, unknown> = { alg: input.algorithm, typ: 'JWT', ...extra };
  const signingInput = `${base64urlJson(header)}.${base64urlJson(payload)}`;
  const signature = await createSignature(input.algorithm, key, signingInput);
  return { token: `${signingInput}.${signature}`, header, payload };
}
