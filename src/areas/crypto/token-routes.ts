import type { KeyObject } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { DevutilError, invalidField } from '../../errors.js';
import type { ByteEncoding } from './bytes.js';
import { JWT_ALGORITHMS, keyMismatch, type JwtAlgorithmName } from './jwt-algorithms.js';
import { decodeJwt, JwtMalformedError } from './jwt-decode.js';
import { checkPrivateJwk, importHmacSecret, importPrivateKey, importPublicKey, jwkRefusal, type WireKey } from './jwt-keys.js';
import {
  jwtDecodeBody,
  jwtDecodeResponse,
  jwtGenerateBody,
  jwtGenerateResponse,
  jwtVerifyBody,
  jwtVerifyResponse,
  keypairBody,
  keypairResponse,
} from './jwt-schemas.js';
import { signJwt } from './jwt-sign.js';
import { verifyJwt } from './jwt-verify.js';
import { generateKeyPair, type KeyPairType } from './keypair.js';
import { postTool } from '../../http/tool-route.js';

interface KeyFields {
  secret?: string;
  secret_encoding?: ByteEncoding;
}

interface JwtGenerateWire extends KeyFields {
  payload: Record<string, unknown>;
  algorithm: JwtAlgorithmName;
  private_key?: WireKey;
  expires_in?: number;
  not_before?: number;
  issuer?: string;
  subject?: string;
  audience?: string | string[];
  header?: Record<string, unknown>;
}

interface JwtVerifyWire extends KeyFields {
  token: string;
  public_key?: WireKey;
  algorithms?: JwtAlgorithmName[];
  issuer?: string;
  subject?: string;
  audience?: string | string[];
  clock_tolerance: number;
}

/** jwt-generate, jwt-verify, jwt-decode and generate-keypair (CONTRACT §4). */
export default async function tokenRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  postTool(app, '/v1/auth/jwt-generate', {
    area: 'auth',
    schema: {
      summary: 'Sign a JWT (HS*, RS*, PS*, ES*, EdDSA)',
      description:
        'HS* take `secret` (+ `secret_encoding`); the others take `private_key` as PEM (PKCS#8, PKCS#1, SEC1) or a JWK. ' +
        'Giving the other key field is a 422, as is a key that does not fit the algorithm (type, EC curve, RSA outside 2048..8192 bits, ' +
        'an RSA-PSS key restricted to another hash, a JWK whose `alg`, `use` or `key_ops` rule it out, an EC or OKP JWK whose `d` does not match its `x`/`y`) ' +
        'and a PEM key, certificate or JWK given as an HMAC secret. `iat` is the current time unless the payload has one; ' +
        '`expires_in` and `not_before` are seconds from now; `issuer`/`subject`/`audience` override the payload\'s claims. ' +
        '`header` adds protected-header parameters (`typ` defaults to JWT; `alg` must match; `crit`/`b64` are refused). ' +
        'Signing is node:crypto: inline for HS*, ES256 and EdDSA (microseconds), on the thread pool for RS*, PS*, ES384 and ES512 ' +
        '(0.3 to 5 ms), so a large RSA key never stalls other requests. Private keys are never kept between requests, and ' +
        'importing one costs: a PEM about 0.35 ms (OpenSSL 3\'s decoders), an RSA JWK about 10 µs, an Ed25519 or P-256 JWK ' +
        '40-75 µs (a P-521 JWK about 1 ms), so JWKs suit frequent signing with RSA, Ed25519 or P-256 keys.',
      body: jwtGenerateBody,
      response: { 200: jwtGenerateResponse },
    },
  }, async (b: JwtGenerateWire) => {
    const isHmac = JWT_ALGORITHMS[b.algorithm].family === 'hmac';
    const [keyField, other] = isHmac ? ['secret', 'private_key'] : ['private_key', 'secret'];
    if (b[other as keyof JwtGenerateWire] !== undefined) throw invalidField(other, `does not apply to ${b.algorithm}; use ${keyField}`);
    if (b[keyField as keyof JwtGenerateWire] === undefined) throw invalidField(keyField, `is required for ${b.algorithm}`);
    const key = isHmac ? importHmacSecret(b.secret!, b.secret_encoding) : importPrivateKey(b.private_key!);
    const refusal = isHmac ? undefined : (keyMismatch(b.algorithm, key) ?? jwkRefusal(b.private_key!, b.algorithm, 'sign'));
    if (refusal) throw invalidField('private_key', refusal);
    if (!isHmac) await checkPrivateJwk(b.private_key!, key as KeyObject);
    return signJwt({
      algorithm: b.algorithm,
      key,
      keyField,
      payload: b.payload,
      expiresIn: b.expires_in,
      notBefore: b.not_before,
      issuer: b.issuer,
      subject: b.subject,
      audience: b.audience,
      header: b.header,
      now: ctx.now(),
    });
  });

  postTool(app, '/v1/auth/jwt-verify', {
    area: 'auth',
    schema: {
      summary: 'Verify a JWT signature and its claims',
      description:
        'Exactly one of `secret` (HS*) or `public_key` (PEM SPKI/PKCS#1/certificate or JWK; a private key is reduced to its ' +
        'public half). Unusable key material is a 422 (so is a PEM key or certificate given as `secret`). Every problem ' +
        'with the token itself is a 200 with `valid: false` and a `reason`: `alg: none`, an algorithm outside `algorithms` ' +
        'a key of another family, or a JWK whose `alg`, `use` or `key_ops` rule the algorithm out → algorithm_not_allowed; a `crit` header → malformed; then the signature → ' +
        'invalid_signature; then iss/sub/aud (each checked only when given) and non-numeric iat/nbf/exp → claim_mismatch, nbf → not_yet_valid, exp → expired ' +
        '(a token expires at `exp` exactly; both with `clock_tolerance`). Verification is node:crypto, inline for the checks ' +
        'of microseconds (HS*, RS*, PS*, ES256, EdDSA) and on the thread pool for ES384 and ES512 (about a millisecond each). ' +
        'A JWS whose payload is not a JSON object is malformed (the ' +
        'error says whether its signature held).',
      body: jwtVerifyBody,
      response: { 200: jwtVerifyResponse },
    },
  }, (b: JwtVerifyWire) => {
    if (b.secret !== undefined && b.public_key !== undefined) throw invalidField('public_key', 'cannot be given together with secret');
    if (b.secret === undefined && b.public_key === undefined) {
      throw new DevutilError('validation_error', 'Give secret (HS*) or public_key (other algorithms).', {
        errors: [{ path: 'secret', message: 'or public_key is required' }],
      });
    }
    const key = b.secret !== undefined ? importHmacSecret(b.secret, b.secret_encoding) : importPublicKey(b.public_key!);
    const publicKey = b.public_key;
    return verifyJwt(b.token, key, {
      algorithms: b.algorithms,
      keyRefusal: publicKey === undefined ? undefined : (alg) => jwkRefusal(publicKey, alg, 'verify'),
      issuer: b.issuer,
      subject: b.subject,
      audience: b.audience,
      clockTolerance: b.clock_tolerance,
      now: ctx.now(),
    });
  });

  postTool(app, '/v1/auth/jwt-decode', {
    area: 'auth',
    schema: {
      summary: 'Decode a JWT without verifying it',
      description: 'Header and claims as JSON, signature as base64url. Not three parts, bad base64url, or a header/payload that is not a JSON object → 422.',
      body: jwtDecodeBody,
      response: { 200: jwtDecodeResponse },
    },
  }, (body: { token: string }) => {
    try {
      return decodeJwt(body.token);
    } catch (err) {
      if (err instanceof JwtMalformedError) throw invalidField('token', err.message);
      throw err;
    }
  });

  postTool(app, '/v1/auth/generate-keypair', {
    area: 'auth',
    schema: {
      summary: 'Generate an RSA, EC or Ed25519 key pair',
      description:
        'RSA 2048/3072/4096 (e 65537), EC P-256/P-384/P-521, or Ed25519, as PEM (SPKI public, PKCS#8 private) or JWK. ' +
        '`modulus_length` applies to rsa only and `curve` to ec only (otherwise 422); ed25519 answers `curve: "Ed25519"`. ' +
        'Generation runs off the event loop.',
      body: keypairBody,
      response: { 200: keypairResponse },
    },
  }, async (b: { type: KeyPairType; modulus_length?: number; curve?: string; format: 'pem' | 'jwk' }) => {
    const pair = await generateKeyPair({ type: b.type, modulusLength: b.modulus_length, curve: b.curve, format: b.format });
    return { public_key: pair.publicKey, private_key: pair.privateKey, type: pair.type, modulus_length: pair.modulusLength, curve: pair.curve };
  });
}
