import { createECDH } from 'node:crypto';

/**
 * The public point of EC private scalar `d` (base64url) on `curve` (OpenSSL's name), uncompressed
 * (0x04 || X || Y), base64url. Throws when `d` is not a valid scalar (0, or not below the order).
 */
export function ecPublicPoint(curve: string, d: string): string {
  const ecdh = createECDH(curve);
  ecdh.setPrivateKey(Buffer.from(d, 'base64url'));
  return ecdh.getPublicKey().toString('base64url');
}
