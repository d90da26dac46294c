import { createPrivateKey, createPublicKey, X509Certificate, type JsonWebKey, type KeyObject } from 'node:crypto';
import { invalidField } from '../../errors.js';
import { jsonDepth, MAX_JSON_DEPTH } from '../../lib/json-depth.js';
import { ecPublicPoint } from './ec-point.js';
import type { CryptoWorkers } from './crypto-workers.js';
import { createTtlCache } from '../../lib/ttl-cache.js';
import { decodeBytes, type ByteEncoding } from './bytes.js';
import { HmacSecret } from './jwt-algorithms.js';

/** A key as the wire carries it: PEM text, or a JWK as an object or as JSON text. */
export type WireKey = string | Record<string, unknown>;

// A PEM block or a JSON object offered as an HMAC secret is almost always the public key of an
// RS/ES token: accepting it is the classic algorithm-confusion attack.
const LOOKS_LIKE_KEY = /-----BEGIN [A-Z0-9 ]+-----|^\s*\{\s*"(?:kty|keys)"/;

/**
 * The HMAC key of `secret` read in its `secret_encoding`; a PEM key or certificate, or a JWK,
 * offered as a secret is a 422.
 *
 * @example
 *   importHmacSecret('AyM1SysPpbyDfgZld3umj1qzKObwVMkoqQ-EstJQLr_T-1qS0gZH75aKtMN3Yj0iPS4hcgUuTwjAzZr1Z9CAow', 'base64url')
 */
export function importHmacSecret(secret: string, encoding: ByteEncoding | undefined): HmacSecret {
  const bytes = decodeBytes(secret, encoding, 'secret');
  const text = bytes.toString('latin1');
  const json = wireKeyOf(text);
  // A JWK in any member order (node:crypto exports `kty` last), or a JWK set, is a key too.
  if (LOOKS_LIKE_KEY.test(text) || (typeof json === 'object' && (Object.hasOwn(json, 'kty') || Object.hasOwn(json, 'keys')))) {
    throw invalidField('secret', 'is a PEM key, certificate or JWK; an HMAC secret must be a shared secret, never a public key');
  }
  if (bytes.length === 0) throw invalidField('secret', 'must not be empty');
  return new HmacSecret(bytes);
}

/**
 * A JWK pasted as JSON text (`"{\"kty\":\"EC\",…}"`) as the object it spells; any other key as it is.
 *
 * @example
 *   wireKeyOf('{"kty":"OKP","crv":"Ed25519","x":"11qY…"}') // { kty: 'OKP', crv: 'Ed25519', x: '11qY…' }
 */
function wireKeyOf(key: WireKey): WireKey {
  if (typeof key !== 'string' || !/^\s*\{/.test(key)) return key;
  // No JWK nests deeply; deeper text stays text (and is refused as a key), never a value too deep to handle.
  if (key.length > MAX_JSON_DEPTH && jsonDepth(key) > MAX_JSON_DEPTH) return key;
  try {
    const parsed: unknown = JSON.parse(key);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : key;
  } catch {
    return key;
  }
}

/**
 * A private key from PEM (PKCS#8, PKCS#1 RSA, SEC1 EC) or a JWK (an object, or its JSON text);
 * anything else is a 422 on `private_key`.
 *
 * @example
 *   importPrivateKey('-----BEGIN PRIVATE KEY-----\n...') // KeyObject { type: 'private' }
 */
export function importPrivateKey(wire: WireKey): KeyObject {
  const key = wireKeyOf(wire);
  let imported: KeyObject | undefined;
  try {
    imported = typeof key === 'string' ? createPrivateKey(key) : createPrivateKey({ key: key as JsonWebKey, format: 'jwk' });
  } catch {
    // reported below with one message for every unusable input
  }
  if (imported?.type === 'private') return imported;
  throw invalidField('private_key', 'is not a private key (PEM PKCS#8, PKCS#1 or SEC1, or a JWK with its private part)');
}

/** OpenSSL's names of the JWK curves, and whether deriving a point there is slow enough (1-2 ms) for a worker. */
const EC_CURVES: Record<string, { openssl: string; slow: boolean }> = {
  'P-256': { openssl: 'prime256v1', slow: false },
  secp256k1: { openssl: 'secp256k1', slow: false },
  'P-384': { openssl: 'secp384r1', slow: true },
  'P-521': { openssl: 'secp521r1', slow: true },
};

/** An EC JWK coordinate (base64url) as a number's bytes without leading zeros, so `AAEC` and `AQI` compare equal (node:crypto accepts both). */
const coordinate = (text: unknown) =>
  typeof text === 'string'
    ? Buffer.from(text, 'base64url')
        .toString('hex')
        .replace(/^(?:00)+/, '')
    : '';

function mismatchedPair(): never {
  throw invalidField(
    'private_key',
    'is a JWK whose public part (x, y) does not belong to its private part (d): its tokens would never verify',
  );
}

/**
 * An EC or OKP private JWK carries its public point too, and nothing makes the two agree: for EC,
 * node:crypto keeps the given `x`/`y` and signs with `d`, so a `d` from another key (or 0, or the
 * group order) signs tokens that the key's own public part never verifies. This derives the point
 * from `d` (node:crypto does it for OKP; ECDH for EC: inline on P-256 and secp256k1, tens of
 * microseconds, in a worker thread on P-384 and P-521) and refuses a mismatch with a 422 on
 * `private_key`. PEM keys and RSA JWKs pass (checking an RSA JWK would take a signature).
 *
 * @example
 *   await checkPrivateJwk({ ...p256Jwk, d: otherKeysD }, importedKey, workers) // throws: 422 on private_key
 */
export async function checkPrivateJwk(wire: WireKey, imported: KeyObject, workers: Pick<CryptoWorkers, 'run'>): Promise<void> {
  const jwk = wireKeyOf(wire);
  if (typeof jwk === 'string') return;
  if (jwk.kty === 'OKP') {
    // An OKP `x` is a fixed-length byte string (RFC 8037), compared byte for byte.
    if (createPublicKey(imported).export({ format: 'jwk' }).x !== jwk.x) mismatchedPair();
    return;
  }
  const curve = jwk.kty === 'EC' ? EC_CURVES[String(jwk.crv)] : undefined;
  if (curve === undefined || typeof jwk.d !== 'string') return;
  // A worker that fails is the service's fault (a 5xx), not the key's: only an invalid scalar (null) refuses it.
  const point = curve.slow ? await workers.run('ec-public-point', curve.openssl, jwk.d) : ecPublicPoint(curve.openssl, jwk.d);
  if (point === null) mismatchedPair(); // d out of range (0, or not below the group order)
  const bytes = Buffer.from(point, 'base64url'); // 0x04 || X || Y
  const size = (bytes.length - 1) / 2;
  const x = bytes.subarray(1, 1 + size).toString('base64url');
  const y = bytes.subarray(1 + size).toString('base64url');
  if (coordinate(x) !== coordinate(jwk.x) || coordinate(y) !== coordinate(jwk.y)) mismatchedPair();
}

/**
 * Public keys imported lately, by their wire text. Importing a PEM or JWK costs 0.1 to 0.2 ms
 * (OpenSSL's decoders), more than verifying most signatures, and a caller usually checks many
 * tokens against one key. Only public material is kept: never a private key (whose public half
 * this route also accepts) nor a secret.
 */
const publicKeys = createTtlCache<KeyObject>({ maxEntries: 256, minTtlSeconds: 3600, maxTtlSeconds: 3600, now: Date.now });
/** Longest wire text kept (a certificate chain's first PEM, an RSA-8192 JWK fit easily). */
const MAX_CACHED_KEY_CHARS = 16 * 1024;

function publicCacheKey(key: WireKey): string | undefined {
  if (typeof key === 'string') return key.includes('PRIVATE') ? undefined : `pem:${key}`;
  // A JWK with any of these members carries private material (RFC 7518 §6.2.2, §6.3.2, §6.4.1; RFC 8037 §2).
  if (['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'].some((member) => Object.hasOwn(key, member))) return undefined;
  return `jwk:${JSON.stringify(key)}`;
}

function readPublicKey(key: WireKey): KeyObject | undefined {
  try {
    if (typeof key === 'string' && key.includes('-----BEGIN CERTIFICATE-----')) return new X509Certificate(key).publicKey;
    const imported = typeof key === 'string' ? createPublicKey(key) : createPublicKey({ key: key as JsonWebKey, format: 'jwk' });
    if (imported.type === 'public') return imported;
  } catch {
    // reported by the caller with one message for every unusable input
  }
  return undefined;
}

/**
 * A public key from PEM (SPKI, PKCS#1, an X.509 certificate, or a private key whose public half
 * is taken) or a JWK (an object, or its JSON text); anything else is a 422 on `public_key`. Public keys seen lately come
 * from a cache (256 keys, an hour).
 *
 * @example
 *   importPublicKey({ kty: 'OKP', crv: 'Ed25519', x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo' })
 */
export function importPublicKey(wire: WireKey): KeyObject {
  const key = wireKeyOf(wire);
  const cacheKey = publicCacheKey(key);
  const cached = cacheKey === undefined ? undefined : publicKeys.get(cacheKey);
  if (cached) return cached;
  const imported = readPublicKey(key);
  if (!imported) throw invalidField('public_key', 'is not a public key (PEM SPKI or PKCS#1, an X.509 certificate, or a public JWK)');
  if (cacheKey !== undefined && cacheKey.length <= MAX_CACHED_KEY_CHARS) publicKeys.set(cacheKey, imported, 3600);
  return imported;
}

/**
 * Why a JWK's own `alg`, `use` and `key_ops` members (RFC 7517 §4.2-4.4) forbid `operation` with
 * `alg`, or undefined when they allow it (or the key is not a JWK). A key published for one
 * algorithm, or for encryption, is not used for anything else, as jose's key selection does.
 *
 * @example
 *   jwkRefusal({ kty: 'RSA', alg: 'PS256', n: '…', e: 'AQAB' }, 'RS256', 'verify') // 'is a JWK for alg PS256 only'
 */
export function jwkRefusal(wire: WireKey, alg: string, operation: 'sign' | 'verify'): string | undefined {
  const key = wireKeyOf(wire);
  if (typeof key === 'string') return undefined;
  // WebCrypto (and RFC 9864) name Ed25519/Ed448 keys by their curve; JWS calls both EdDSA.
  const keyAlg = (key.alg === 'Ed25519' || key.alg === 'Ed448') && key.alg === key.crv ? 'EdDSA' : key.alg;
  if (typeof keyAlg === 'string' && keyAlg !== alg) return `is a JWK for alg ${String(key.alg)} only`;
  if (typeof key.use === 'string' && key.use !== 'sig') return `is a JWK for use "${key.use}", not signatures`;
  // A private JWK given to verify is reduced to its public half, which may verify whatever the private half may sign.
  const allowed = operation === 'verify' && Object.hasOwn(key, 'd') ? ['verify', 'sign'] : [operation];
  if (Array.isArray(key.key_ops) && !key.key_ops.some((op) => allowed.includes(op)))
    return `is a JWK whose key_ops (${key.key_ops.join(', ')}) do not include "${operation}"`;
  return undefined;
}
