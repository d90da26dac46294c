import { createECDH } from 'node:crypto';

/**
 * The public point of EC private scalar `d` (base64url) on `curve` (OpenSSL's name), uncompressed
 * (0x04 || X || Y), base64url; null when `d` is not a valid scalar (0, or not below the order).
 */
export function ecPublicPoint(curve: string, d: string): string | null {
  const ecdh = createECDH(curve);
  try {
    ecdh.setPrivateKey(Buffer.from(d, 'base64url'));
  } catch {
    return null;
  }
  return ecdh.getPublicKey().toString('base64url');
}
