import { invalidField } from '../../errors.js';
import { decodeAscii85, encodeAscii85 } from './ascii85.js';
import { readUtf8Text } from './bytes.js';
import { decodeHtmlEntities, encodeHtmlEntities } from './encodings-html.js';
import { decodePercent, encodePercent } from './encodings-url.js';

/**
 * Base64 (RFC 4648 §4) or Base64URL (§5), with or without `=` padding.
 *
 * @example
 *   encodeBase64(Buffer.from([0xfb, 0xff]), { urlSafe: true, padding: false }) // '-_8'
 */
export function encodeBase64(bytes: Buffer, options: { urlSafe: boolean; padding: boolean }): string {
  const text = bytes.toString(options.urlSafe ? 'base64url' : 'base64');
  if (options.urlSafe && options.padding) return text.padEnd(Math.ceil(text.length / 4) * 4, '=');
  return options.padding ? text : text.replace(/=+$/, '');
}

/**
 * Decode Base64 or Base64URL: either alphabet (not both mixed), padding optional but correct when
 * present, line breaks and spaces ignored (MIME). Anything else is a 422 on `field`.
 *
 * @example
 *   decodeBase64('Zm9vYg', 'data').toString() // 'foob'
 */
export function decodeBase64(text: string, field: string): Buffer {
  const compact = text.replace(/[ \t\r\n]/g, '');
  const body = compact.replace(/={1,2}$/, '');
  if (/[+/]/.test(body) && /[-_]/.test(body)) throw invalidField(field, 'mixes the Base64 and Base64URL alphabets');
  if (!/^[A-Za-z0-9+/_-]*$/.test(body)) throw invalidField(field, 'is not valid Base64: unexpected character');
  if (body.length % 4 === 1) throw invalidField(field, 'is not valid Base64: impossible length');
  if (body.length !== compact.length && compact.length % 4 !== 0) throw invalidField(field, 'is not valid Base64: wrong padding');
  return Buffer.from(body, 'base64url');
}

/**
 * Decode hex: an even number of hex digits, case-insensitive, whitespace ignored.
 *
 * @example
 *   decodeHex('68 69', 'data').toString() // 'hi'
 */
export function decodeHex(text: string, field: string): Buffer {
  const compact = text.replace(/\s/g, '');
  if (!/^[0-9a-fA-F]*$/.test(compact)) throw invalidField(field, 'is not hex: only 0-9 and a-f are allowed');
  if (compact.length % 2 !== 0) throw invalidField(field, 'is not hex: odd number of digits');
  return Buffer.from(compact, 'hex');
}

/** Text formats of `POST /v1/auth/encode`: encode takes bytes, decode takes text and yields bytes. */
export const TEXT_FORMATS = {
  url: {
    encode: encodePercent,
    decode: decodePercent,
    note: 'percent-encoding as encodeURIComponent (RFC 3986 unreserved characters and !*\'() kept, every other byte %XX), byte by byte; ' +
      'decoding turns each %XX into its byte, even when the bytes are not UTF-8, and "+" is not a space',
  },
  html: {
    encode: (b: Buffer, field: string) => encodeHtmlEntities(readUtf8Text(b, field, 'to be HTML-escaped')),
    decode: (t: string) => Buffer.from(decodeHtmlEntities(t), 'utf8'),
    note: 'escapes & < > " \'; decodes as a browser does in text (all HTML5 named references, legacy ones without ";" such as &amp and &copy, numeric references with the HTML replacements: &#0; is U+FFFD, &#128; is €); encoding needs UTF-8 text',
  },
  hex: { encode: (b: Buffer) => b.toString('hex'), decode: decodeHex, note: 'lowercase; decoding ignores whitespace, refuses odd length' },
  ascii85: { encode: encodeAscii85, decode: decodeAscii85, note: 'Adobe variant with z; output without <~ ~>, input with or without' },
} as const;
export type TextFormat = keyof typeof TEXT_FORMATS;

/**
 * Encode bytes to a format, or decode a format to bytes. For decoding, `input` holds the encoded
 * text (as the caller sent it, e.g. read from hex), which must be UTF-8.
 *
 * @example
 *   transcode(Buffer.from('a b&c'), 'url', 'encode') // Buffer 'a%20b%26c'
 */
export function transcode(input: Buffer, format: TextFormat, action: 'encode' | 'decode', field = 'data'): Buffer {
  const row = TEXT_FORMATS[format];
  if (action === 'encode') return Buffer.from(row.encode(input, field), 'utf8');
  return row.decode(readUtf8Text(input, field, `in the ${format} format to be decoded`), field);
}
