// The TOTP code of a secret at a time (RFC 6238 over RFC 4226's HOTP), computed in the browser with
// WebCrypto for the live display only: the API verifies codes but does not hand them out. Also the
// QR code's image source, from what the API answers.

/** The WebCrypto hash of each TOTP algorithm the API takes. */
const HASHES: Record<string, string> = { SHA1: 'SHA-1', SHA256: 'SHA-256', SHA512: 'SHA-512' };

export interface TotpParams {
  digits: number;
  period: number;
  algorithm: string;
}

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/**
 * The bytes of a base32 secret (RFC 4648) read as the API reads it: case-insensitive, spaces and
 * padding ignored; null when it is not base32 or holds no byte.
 *
 * @example
 *   decodeBase32('GEZDGNBVGY3TQOJQ') // Uint8Array of '1234567890'
 */
export function decodeBase32(text: string): Uint8Array<ArrayBuffer> | null {
  const compact = text.replace(/[\s=]/g, '').toUpperCase();
  if (compact === '' || /[^A-Z2-7]/.test(compact)) return null;
  const bytes = new Uint8Array(Math.floor((compact.length * 5) / 8));
  let bits = 0;
  let value = 0;
  let index = 0;
  for (const char of compact) {
    value = (value << 5) | BASE32.indexOf(char);
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      bytes[index++] = (value >>> bits) & 0xff;
    }
  }
  return bytes.length === 0 ? null : bytes;
}

/** Whether this browser can compute codes (WebCrypto needs a secure context: https or localhost). */
export const canComputeCodes = (): boolean => typeof crypto !== 'undefined' && crypto.subtle !== undefined;

/**
 * The TOTP code of `secret` at `unixSeconds`, zero-padded to `digits`.
 *
 * @example
 *   await computeTotp(new TextEncoder().encode('12345678901234567890'), 59, { digits: 8, period: 30, algorithm: 'SHA1' }) // '94287082'
 */
export async function computeTotp(secret: Uint8Array<ArrayBuffer>, unixSeconds: number, params: TotpParams): Promise<string> {
  const hash = HASHES[params.algorithm];
  if (hash === undefined) throw new TypeError(`unknown TOTP algorithm ${params.algorithm}`);
  const counter = Math.floor(unixSeconds / params.period);
  const message = new DataView(new ArrayBuffer(8));
  message.setUint32(0, Math.floor(counter / 2 ** 32));
  message.setUint32(4, counter >>> 0);
  const key = await crypto.subtle.importKey('raw', secret, { name: 'HMAC', hash }, false, ['sign']);
  const mac = new DataView(await crypto.subtle.sign('HMAC', key, message));
  // Dynamic truncation (RFC 4226 §5.3): four bytes at the offset the last byte's low 4 bits name.
  const offset = mac.getUint8(mac.byteLength - 1) & 0x0f;
  const binary = mac.getUint32(offset) & 0x7fffffff;
  return String(binary % 10 ** params.digits).padStart(params.digits, '0');
}

/**
 * A code as authenticator apps show it, in two halves.
 *
 * @example
 *   groupCode('94287082') // '9428 7082'
 */
export function groupCode(code: string): string {
  const half = Math.ceil(code.length / 2);
  return `${code.slice(0, half)} ${code.slice(half)}`;
}

/** Seconds until the step of `unixSeconds` ends (1..period). */
export const secondsLeft = (unixSeconds: number, period: number): number => period - (Math.floor(unixSeconds) % period);

/**
 * The QR code as an image source: the PNG data URI the API answers, or SVG text turned into a data
 * URI (an image, never markup in the page); null for anything else.
 *
 * @example
 *   qrImageSource('<svg xmlns="http://www.w3.org/2000/svg"/>') // 'data:image/svg+xml;charset=utf-8,%3Csvg...'
 */
export function qrImageSource(qr: string): string | null {
  if (/^data:image\/(png|svg\+xml)[;,]/.test(qr)) return qr;
  if (/^\s*(<\?xml[^>]*>\s*)?<svg[\s>]/.test(qr)) return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(qr)}`;
  return null;
}
