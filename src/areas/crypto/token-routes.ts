import type { KeyObject } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { DevutilError, invalidField } from '../../errors.js';
import type { ByteEncoding } from './bytes.js';
import { JWT_ALGORITHMS, keyMismatch, type JwtAlgorithmName } from './jwt-algorithms.js';
import { decodeJwt, JwtMalformedError } from './jwt-decode.js';
import { checkPrivateJwk, importHmacSecret, importPrivateKey, importPublicKey, jwkRefusal, type WireKey } from './jwt-keys.js';
import { generateKeypairSchema, jwtDecodeSchema, jwtGenerateSchema, jwtVerifySchema } from './jwt-schemas.js';
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
    schema: jwtGenerateSchema,
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
    schema: jwtVerifySchema,
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
    schema: jwtDecodeSchema,
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
    schema: generateKeypairSchema,
  }, async (b: { type: KeyPairType; modulus_length?: number; curve?: string; format: 'pem' | 'jwk' }) => {
    const pair = await generateKeyPair({ type: b.type, modulusLength: b.modulus_length, curve: b.curve, format: b.format });
    return { public_key: pair.publicKey, private_key: pair.privateKey, type: pair.type, modulus_length: pair.modulusLength, curve: pair.curve };
  });
}
