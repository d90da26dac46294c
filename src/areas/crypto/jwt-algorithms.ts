import type { KeyObject } from 'node:crypto';

/**
 * An HMAC secret as its bytes, shaped like a KeyObject where the algorithm checks look. node:crypto's
 * HMAC takes the bytes directly, which spares each request the native KeyObject a secret would need.
 */
export class HmacSecret {
  readonly type = 'secret';
  readonly asymmetricKeyType = undefined;
  readonly asymmetricKeyDetails = undefined;
  constructor(readonly bytes: Buffer) {}
}

/** A JWS key: an HMAC secret, or a public or private key. */
export type JwtKey = HmacSecret | KeyObject;

export type JwtFamily = 'hmac' | 'rsa' | 'rsa-pss' | 'ecdsa' | 'eddsa';

export interface JwtAlgorithm {
  family: JwtFamily;
  /** What the key must be: `secret` for HMAC, else node:crypto's `asymmetricKeyType`. */
  keyTypes: readonly string[];
  /** Required curve (node:crypto `namedCurve`, and its JOSE name) for ECDSA. */
  curve?: { node: string; jose: string };
  /** Smallest RSA modulus accepted (RFC 7518 §3.3). */
  minModulusBits?: number;
  /** Largest RSA modulus accepted: bigger keys only cost CPU. */
  maxModulusBits?: number;
  /** node:crypto digest of the signing input (null for Ed25519, which hashes internally). */
  hash: 'sha256' | 'sha384' | 'sha512' | null;
  /** ECDSA: bytes of the raw r||s signature JOSE uses (RFC 7518 §3.4). */
  signatureBytes?: number;
  /**
   * Operations that take 0.3 ms or more (RSA private-key signing: 0.3 ms at 2048 bits, 4.6 ms at
   * 4096; P-384 and P-521 signing and verifying: 0.9 to 2.2 ms) and so run on the thread pool.
   * Everything else (HMAC, ES256, EdDSA, RSA verification) takes microseconds and runs inline.
   */
  offEventLoop?: readonly ('sign' | 'verify')[];
}

const RSA = { keyTypes: ['rsa'], minModulusBits: 2048, maxModulusBits: 8192, offEventLoop: ['sign'] } as const;
const PSS = { keyTypes: ['rsa', 'rsa-pss'], minModulusBits: 2048, maxModulusBits: 8192, offEventLoop: ['sign'] } as const;
const SLOW_CURVE = { offEventLoop: ['sign', 'verify'] } as const;

/** JWS algorithms the service signs and verifies, one row each (RFC 7518 §3, RFC 8037). `none` is never one. */
export const JWT_ALGORITHMS = {
  HS256: { family: 'hmac', keyTypes: ['secret'], hash: 'sha256' },
  HS384: { family: 'hmac', keyTypes: ['secret'], hash: 'sha384' },
  HS512: { family: 'hmac', keyTypes: ['secret'], hash: 'sha512' },
  RS256: { family: 'rsa', ...RSA, hash: 'sha256' },
  RS384: { family: 'rsa', ...RSA, hash: 'sha384' },
  RS512: { family: 'rsa', ...RSA, hash: 'sha512' },
  PS256: { family: 'rsa-pss', ...PSS, hash: 'sha256' },
  PS384: { family: 'rsa-pss', ...PSS, hash: 'sha384' },
  PS512: { family: 'rsa-pss', ...PSS, hash: 'sha512' },
  ES256: { family: 'ecdsa', keyTypes: ['ec'], curve: { node: 'prime256v1', jose: 'P-256' }, hash: 'sha256', signatureBytes: 64 },
  ES384: {
    family: 'ecdsa',
    keyTypes: ['ec'],
    curve: { node: 'secp384r1', jose: 'P-384' },
    hash: 'sha384',
    signatureBytes: 96,
    ...SLOW_CURVE,
  },
  ES512: {
    family: 'ecdsa',
    keyTypes: ['ec'],
    curve: { node: 'secp521r1', jose: 'P-521' },
    hash: 'sha512',
    signatureBytes: 132,
    ...SLOW_CURVE,
  },
  EdDSA: { family: 'eddsa', keyTypes: ['ed25519'], hash: null },
} as const satisfies Record<string, JwtAlgorithm>;

export type JwtAlgorithmName = keyof typeof JWT_ALGORITHMS;
export const JWT_ALGORITHM_NAMES = Object.keys(JWT_ALGORITHMS) as JwtAlgorithmName[];

/** Narrow a header's `alg` to a supported algorithm name. */
export function isJwtAlgorithm(alg: unknown): alg is JwtAlgorithmName {
  return typeof alg === 'string' && Object.hasOwn(JWT_ALGORITHMS, alg);
}

const KEY_TYPE_NAMES: Record<string, string> = {
  rsa: 'RSA',
  'rsa-pss': 'RSA-PSS',
  ec: 'EC',
  ed25519: 'Ed25519',
  ed448: 'Ed448',
  x25519: 'X25519',
};
const nameKeyType = (type: string | undefined) => KEY_TYPE_NAMES[type ?? ''] ?? (type ?? 'unknown').toUpperCase();

// Every asymmetric type name starts with a vowel sound ("an RSA", "an EC", "an Ed25519").
function describeKey(key: JwtKey): string {
  if (key.type === 'secret') return 'an HMAC secret';
  const curve = key.asymmetricKeyDetails?.namedCurve;
  return `an ${nameKeyType(key.asymmetricKeyType)}${curve ? ` (${curve})` : ''} ${key.type} key`;
}

/**
 * Why a key cannot be used with an algorithm, or undefined when it can: the key type must match
 * the algorithm's family (an RSA key never verifies HS256), ECDSA keys their curve, RSA keys
 * 2048 to 8192 bits.
 *
 * @example
 *   keyMismatch('HS256', rsaPublicKey) // 'HS256 needs an HMAC secret, not an RSA public key'
 */
export function keyMismatch(alg: JwtAlgorithmName, key: JwtKey): string | undefined {
  const row: JwtAlgorithm = JWT_ALGORITHMS[alg];
  const type = key.type === 'secret' ? 'secret' : (key.asymmetricKeyType ?? 'unknown');
  const wanted = row.family === 'hmac' ? 'an HMAC secret' : `an ${row.keyTypes.map(nameKeyType).join(' or ')} key`;
  if (!row.keyTypes.includes(type)) return `${alg} needs ${wanted}, not ${describeKey(key)}`;
  if (row.curve && key.asymmetricKeyDetails?.namedCurve !== row.curve.node) {
    return `${alg} needs a ${row.curve.jose} key, not ${describeKey(key)}`;
  }
  const bits = key.asymmetricKeyDetails?.modulusLength;
  if (row.minModulusBits && bits !== undefined && bits < row.minModulusBits) {
    return `${alg} needs an RSA key of at least ${row.minModulusBits} bits, not ${bits}`;
  }
  if (row.maxModulusBits && bits !== undefined && bits > row.maxModulusBits) {
    return `${alg} takes RSA keys of at most ${row.maxModulusBits} bits, not ${bits}`;
  }
  return pssRestriction(alg, row, key);
}

/**
 * An RSA-PSS key may be restricted to one hash, one MGF1 hash and a minimum salt length
 * (RFC 4055 §3.1); OpenSSL then refuses any other use ("digest not allowed"). A JWS PS* signature
 * uses the algorithm's hash for both and a salt as long as that hash's output (RFC 7518 §3.5).
 */
function pssRestriction(alg: JwtAlgorithmName, row: JwtAlgorithm, key: JwtKey): string | undefined {
  if (row.family !== 'rsa-pss' || key.type === 'secret' || key.asymmetricKeyType !== 'rsa-pss') return undefined;
  const details = key.asymmetricKeyDetails ?? {};
  const saltBytes = Number(row.hash?.slice(3)) / 8;
  for (const used of [details.hashAlgorithm, details.mgf1HashAlgorithm]) {
    if (used !== undefined && used !== row.hash)
      return `${alg} hashes with ${row.hash!.toUpperCase()}, and this RSA-PSS key is restricted to ${used.toUpperCase()}`;
  }
  if (details.saltLength !== undefined && details.saltLength > saltBytes) {
    return `${alg} uses a ${saltBytes}-byte salt, and this RSA-PSS key requires at least ${details.saltLength} bytes`;
  }
  return undefined;
}
