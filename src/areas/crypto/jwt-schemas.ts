import { byteEncodingSchema } from './bytes.js';
import { JWT_ALGORITHM_NAMES } from './jwt-algorithms.js';
import { VERIFY_REASONS } from './jwt-verify.js';
import { EC_CURVES, KEYPAIR_TYPE_NAMES, RSA_MODULUS_LENGTHS } from './keypair.js';

const TEN_YEARS = 10 * 365 * 86_400;
const anyObject = { type: 'object', additionalProperties: true } as const;
const audience = {
  anyOf: [
    { type: 'string', maxLength: 1024 },
    { type: 'array', minItems: 1, maxItems: 50, items: { type: 'string', maxLength: 1024 } },
  ],
} as const;
const keySchema = (what: string) => ({
  anyOf: [
    { type: 'string', minLength: 1, maxLength: 65_536 },
    { type: 'object', additionalProperties: true },
  ],
  description: `${what} as PEM text or a JWK (an object, or its JSON text).`,
});
const secret = {
  type: 'string',
  minLength: 1,
  maxLength: 65_536,
  description: 'HMAC secret (HS*), read in `secret_encoding` (utf8 default).',
} as const;

const EXAMPLE_TOKEN =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ1c2VyXzQyIiwicm9sZSI6ImFkbWluIiwiaWF0IjoxNzYzNzE3NzMwLCJleHAiOjE3NjM3MjEzMzB9.' +
  '9pfMmtv_ilgiM3dveJZ-QgZODDRcCg_rCCMzg86xtQ8';
const examplePayload = { sub: 'user_42', role: 'admin', iat: 1763717730, exp: 1763721330 };
/** The example to verify and decode: signed with the example secret, valid until 2100, so a form filled from it verifies. */
const LASTING_TOKEN =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ1c2VyXzQyIiwicm9sZSI6ImFkbWluIiwiaWF0IjoxNzYzNzE3NzMwLCJleHAiOjQxMDI0NDQ4MDB9.' +
  'RjEKHNWRwRHE6QTte03OKy4jWGjs7KXktVdgnNi_qis';
const lastingPayload = { ...examplePayload, exp: 4102444800 };

const jwtGenerateBody = {
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
    header: {
      ...anyObject,
      description:
        'Extra protected-header parameters (e.g. `kid`); `alg` is set from `algorithm`, `typ` defaults to JWT. The header is written `alg` first, then `typ`, then these, as jsonwebtoken and jose write it; `typ`, `cty` and `kid` must be strings (RFC 7515 §4.1).',
    },
  },
  examples: [
    { payload: { sub: 'user_42', role: 'admin' }, algorithm: 'HS256', secret: 'a-long-shared-secret-of-32-bytes!', expires_in: 3600 },
  ],
} as const;

const jwtGenerateResponse = {
  type: 'object',
  required: ['token', 'header', 'payload'],
  properties: { token: { type: 'string' }, header: anyObject, payload: anyObject },
  examples: [{ token: EXAMPLE_TOKEN, header: { alg: 'HS256', typ: 'JWT' }, payload: examplePayload }],
} as const;

const jwtVerifyBody = {
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
    subject: {
      type: 'string',
      maxLength: 1024,
      description: "Expected `sub` (claim_mismatch otherwise), as jsonwebtoken's `subject` option.",
    },
    audience,
    clock_tolerance: { type: 'integer', minimum: 0, maximum: 86_400, default: 0, description: 'Seconds of leeway for exp and nbf.' },
  },
  examples: [{ token: LASTING_TOKEN, secret: 'a-long-shared-secret-of-32-bytes!', algorithms: ['HS256'] }],
} as const;

const jwtVerifyResponse = {
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
    { valid: true, header: { alg: 'HS256', typ: 'JWT' }, payload: lastingPayload },
    { valid: false, error: 'the token expired at 2025-11-21T09:35:30.000Z (exp 1763717730)', reason: 'expired' },
  ],
} as const;

const jwtDecodeBody = {
  type: 'object',
  required: ['token'],
  additionalProperties: false,
  properties: { token: { type: 'string', minLength: 1, maxLength: 65_536 } },
  examples: [{ token: LASTING_TOKEN }],
} as const;

const jwtDecodeResponse = {
  type: 'object',
  required: ['header', 'payload', 'signature'],
  properties: { header: anyObject, payload: anyObject, signature: { type: 'string', description: 'base64url, as in the token.' } },
  examples: [{ header: { alg: 'HS256', typ: 'JWT' }, payload: lastingPayload, signature: 'RjEKHNWRwRHE6QTte03OKy4jWGjs7KXktVdgnNi_qis' }],
} as const;

const keypairBody = {
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

const keypairResponse = {
  type: 'object',
  required: ['public_key', 'private_key', 'type'],
  properties: {
    public_key: keyOut,
    private_key: keyOut,
    type: { type: 'string', enum: KEYPAIR_TYPE_NAMES },
    modulus_length: { type: 'integer' },
    curve: { type: 'string' },
  },
  examples: [
    {
      public_key: '-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE...\n-----END PUBLIC KEY-----\n',
      private_key: '-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg...\n-----END PRIVATE KEY-----\n',
      type: 'ec',
      curve: 'P-256',
    },
  ],
} as const;

/** `POST /v1/auth/jwt-generate` (CONTRACT §4). */
export const jwtGenerateSchema = {
  operationId: 'signJwt',
  summary: 'Sign a JWT (HS*, RS*, PS*, ES*, EdDSA)',
  description:
    'HS* take `secret` (+ `secret_encoding`); the others take `private_key` as PEM (PKCS#8, PKCS#1, SEC1) or a JWK. ' +
    'Giving the other key field is a 422, as is a key that does not fit the algorithm (type, EC curve, RSA outside 2048..8192 bits, ' +
    'an RSA-PSS key restricted to another hash, a JWK whose `alg`, `use` or `key_ops` rule it out, an EC or OKP JWK whose `d` does not match its `x`/`y`) ' +
    'and a PEM key, certificate or JWK given as an HMAC secret. `iat` is the current time unless the payload has one; ' +
    "`expires_in` and `not_before` are seconds from now; `issuer`/`subject`/`audience` override the payload's claims. " +
    '`header` adds protected-header parameters (`typ` defaults to JWT; `alg` must match; `crit`/`b64` are refused). ' +
    'Signing is node:crypto: inline for HS*, ES256 and EdDSA (microseconds), on the thread pool for RS*, PS*, ES384 and ES512 ' +
    '(0.3 to 5 ms), so a large RSA key never stalls other requests. Private keys are never kept between requests, and ' +
    "importing one costs: a PEM about 0.35 ms (OpenSSL 3's decoders), an RSA JWK about 10 µs, an Ed25519 or P-256 JWK " +
    '40-75 µs (a P-521 JWK about 1 ms), so JWKs suit frequent signing with RSA, Ed25519 or P-256 keys.',
  body: jwtGenerateBody,
  response: { 200: jwtGenerateResponse },
} as const;

/** `POST /v1/auth/jwt-verify`. */
export const jwtVerifySchema = {
  operationId: 'verifyJwt',
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
} as const;

/** `POST /v1/auth/jwt-decode`. */
export const jwtDecodeSchema = {
  operationId: 'decodeJwt',
  summary: 'Decode a JWT without verifying it',
  description:
    'Header and claims as JSON, signature as base64url. Not three parts, bad base64url, or a header/payload that is not a JSON object → 422.',
  body: jwtDecodeBody,
  response: { 200: jwtDecodeResponse },
} as const;

/** `POST /v1/auth/generate-keypair`. */
export const generateKeypairSchema = {
  operationId: 'generateKeyPair',
  summary: 'Generate an RSA, EC or Ed25519 key pair',
  description:
    'RSA 2048/3072/4096 (e 65537), EC P-256/P-384/P-521, or Ed25519, as PEM (SPKI public, PKCS#8 private) or JWK. ' +
    '`modulus_length` applies to rsa only and `curve` to ec only (otherwise 422); ed25519 answers `curve: "Ed25519"`. ' +
    'Generation runs off the event loop.',
  body: keypairBody,
  response: { 200: keypairResponse },
} as const;
