import { generateKeyPair as generateKeyPairCallback, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';
import { invalidField } from '../../errors.js';
import { runCpuBound } from './crypto-workers.js';

const generateKeyPairAsync = promisify(generateKeyPairCallback);

export const RSA_MODULUS_LENGTHS = [2048, 3072, 4096] as const;
/** JOSE curve name → node:crypto's. */
export const EC_CURVES = { 'P-256': 'prime256v1', 'P-384': 'secp384r1', 'P-521': 'secp521r1' } as const;
export type EcCurve = keyof typeof EC_CURVES;

/** The body of `generate-keypair`, as the wire names it. */
export interface KeyPairInput {
  type: KeyPairType;
  modulus_length?: number;
  curve?: string;
  format: 'pem' | 'jwk';
}

export interface GeneratedKeyPair {
  public_key: string | Record<string, unknown>;
  private_key: string | Record<string, unknown>;
  type: KeyPairType;
  modulus_length?: number;
  curve?: string;
}

interface KeyPairRow {
  /** Which option this type reads (the other one is a 422). */
  option?: 'modulus_length' | 'curve';
  generate(o: KeyPairInput): Promise<{ publicKey: KeyObject; privateKey: KeyObject }>;
  describe(o: KeyPairInput): { modulus_length?: number; curve?: string };
}

/** Key-pair types, one row each; generation runs on the libuv thread pool. */
export const KEYPAIR_TYPES = {
  rsa: {
    option: 'modulus_length',
    generate: (o) => generateKeyPairAsync('rsa', { modulusLength: o.modulus_length ?? 2048, publicExponent: 0x10001 }),
    describe: (o) => ({ modulus_length: o.modulus_length ?? 2048 }),
  },
  ec: {
    option: 'curve',
    generate: (o) => generateKeyPairAsync('ec', { namedCurve: EC_CURVES[(o.curve ?? 'P-256') as EcCurve] }),
    describe: (o) => ({ curve: o.curve ?? 'P-256' }),
  },
  ed25519: {
    generate: () => generateKeyPairAsync('ed25519'),
    describe: () => ({ curve: 'Ed25519' }),
  },
} satisfies Record<string, KeyPairRow>;

export type KeyPairType = keyof typeof KEYPAIR_TYPES;
export const KEYPAIR_TYPE_NAMES = Object.keys(KEYPAIR_TYPES) as KeyPairType[];

function exportKey(key: KeyObject, format: 'pem' | 'jwk'): string | Record<string, unknown> {
  if (format === 'jwk') return key.export({ format: 'jwk' }) as Record<string, unknown>;
  return key.type === 'public' ? String(key.export({ type: 'spki', format: 'pem' })) : String(key.export({ type: 'pkcs8', format: 'pem' }));
}

/**
 * `POST /v1/auth/generate-keypair`: an RSA, EC or Ed25519 key pair generated without blocking the
 * event loop, as SPKI/PKCS#8 PEM or JWK. An option of another type (`curve` for RSA,
 * `modulus_length` for EC) is a 422.
 *
 * @example
 *   await generateKeyPair({ type: 'ec', curve: 'P-384', format: 'pem' })
 *   // { public_key: '-----BEGIN PUBLIC KEY-----...', private_key: '-----BEGIN PRIVATE KEY-----...', type: 'ec', curve: 'P-384' }
 */
export async function generateKeyPair(options: KeyPairInput): Promise<GeneratedKeyPair> {
  const row: KeyPairRow = KEYPAIR_TYPES[options.type];
  if (options.modulus_length !== undefined && row.option !== 'modulus_length')
    throw invalidField('modulus_length', `does not apply to ${options.type}`);
  if (options.curve !== undefined && row.option !== 'curve') throw invalidField('curve', `does not apply to ${options.type}`);
  const pair = await runCpuBound(() => row.generate(options));
  return {
    public_key: exportKey(pair.publicKey, options.format),
    private_key: exportKey(pair.privateKey, options.format),
    type: options.type,
    ...row.describe(options),
  };
}
