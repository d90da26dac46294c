import { decodeHTML } from 'entities';
import { invalidField } from '../../errors.js';
import { decodeAscii85, encodeAscii85 } from './ascii85.js';
import { decodeBytes, encodeBytesOutput, readUtf8Text, type ByteEncoding } from './bytes.js';

export interface Base64EncodeInput {
  data: string;
  data_encoding?: ByteEncoding;
  url_safe: boolean;
  padding: boolean;
}
export interface EncodeInput {
  data: string;
  data_encoding?: ByteEncoding;
  format: TextFormat;
  action: 'encode' | 'decode';
}
/** Decoded bytes for a JSON answer: UTF-8 text, or hex when they are not UTF-8. */
type DecodedText = { result: string; result_encoding: 'utf8' | 'hex' };

/**
 * `POST /v1/auth/base64-encode`: Base64 (RFC 4648 §4) or Base64URL (§5) of `data` (read in
 * `data_encoding`), with or without `=` padding.
 *
 * @example
 *   encodeBase64({ data: 'fbff', data_encoding: 'hex', url_safe: true, padding: false }) // { result: '-_8', url_safe: true, padding: false }
 */
export function encodeBase64(input: Base64EncodeInput): { result: string; url_safe: boolean; padding: boolean } {
  const { url_safe: urlSafe, padding } = input;
  const text = decodeBytes(input.data, input.data_encoding, 'data').toString(urlSafe ? 'base64url' : 'base64');
  const result = urlSafe && padding ? text.padEnd(Math.ceil(text.length / 4) * 4, '=') : padding ? text : text.replace(/=+$/, '');
  return { result, url_safe: urlSafe, padding };
}

/**
 * `POST /v1/auth/base64-decode`: Base64 or Base64URL in either alphabet (not both mixed), padding
 * optional but correct when present, line breaks and spaces ignored (MIME). Anything else is a 422
 * on `data`.
 *
 * @example
 *   decodeBase64({ data: 'Zm9vYg' }) // { result: 'foob', result_encoding: 'utf8' }
 */
export function decodeBase64(input: { data: string }): DecodedText {
  const compact = input.data.replace(/[ \t\r\n]/g, '');
  const body = compact.replace(/={1,2}$/, '');
  if (/[+/]/.test(body) && /[-_]/.test(body)) throw invalidField('data', 'mixes the Base64 and Base64URL alphabets');
  if (!/^[A-Za-z0-9+/_-]*$/.test(body)) throw invalidField('data', 'is not valid Base64: unexpected character');
  if (body.length % 4 === 1) throw invalidField('data', 'is not valid Base64: impossible length');
  if (body.length !== compact.length && compact.length % 4 !== 0) throw invalidField('data', 'is not valid Base64: wrong padding');
  const { text, encoding } = encodeBytesOutput(Buffer.from(body, 'base64url'));
  return { result: text, result_encoding: encoding };
}

/** Decode hex: an even number of hex digits, case-insensitive, whitespace ignored. */
function decodeHex(text: string, field: string): Buffer {
  const compact = text.replace(/\s/g, '');
  if (!/^[0-9a-fA-F]*$/.test(compact)) throw invalidField(field, 'is not hex: only 0-9 and a-f are allowed');
  if (compact.length % 2 !== 0) throw invalidField(field, 'is not hex: odd number of digits');
  return Buffer.from(compact, 'hex');
}

/** Bytes `encodeURIComponent` leaves as they are: RFC 3986 unreserved characters and `!*'()`. */
const KEPT = new Uint8Array(128);
for (const c of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.!~*'()") KEPT[c.charCodeAt(0)] = 1;

const PERCENT_RUNS = /((?:%[0-9A-Fa-f]{2})+)/;

/** Percent-encode as `encodeURIComponent` does for UTF-8 text (uppercase `%XX`), byte by byte, so bytes that are not UTF-8 are encoded too. */
function encodePercent(bytes: Buffer): string {
  let out = '';
  for (const byte of bytes) {
    out += byte < 128 && KEPT[byte] === 1 ? String.fromCharCode(byte) : `%${byte < 16 ? '0' : ''}${byte.toString(16).toUpperCase()}`;
  }
  return out;
}

/**
 * Each `%XX` is one byte, other characters are their UTF-8 bytes, `+` stays `+`. The bytes need not
 * be UTF-8 (`caf%E9` is `63 61 66 e9`); a `%` that does not start two hex digits is a 422 on `field`.
 */
function decodePercent(text: string, field: string): Buffer {
  // split() with a capturing group: odd indices are runs of %XX, even ones the text between them.
  const parts = text.split(PERCENT_RUNS);
  const chunks: Buffer[] = [];
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (i % 2 === 1) chunks.push(Buffer.from(part.replaceAll('%', ''), 'hex'));
    else if (part.includes('%'))
      throw invalidField(field, 'is not valid percent-encoding (a % must start a %XX sequence of two hex digits)');
    else if (part !== '') chunks.push(Buffer.from(part, 'utf8'));
  }
  return Buffer.concat(chunks);
}

/** Characters HTML encoding escapes (OWASP's minimal set for text and quoted attributes). */
const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text formats of `POST /v1/auth/encode`: encode takes bytes, decode takes text and yields bytes. */
export const TEXT_FORMATS = {
  url: {
    encode: encodePercent,
    decode: decodePercent,
    note:
      "percent-encoding as encodeURIComponent (RFC 3986 unreserved characters and !*'() kept, every other byte %XX), byte by byte; " +
      'decoding turns each %XX into its byte, even when the bytes are not UTF-8, and "+" is not a space',
  },
  html: {
    encode: (b: Buffer, field: string) => readUtf8Text(b, field, 'to be HTML-escaped').replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]),
    // The WHATWG tokenizer's reading of text, through `entities`: every named reference, the legacy ones without `;`,
    // numeric references with the HTML replacements (&#0; is U+FFFD, &#128; is €); unknown names stay as written.
    decode: (t: string) => Buffer.from(decodeHTML(t), 'utf8'),
    note: 'escapes & < > " \'; decodes as a browser does in text (all HTML5 named references, legacy ones without ";" such as &amp and &copy, numeric references with the HTML replacements: &#0; is U+FFFD, &#128; is €); encoding needs UTF-8 text',
  },
  hex: { encode: (b: Buffer) => b.toString('hex'), decode: decodeHex, note: 'lowercase; decoding ignores whitespace, refuses odd length' },
  ascii85: { encode: encodeAscii85, decode: decodeAscii85, note: 'Adobe variant with z; output without <~ ~>, input with or without' },
} as const;
export type TextFormat = keyof typeof TEXT_FORMATS;

/**
 * `POST /v1/auth/encode`: encode the bytes of `data` (read in `data_encoding`) to a format, or
 * decode the text `data` carries (which must be UTF-8) from one. Decoded bytes that are not UTF-8
 * come back as hex.
 *
 * @example
 *   transcode({ data: 'a b&c', format: 'url', action: 'encode' }) // { result: 'a%20b%26c', format: 'url', action: 'encode', result_encoding: 'utf8' }
 */
export function transcode(input: EncodeInput): DecodedText & { format: TextFormat; action: 'encode' | 'decode' } {
  const { format, action } = input;
  const bytes = decodeBytes(input.data, input.data_encoding, 'data');
  const row = TEXT_FORMATS[format];
  const out =
    action === 'encode'
      ? Buffer.from(row.encode(bytes, 'data'), 'utf8')
      : row.decode(readUtf8Text(bytes, 'data', `in the ${format} format to be decoded`), 'data');
  const { text, encoding } = encodeBytesOutput(out);
  return { result: text, format, action, result_encoding: encoding };
}
