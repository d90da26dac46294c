import { byteEncodingSchema } from './bytes.js';
import { JWT_ALGORITHM_NAMES } from './jwt-algorithms.js';
import { VERIFY_REASONS } from './jwt-verify.js';
import { EC_CURVES, KEYPAIR_TYPE_NAMES, RSA_MODULUS_LENGTHS } from './keypair.js';

const TEN_YEARS = 10 * 365 * 86_400;
const anyObject = { type: 'object', additionalProperties: true } as const;
const audience = {
  anyOf: [{ type: 'string', maxLength: 1024 }, { type: 'array', minItems: 1, maxItems: 50, items: { type: 'string', maxLength: 1024 } }],
} as const;
const keySchema = (what: string) => ({
  anyOf: [{ type: 'string', minLength: 1, maxLength: 65_536 }, { type: 'object', additionalProperties: true }],
  description: `${what} as PEM text or a JWK (an object, or its JSON text).`,
});
const secret = { type: 'string', minLength: 1, maxLength: 65_536, description: 'HMAC secret (HS*), read in `secret_encoding` (utf8 default).' } as const;

const EXAMPLE_TOKEN =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ1c2VyXzQyIiwicm9sZSI6ImFkbWluIiwiaWF0IjoxNzYzNzE3NzMwLCJleHAiOjE3NjM3MjEzMzB9.' +
  '9pfMmtv_ilgiM3dveJZ-QgZODDRcCg_rCCMzg86xtQ8';
const examplePayload = { sub: 'user_42', role: 'admin', iat: 1763717730, exp: 1763721330 };

/** Wire schemas of the JWT and key-pair endpoints (CONTRACT §4). */
export const jwtGenerateBody = {
  type: 'object',
  required: ['payload'],
  additionalProperties: false,
  properties: {
    payload: { ...anyObject, description: 'Claims. Registered claims must have their RFC 7519 types.' },
    algorithm: { type: 'string', enum: JWT_ALGORITHM_NAMES, default: 'HS256' },
    secret,
    secret_encoding: byteEncodingSchema,
    private_key: keySchema('Private key for RS/PS/ES/EdDSA: PEM (PKCS#8, PKCS#1, SEC1)'),
    expires_in: { type: 'integer', minimum: 1, maximum: TEN_YEARS, description: 'Seconds from now → `exp`.' },
    not_before: { type: 'integer', minimum: 0, maximum: TEN_YEARS, description: 'Seconds from now → `nbf`.' },
    issuer: { type: 'string', maxLength: 1024 },
    subject: { type: 'string', maxLength: 1024 },
    audience,
    header: { ...anyObject, description: 'Extra protected-header parameters (e.g. `kid`); `alg` is set from `algorithm`, `typ` defaults to JWT. The header is written `alg` first, then `typ`, then these, as jsonwebtoken and jose write it; `typ`, `cty` and `kid` must be strings (RFC 7515 §4.1).' },
  },
  examples: [{ payload: { sub: 'user_42', role: 'admin' }, algorithm: 'HS256', secret: 'a-long-shared-secret-of-32-bytes!', expires_in: 3600 }],
} as const;

export const jwtGenerateResponse = {
  type: 'object',
  required: ['token', 'header', 'payload'],
  properties: { token: { type: 'string' }, header: anyObject, payload: anyObject },
  examples: [{ token: EXAMPLE_TOKEN, header: { alg: 'HS256', typ: 'JWT' }, payload: examplePayload }],
} as const;

export const jwtVerifyBody = {
  type: 'object',
  required: ['token'],
  additionalProperties: false,
  properties: {
    token: { type: 'string', minLength: 1, maxLength: 65_536 },
    secret,
    secret_encoding: byteEncodingSchema,
    public_key: keySchema('Public key for RS/PS/ES/EdDSA: PEM (SPKI, PKCS#1, X.509 certificate)'),
    algorithms: { type: 'array', minItems: 1, uniqueItems: true, items: { type: 'string', enum: JWT_ALGORITHM_NAMES } },
    issuer: { type: 'string', maxLength: 1024, description: 'Expected `iss` (claim_mismatch otherwise).' },
    subject: { type: 'string', maxLength: 1024, description: 'Expected `sub` (claim_mismatch otherwise), as jsonwebtoken\'s `subject` option.' },
    audience,
    clock_tolerance: { type: 'integer', minimum: 0, maximum: 86_400, default: 0, description: 'Seconds of leeway for exp and nbf.' },
  },
  examples: [{ token: EXAMPLE_TOKEN, secret: 'a-long-shared-secret-of-32-bytes!', algorithms: ['HS256'] }],
} as const;

export const jwtVerifyResponse = {
  type: 'object',
  required: ['valid'],
  properties: {
    valid: { type: 'boolean' },
    header: anyObject,
    payload: anyObject,
    error: { type: 'string' },
    reason: { type: 'string', enum: VERIFY_REASONS },
  },
  examples: [
    { valid: true, header: { alg: 'HS256', typ: 'JWT' }, payload: examplePayload },
    { valid: false, error: 'the token expired at 2025-11-21T09:35:30.000Z (exp 1763717730)', reason: 'expired' },
  ],
} as const;

export const jwtDecodeBody = {
  type: 'object',
  required: ['token'],
  additionalProperties: false,
  properties: { token: { type: 'string', minLength: 1, maxLength: 65_536 } },
  examples: [{ token: EXAMPLE_TOKEN }],
} as const;

export const jwtDecodeResponse = {
  type: 'object',
  required: ['header', 'payload', 'signature'],
  properties: { header: anyObject, payload: anyObject, signature: { type: 'string', description: 'base64url, as in the token.' } },
  examples: [{ header: { alg: 'HS256', typ: 'JWT' }, payload: examplePayload, signature: '9pfMmtv_ilgiM3dveJZ-QgZODDRcCg_rCCMzg86xtQ8' }],
} as const;

export const keypairBody = {
  type: 'object',
  additionalProperties: false,
  properties: {
    type: { type: 'string', enum: KEYPAIR_TYPE_NAMES, default: 'rsa' },
    modulus_length: { type: 'integer', enum: RSA_MODULUS_LENGTHS, description: 'RSA only; default 2048.' },
    curve: { type: 'string', enum: Object.keys(EC_CURVES), description: 'EC only; default P-256.' },
    format: { type: 'string', enum: ['pem', 'jwk'], default: 'pem' },
  },
  examples: [{ type: 'ec', curve: 'P-256', format: 'pem' }],
} as const;

const keyOut = { anyOf: [{ type: 'string' }, anyObject], description: 'PEM text (SPKI public, PKCS#8 private) or a JWK object.' } as const;

export const keypairResponse = {
  type: 'object',
  required: ['public_key', 'private_key', 'type'],
  properties: {
    public_key: keyOut,
    private_key: keyOut,
    type: { type: 'string', enum: KEYPAIR_TYPE_NAMES },
    modulus_length: { type: 'integer' },
    curve: { type: 'string' },
  },
  examples: [{
    public_key: '-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE...\n-----END PUBLIC KEY-----\n',
    private_key: '-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg...\n-----END PRIVATE KEY-----\n',
    type: 'ec',
    curve: 'P-256',
  }],
} as const;
