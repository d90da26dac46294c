// The JWT page's pure logic: a token split into its coloured parts, the time claims in words, the
// verify reasons in words, and which key pair each signing algorithm takes.
import type { Inputs } from './types';

/** One run of the token box: a part of the token (header, payload, signature, any extra part of a JWE) or a dot. */
export interface TokenPart {
  kind: 'header' | 'payload' | 'signature' | 'extra' | 'dot';
  text: string;
}

const PART_KINDS = ['header', 'payload', 'signature'] as const;

/**
 * A token as the runs the token box colours, in order; the texts joined give the token back.
 *
 * @example
 *   tokenParts('aa.bb.cc') // [{ kind: 'header', text: 'aa' }, { kind: 'dot', text: '.' }, { kind: 'payload', text: 'bb' }, ...]
 */
export function tokenParts(token: string): TokenPart[] {
  if (token === '') return [];
  const parts: TokenPart[] = [];
  token.split('.').forEach((text, i) => {
    if (i > 0) parts.push({ kind: 'dot', text: '.' });
    if (text !== '') parts.push({ kind: PART_KINDS[i] ?? 'extra', text });
  });
  return parts;
}

/** A pasted token without the spaces and line breaks a mail or a terminal adds. */
export const cleanToken = (text: string): string => text.replace(/\s+/g, '');

const UNITS: [string, number][] = [
  ['year', 365 * 86_400],
  ['month', 30 * 86_400],
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
  ['second', 1],
];

/**
 * A length of time in the largest unit that fits, whole units, within 2% (so 7198 s is "2 hours");
 * under 5 s, "a few seconds".
 *
 * @example
 *   durationText(185) // '3 minutes'
 */
export function durationText(seconds: number): string {
  const s = Math.abs(seconds);
  if (s < 5) return 'a few seconds';
  for (const [unit, size] of UNITS) {
    const n = Math.floor((s + size * 0.02) / size);
    if (n >= 1) return `${n} ${unit}${n === 1 ? '' : 's'}`;
  }
  return `${Math.round(s)} seconds`;
}

/** The time claims the page explains, in the order shown, with their names in words. */
export const TIME_CLAIMS = [
  { claim: 'iat', name: 'Issued at' },
  { claim: 'nbf', name: 'Not before' },
  { claim: 'exp', name: 'Expires' },
] as const;

export type TimeClaim = (typeof TIME_CLAIMS)[number]['claim'];

/** A time claim against the clock: what it means now, and whether that makes the token unusable. */
export interface TimeClaimStatus {
  text: string;
  /** `bad` for an expired or not-yet-valid token, `good` for one still in force, `neutral` for iat. */
  tone: 'good' | 'bad' | 'neutral';
}

/**
 * What `claim` at `at` (seconds, as in the token) means at `now` (milliseconds).
 *
 * @example
 *   timeClaimStatus('exp', 1_700_000_000, 1_700_000_185_000) // { text: 'expired 3 minutes ago', tone: 'bad' }
 *   timeClaimStatus('exp', 1_700_007_200, 1_700_000_000_000) // { text: 'valid for 2 hours', tone: 'good' }
 */
export function timeClaimStatus(claim: TimeClaim, at: number, now: number): TimeClaimStatus {
  const delta = at - now / 1000;
  const span = durationText(delta);
  const past = delta <= 0;
  switch (claim) {
    case 'exp':
      return past ? { text: `expired ${span} ago`, tone: 'bad' } : { text: `valid for ${span}`, tone: 'good' };
    case 'nbf':
      return past ? { text: `valid since ${span} ago`, tone: 'good' } : { text: `not valid yet: valid in ${span}`, tone: 'bad' };
    case 'iat':
      return past ? { text: `issued ${span} ago`, tone: 'neutral' } : { text: `issued in the future (in ${span})`, tone: 'bad' };
  }
}

/** The time claims of a payload that are numbers, each with its date and meaning at `now`. */
export function timeClaimsOf(
  payload: Record<string, unknown>,
  now: number,
): { claim: TimeClaim; name: string; at: number; iso: string; status: TimeClaimStatus }[] {
  return TIME_CLAIMS.flatMap(({ claim, name }) => {
    const at = payload[claim];
    if (typeof at !== 'number' || !Number.isFinite(at)) return [];
    const date = new Date(at * 1000);
    if (Number.isNaN(date.getTime())) return [];
    return [{ claim, name, at, iso: date.toISOString(), status: timeClaimStatus(claim, at, now) }];
  });
}

/** `jwt-verify`'s reasons for `valid: false`, in words. */
export const REASON_WORDS: Record<string, string> = {
  expired: 'The token has expired',
  not_yet_valid: 'The token is not valid yet',
  invalid_signature: 'The signature does not match',
  claim_mismatch: 'A claim does not match what was expected',
  malformed: 'The token is malformed',
  algorithm_not_allowed: 'The algorithm is not allowed',
};

/** HS* algorithms take a shared secret; the others a key pair. */
export const isHmac = (algorithm: string): boolean => algorithm.startsWith('HS');

/**
 * The `generate-keypair` inputs of a key pair that `algorithm` signs with (PEM).
 *
 * @example
 *   keyPairInputsFor('ES384') // { type: 'ec', curve: 'P-384', modulus_length: '', format: 'pem' }
 */
export function keyPairInputsFor(algorithm: string): Inputs {
  const base = { modulus_length: '', curve: '', format: 'pem' };
  if (algorithm === 'EdDSA') return { ...base, type: 'ed25519' };
  const curve = { ES256: 'P-256', ES384: 'P-384', ES512: 'P-521' }[algorithm];
  if (curve !== undefined) return { ...base, type: 'ec', curve };
  return { ...base, type: 'rsa', modulus_length: '2048' };
}

/**
 * The algorithm a generated key pair signs with by default: RS256 for RSA, ES256/384/512 by curve, EdDSA.
 *
 * @example
 *   algorithmForKeyPair({ type: 'ec', curve: 'P-521' }) // 'ES512'
 */
export function algorithmForKeyPair({ type, curve }: { type?: unknown; curve?: unknown }): string {
  if (type === 'ed25519') return 'EdDSA';
  if (type === 'ec') return { 'P-384': 'ES384', 'P-521': 'ES512' }[String(curve)] ?? 'ES256';
  return 'RS256';
}

/** A key of an answer (PEM text or a JWK object) as the text a key field holds. */
export const keyText = (key: unknown): string => (typeof key === 'string' ? key : JSON.stringify(key, null, 2));
