import { invalidField } from '../../errors.js';

/** How a byte-carrying field is written on the wire (CONTRACT §4 "Binary inputs"). */
export const BYTE_ENCODINGS = ['utf8', 'hex', 'base64', 'base64url'] as const;
export type ByteEncoding = (typeof BYTE_ENCODINGS)[number];

/** JSON Schema of a `<field>_encoding` companion field. */
export const byteEncodingSchema = { type: 'string', enum: [...BYTE_ENCODINGS] } as const;

const STRICT: Record<Exclude<ByteEncoding, 'utf8'>, RegExp> = {
  hex: /^(?:[0-9a-fA-F]{2})*$/,
  base64: /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}(?:==)?|[A-Za-z0-9+/]{3}=?)?$/,
  base64url: /^(?:[A-Za-z0-9_-]{4})*(?:[A-Za-z0-9_-]{2}(?:==)?|[A-Za-z0-9_-]{3}=?)?$/,
};

/**
 * Read a byte field in its declared encoding; invalid text is a 422 naming the field
 * (Node's decoders silently skip bad characters, so the text is checked first). Spaces, tabs and
 * line breaks in hex and base64 text are skipped.
 *
 * @example
 *   decodeBytes('6b6579', 'hex', 'key') // <Buffer 6b 65 79>
 */
export function decodeBytes(value: string, encoding: ByteEncoding | undefined, field: string): Buffer {
  const enc = encoding ?? 'utf8';
  if (enc === 'utf8') return Buffer.from(value, 'utf8');
  // Line breaks and spaces between characters are layout (MIME base64, copied hex dumps, a header value's trailing newline).
  const text = /[ \t\r\n]/.test(value) ? value.replace(/[ \t\r\n]+/g, '') : value;
  if (!STRICT[enc].test(text)) throw invalidField(field, `is not valid ${enc}`);
  return Buffer.from(text, enc);
}

/** Fails on bytes that are not UTF-8; a leading BOM is kept as U+FEFF (by default it would be dropped, losing 3 bytes). */
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Read bytes as UTF-8 text; bytes that are not UTF-8 are a 422 naming the field and `why`
 * (what the text is needed for).
 *
 * @example
 *   readUtf8Text(Buffer.from('6869', 'hex'), 'data', 'to be decoded') // 'hi'
 */
export function readUtf8Text(bytes: Buffer, field: string, why: string): string {
  try {
    return STRICT_UTF8.decode(bytes);
  } catch {
    throw invalidField(field, `is not valid UTF-8 text once read in its encoding: it must be text ${why}`);
  }
}

/**
 * Bytes for a JSON response: UTF-8 text when the bytes are valid UTF-8, else hex.
 *
 * @example
 *   encodeBytesOutput(Buffer.from([0xff])) // { text: 'ff', encoding: 'hex' }
 */
export function encodeBytesOutput(bytes: Buffer): { text: string; encoding: 'utf8' | 'hex' } {
  try {
    return { text: STRICT_UTF8.decode(bytes), encoding: 'utf8' };
  } catch {
    return { text: bytes.toString('hex'), encoding: 'hex' };
  }
}
