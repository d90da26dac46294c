import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type QRCode from 'qrcode';
import { DevutilError, invalidField } from '../../errors.js';
import { decodeBase32, encodeBase32 } from './base32.js';

/** TOTP hash algorithms (RFC 6238 §1.2): node:crypto name and the secret size generated for it. */
export const TOTP_ALGORITHMS = {
  SHA1: { hmac: 'sha1', secretBytes: 20 },
  SHA256: { hmac: 'sha256', secretBytes: 32 },
  SHA512: { hmac: 'sha512', secretBytes: 64 },
} as const;
export type TotpAlgorithm = keyof typeof TOTP_ALGORITHMS;

export interface TotpParams {
  digits: 6 | 8;
  period: number;
  algorithm: TotpAlgorithm;
}

export interface TotpSetup extends TotpParams {
  secret: string;
  otpauthUri: string;
  qrCode: string;
}

/**
 * The HOTP value (RFC 4226 §5.3) for one counter, as a zero-padded decimal string.
 *
 * @example
 *   computeHotp(Buffer.from('12345678901234567890'), 1, 8, 'SHA1') // '94287082'
 */
export function computeHotp(secret: Buffer, counter: number, digits: number, algorithm: TotpAlgorithm): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac(TOTP_ALGORITHMS[algorithm].hmac, secret).update(message).digest();
  // Dynamic truncation (§5.3): four bytes at the offset named by the low 4 bits of the last byte.
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** digits).padStart(digits, '0');
}

/**
 * Check a code against every step in `[-window, +window]` around `timestamp` (Unix seconds).
 * Every candidate is compared in constant time and none is skipped on a match, so timing does
 * not reveal which step matched. `delta` is the matching step offset (the one nearest 0), or null.
 *
 * @example
 *   verifyTotp(secret, '94287082', 59, { digits: 8, period: 30, algorithm: 'SHA1' }, 1) // { valid: true, delta: 0 }
 */
export function verifyTotp(
  secret: Buffer,
  code: string,
  timestamp: number,
  params: TotpParams,
  window: number,
): { valid: boolean; delta: number | null } {
  const current = Math.floor(timestamp / params.period);
  const given = Buffer.from(code.padEnd(params.digits, ' ').slice(0, params.digits));
  const lengthOk = code.length === params.digits;
  let delta: number | null = null;
  for (const step of listStepsNearestFirst(window)) {
    const counter = current + step;
    if (counter < 0) continue;
    const expected = Buffer.from(computeHotp(secret, counter, params.digits, params.algorithm));
    if (timingSafeEqual(expected, given) && lengthOk && delta === null) delta = step;
  }
  return { valid: delta !== null, delta };
}

function listStepsNearestFirst(window: number): number[] {
  const steps = [0];
  for (let i = 1; i <= window; i++) steps.push(-i, i);
  return steps;
}

/**
 * A 422 naming `issuer` and `account` when they hold a colon: the otpauth label is
 * `issuer:account`, and the Key Uri Format forbids a colon in either part (encoded or not), so
 * authenticator apps and libraries such as pyotp would split the label elsewhere or refuse it.
 */
function checkLabelParts(issuer: string, account: string): void {
  const message = 'must not contain ":" (the otpauth label separates issuer and account with it)';
  const errors = Object.entries({ issuer, account })
    .filter(([, value]) => value.includes(':'))
    .map(([path]) => ({ path, message }));
  if (errors.length > 0) throw new DevutilError('validation_error', `${errors.map((e) => e.path).join(' and ')} ${message}.`, { errors });
}

/**
 * A fresh secret sized for the algorithm, its `otpauth://` URI (Google Authenticator Key Uri
 * Format, every part percent-encoded) and the URI as a QR code PNG data URI. An issuer or
 * account holding a colon is a 422.
 *
 * @example
 *   await createTotpSetup('ACME Co', 'ana@example.com', { digits: 6, period: 30, algorithm: 'SHA1' })
 *   // { secret: 'JBSW...', otpauthUri: 'otpauth://totp/ACME%20Co:ana%40example.com?secret=...', ... }
 */
export async function createTotpSetup(issuer: string, account: string, params: TotpParams): Promise<TotpSetup> {
  checkLabelParts(issuer, account);
  const secret = encodeBase32(randomBytes(TOTP_ALGORITHMS[params.algorithm].secretBytes));
  const query = [
    `secret=${secret}`,
    `issuer=${encodeURIComponent(issuer)}`,
    `algorithm=${params.algorithm}`,
    `digits=${params.digits}`,
    `period=${params.period}`,
  ].join('&');
  const otpauthUri = `otpauth://totp/${encodeURIComponent(issuer)}:${encodeURIComponent(account)}?${query}`;
  const qrCode = await renderQrCode(otpauthUri);
  return { ...params, secret, otpauthUri, qrCode };
}

// qrcode loads with the first setup, not at start: most processes never draw a QR code.
let qrCodeLibrary: Promise<typeof QRCode> | undefined;

async function renderQrCode(text: string): Promise<string> {
  const library = await (qrCodeLibrary ??= import('qrcode').then((m) => m.default));
  try {
    return await library.toDataURL(text, { errorCorrectionLevel: 'M', margin: 2 });
  } catch (cause) {
    // The only input-dependent failure: the URI exceeds the largest QR code (version 40).
    const message = 'with issuer makes an otpauth URI too long for a QR code; shorten them';
    throw new DevutilError('validation_error', `account ${message}`, { errors: [{ path: 'account', message }], cause });
  }
}

/** The query of `totp-generate`, as the wire names it. */
export interface TotpGenerateInput extends TotpParams {
  issuer: string;
  account: string;
}
/** The body of `totp-verify`, as the wire names it. */
export interface TotpVerifyInput extends TotpParams {
  secret: string;
  code: string | number;
  window: number;
  timestamp?: number;
}

/**
 * `GET /v1/auth/totp-generate`: a fresh setup ({@link createTotpSetup}) with the parameters it was made for.
 *
 * @example
 *   await generateTotp({ issuer: 'ACME Co', account: 'ana@example.com', digits: 6, period: 30, algorithm: 'SHA1' })
 *   // { secret: 'JBSW...', otpauth_uri: 'otpauth://totp/ACME%20Co:ana%40example.com?...', qr_code: 'data:image/png;base64,...', digits: 6, ... }
 */
export async function generateTotp(input: TotpGenerateInput) {
  const { issuer, account, digits, period, algorithm } = input;
  const setup = await createTotpSetup(issuer, account, { digits, period, algorithm });
  return { secret: setup.secret, otpauth_uri: setup.otpauthUri, qr_code: setup.qrCode, digits, period, algorithm, issuer, account };
}

/**
 * `POST /v1/auth/totp-verify`: read the base32 secret and the code as an authenticator app shows
 * it (`123 456`, or an integer that lost its leading zeros), then {@link verifyTotp} at
 * `timestamp`, or at `now` (epoch milliseconds).
 *
 * @example
 *   verifyTotpCode({ secret: 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ', code: '94287082', digits: 8, period: 30, algorithm: 'SHA1', window: 1, timestamp: 59 }, Date.now())
 *   // { valid: true, delta: 0 }
 */
export function verifyTotpCode(input: TotpVerifyInput, now: number): { valid: boolean; delta: number | null } {
  const secret = decodeBase32(input.secret, 'secret');
  if (secret.length === 0) throw invalidField('secret', 'decodes to no bytes');
  const code = typeof input.code === 'number' ? String(input.code).padStart(input.digits, '0') : input.code.replace(/ /g, '');
  const timestamp = input.timestamp ?? Math.floor(now / 1000);
  return verifyTotp(secret, code, timestamp, { digits: input.digits, period: input.period, algorithm: input.algorithm }, input.window);
}
