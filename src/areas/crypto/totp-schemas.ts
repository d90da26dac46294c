import { wordedPattern } from '../../http/validation.js';
import { TOTP_ALGORITHMS } from './totp.js';

const paramProps = {
  digits: { type: 'integer', enum: [6, 8], default: 6, description: '6 or 8.' },
  period: { type: 'integer', minimum: 15, maximum: 300, default: 30, description: 'Step in seconds, 15..300.' },
  algorithm: { type: 'string', enum: Object.keys(TOTP_ALGORITHMS), default: 'SHA1', description: 'HMAC hash (RFC 6238).' },
} as const;

/** `GET /v1/auth/totp-generate` (CONTRACT §4). */
export const totpGenerateSchema = {
  operationId: 'generateTotpSecret',
  summary: 'Generate a TOTP secret, its otpauth:// URI and a QR code',
  description:
    'The secret is random and sized for the algorithm (20 bytes for SHA1, 32 for SHA256, 64 for SHA512; at least 160 bits), ' +
    'written in base32 without padding. The URI follows the Key Uri Format: `otpauth://totp/{issuer}:{account}?secret=&issuer=&algorithm=&digits=&period=`, ' +
    'each part percent-encoded (space = %20). `issuer` and `account` must not contain ":" (the Key Uri Format forbids it: the ' +
    'label separates them with it) → 422 naming the field. Nothing is stored.',
  querystring: {
    type: 'object',
    properties: {
      issuer: { type: 'string', minLength: 1, maxLength: 128, default: 'devutil', description: 'Shown by authenticator apps.' },
      account: { type: 'string', minLength: 1, maxLength: 256, default: 'user', description: "Usually the user's e-mail." },
      ...paramProps,
    },
    additionalProperties: false,
    examples: [{ issuer: 'ACME Co', account: 'ana@example.com', digits: 6, period: 30, algorithm: 'SHA1' }],
  },
  response: {
    200: {
      type: 'object',
      required: ['secret', 'otpauth_uri', 'qr_code', 'digits', 'period', 'algorithm', 'issuer', 'account'],
      properties: {
        secret: { type: 'string', description: 'Base32 (RFC 4648, no padding).' },
        otpauth_uri: { type: 'string' },
        qr_code: { type: 'string', description: '`data:image/png;base64,...` of the otpauth URI.' },
        digits: { type: 'integer' },
        period: { type: 'integer' },
        algorithm: { type: 'string' },
        issuer: { type: 'string' },
        account: { type: 'string' },
      },
      examples: [
        {
          secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
          digits: 6,
          period: 30,
          algorithm: 'SHA1',
          issuer: 'ACME Co',
          account: 'ana@example.com',
          otpauth_uri:
            'otpauth://totp/ACME%20Co:ana%40example.com?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=ACME%20Co&algorithm=SHA1&digits=6&period=30',
          qr_code: 'data:image/png;base64,iVBORw0KGgo...',
        },
      ],
    },
  },
} as const;

/** `POST /v1/auth/totp-verify` (RFC 6238). */
export const totpVerifySchema = {
  operationId: 'verifyTotp',
  summary: 'Verify a TOTP code (RFC 6238) within a window of steps',
  description:
    'Steps from -window to +window around `timestamp` (Unix seconds, default now) are checked, each with a constant-time comparison; ' +
    '`delta` is the matching step nearest 0. A code whose length differs from `digits` is simply not valid. ' +
    'The secret is base32 (RFC 4648), case-insensitive, spaces and padding optional; anything else is 422.',
  body: {
    type: 'object',
    required: ['secret', 'code'],
    properties: {
      secret: { type: 'string', minLength: 1, maxLength: 1024, description: 'Base32, case-insensitive, spaces and padding optional.' },
      code: {
        anyOf: [
          {
            type: 'string',
            ...wordedPattern('^ *[0-9]{1,5} ?[0-9]{0,5} *$', 'must be up to 10 digits, with at most one space inside (123 456)'),
          },
          { type: 'integer', minimum: 0, maximum: 99999999 },
        ],
        description:
          'The code as a digit string (one space inside, as authenticator apps show it (`123 456`), and spaces around are ignored); an integer is left-padded with zeros to `digits`.',
      },
      ...paramProps,
      window: { type: 'integer', minimum: 0, maximum: 10, default: 1, description: 'Steps accepted on each side, 0..10.' },
      timestamp: { type: 'integer', minimum: 0, maximum: 253402300799, description: 'Unix seconds to verify at (default now).' },
    },
    additionalProperties: false,
    // The usual case (6 digits, now), so a form filled from it checks the user's own code as an authenticator app shows it.
    examples: [{ secret: 'JBSWY3DPEHPK3PXP', code: '123456' }],
  },
  response: {
    200: {
      type: 'object',
      required: ['valid', 'delta'],
      properties: {
        valid: { type: 'boolean' },
        delta: { type: ['integer', 'null'], description: 'Matching step relative to `timestamp` (-1 = previous step), or null.' },
      },
      examples: [
        { valid: true, delta: 0 },
        { valid: false, delta: null },
      ],
    },
  },
} as const;
