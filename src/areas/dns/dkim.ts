import { createPublicKey } from 'node:crypto';
import { joinTxt, parseTagList, type RecordWarning } from './tags.js';

export interface DkimRecord {
  selector: string;
  value: string;
  tags: Record<string, string>;
  /** `k` tag (default `rsa`). */
  keyType: string;
  /** Key size in bits (RSA modulus length; 256 for ed25519); null when the key is missing or unreadable. */
  keyBits: number | null;
  valid: boolean;
  warnings: RecordWarning[];
}

/** Selectors tried when none is given: the defaults of common providers and mail servers. */
export const COMMON_DKIM_SELECTORS = [
  'google',
  'default',
  'selector1',
  'selector2',
  'k1',
  'k2',
  'k3',
  's1',
  's2',
  'dkim',
  'mail',
  'smtp',
  'mx',
  'email',
  'key1',
  'mandrill',
  'everlytic',
  'pm',
  'mxvault',
  'protonmail',
  'fm1',
  'zoho',
] as const;

/** Key readers per `k=` type: public key bytes → bits. */
const KEY_TYPES: Record<string, (der: Buffer) => number> = {
  rsa: (der) => readRsaBits(der),
  ed25519: (raw) => {
    if (raw.length !== 32) throw new Error('an ed25519 key is 32 bytes');
    return 256;
  },
};

/**
 * The DKIM key records among the TXT answers at `<selector>._domainkey.<domain>` (RFC 6376 §3.6.1):
 * tags parsed, key type and size read from `p=` with node:crypto. Warnings: `key_revoked` (empty
 * `p=`), `missing_key`, `invalid_key`, `unknown_key_type`, `invalid_version`, `weak_key` (< 1024-bit RSA).
 *
 * @example
 *   readDkimRecords([['v=DKIM1; k=rsa; p=MIIBIjANBg...']], 'google')[0].keyBits; // 2048
 */
export function readDkimRecords(txtAnswers: unknown[], selector: string): DkimRecord[] {
  const values = joinTxt(txtAnswers).filter((v) => /^\s*v\s*=\s*DKIM1\s*(?:;|$)/.test(v) || /(?:^|;)\s*p\s*=/.test(v));
  return values.map((value) => {
    const { tags, warnings } = parseTagList(value);
    const keyType = (tags.k ?? 'rsa').toLowerCase();
    const key = (tags.p ?? '').replace(/\s+/g, '');
    let keyBits: number | null = null;
    if (tags.v !== undefined && tags.v !== 'DKIM1') warnings.push({ code: 'invalid_version', message: `v=${tags.v} is not DKIM1.` });
    else if (tags.v !== undefined && !/^\s*v\s*=/.test(value))
      warnings.push({ code: 'invalid_version', message: 'v=DKIM1 must be the first tag (RFC 6376 §3.6.1).' });
    const reader = KEY_TYPES[keyType];
    if (tags.p === undefined) warnings.push({ code: 'missing_key', message: 'The required "p" tag is missing.' });
    else if (key === '') warnings.push({ code: 'key_revoked', message: 'p= is empty: this key has been revoked.' });
    else if (!reader) warnings.push({ code: 'unknown_key_type', message: `k=${tags.k} is not rsa or ed25519.` });
    else {
      try {
        if (!/^[A-Za-z0-9+/]+={0,2}$/.test(key)) throw new Error('not base64');
        keyBits = reader(Buffer.from(key, 'base64'));
        if (keyType === 'rsa' && keyBits < 1024)
          warnings.push({ code: 'weak_key', message: `A ${keyBits}-bit RSA key is too short; RFC 8301 requires at least 1024 bits.` });
      } catch {
        warnings.push({ code: 'invalid_key', message: `p= is not a valid ${keyType} public key.` });
      }
    }
    // RFC 8301 §3.2: verifiers must not accept signatures made with RSA keys under 1024 bits.
    const valid =
      keyBits !== null && !warnings.some((w) => w.code === 'invalid_version' || w.code === 'duplicate_tag' || w.code === 'weak_key');
    return { selector, value, tags, keyType, keyBits, valid, warnings };
  });
}

/** DKIM `p=` for RSA is a DER SubjectPublicKeyInfo; some publishers put a bare PKCS#1 key. */
function readRsaBits(der: Buffer): number {
  for (const type of ['spki', 'pkcs1'] as const) {
    try {
      const key = createPublicKey({ key: der, format: 'der', type });
      if (key.asymmetricKeyType === 'rsa' && key.asymmetricKeyDetails?.modulusLength) return key.asymmetricKeyDetails.modulusLength;
    } catch {
      // try the next encoding
    }
  }
  throw new Error('not an RSA public key');
}
