import { byteEncodingSchema } from './bytes.js';
import { TEXT_FORMATS } from './encodings.js';

const resultEncoding = {
  type: 'string',
  enum: ['utf8', 'hex'],
  description: '`utf8`, or `hex` when the decoded bytes are not valid UTF-8.',
} as const;
const formatNotes = Object.entries(TEXT_FORMATS)
  .map(([name, row]) => `\`${name}\`: ${row.note}`)
  .join('; ');

/** `POST /v1/auth/base64-encode` (CONTRACT §4). */
export const base64EncodeSchema = {
  operationId: 'encodeBase64',
  summary: 'Base64 or Base64URL encode',
  description:
    'RFC 4648 §4 (`+/`) or, with `url_safe`, §5 (`-_`); `padding` false drops the trailing `=`. ' +
    '`data` is UTF-8 text unless `data_encoding` says hex, base64 or base64url (to encode binary).',
  body: {
    type: 'object',
    required: ['data'],
    properties: {
      data: { type: 'string' },
      data_encoding: byteEncodingSchema,
      url_safe: { type: 'boolean', default: false },
      padding: { type: 'boolean', default: true },
    },
    additionalProperties: false,
    examples: [{ data: 'hello world' }, { data: 'fbff', data_encoding: 'hex', url_safe: true, padding: false }],
  },
  response: {
    200: {
      type: 'object',
      required: ['result', 'url_safe', 'padding'],
      properties: { result: { type: 'string' }, url_safe: { type: 'boolean' }, padding: { type: 'boolean' } },
      examples: [{ result: 'aGVsbG8gd29ybGQ=', url_safe: false, padding: true }],
    },
  },
} as const;

/** `POST /v1/auth/base64-decode`. */
export const base64DecodeSchema = {
  operationId: 'decodeBase64',
  summary: 'Decode Base64 or Base64URL',
  description:
    'Accepts the standard and the URL-safe alphabet (not mixed in one input), padding optional but correct when present, ' +
    'spaces and line breaks ignored. Other input is 422. `result` is UTF-8 text, or hex when the bytes are not valid UTF-8 (`result_encoding`).',
  body: {
    type: 'object',
    required: ['data'],
    properties: { data: { type: 'string' } },
    additionalProperties: false,
    examples: [{ data: 'aGVsbG8gd29ybGQ' }],
  },
  response: {
    200: {
      type: 'object',
      required: ['result', 'result_encoding'],
      properties: { result: { type: 'string' }, result_encoding: resultEncoding },
      examples: [{ result: 'hello world', result_encoding: 'utf8' }],
    },
  },
} as const;

/** `POST /v1/auth/encode`. */
export const encodeSchema = {
  operationId: 'transcodeData',
  summary: 'Encode or decode URL, HTML entities, hex and ascii85',
  description:
    `Formats: ${formatNotes}. \`data\` is UTF-8 text unless \`data_encoding\` says hex, base64 or base64url. ` +
    'Encoding takes the bytes of `data` so read (binary data can be url-, hex- and ascii85-encoded; html needs them to be UTF-8 text, else 422). ' +
    'Decoding takes the encoded text: with `data_encoding` it is the text that `data` carries in that encoding, which must be UTF-8 (else 422). ' +
    'Decoding invalid input (a % not followed by two hex digits, odd-length or non-hex digits, invalid ascii85) is 422; decoded bytes that ' +
    'are not valid UTF-8 (e.g. url `caf%E9`, hex `ff00`) come back as hex with `result_encoding: "hex"`, as in base64-decode.',
  body: {
    type: 'object',
    required: ['data', 'format'],
    properties: {
      data: { type: 'string' },
      data_encoding: byteEncodingSchema,
      format: { type: 'string', enum: Object.keys(TEXT_FORMATS) },
      action: { type: 'string', enum: ['encode', 'decode'], default: 'encode' },
    },
    additionalProperties: false,
    examples: [
      { data: 'a b&c', format: 'url', action: 'encode' },
      { data: '<~87cURD]i,"Ebo80~>', format: 'ascii85', action: 'decode' },
      { data: 'ff00', data_encoding: 'hex', format: 'url', action: 'encode' },
    ],
  },
  response: {
    200: {
      type: 'object',
      required: ['result', 'format', 'action', 'result_encoding'],
      properties: { result: { type: 'string' }, format: { type: 'string' }, action: { type: 'string' }, result_encoding: resultEncoding },
      examples: [{ result: 'a%20b%26c', format: 'url', action: 'encode', result_encoding: 'utf8' }],
    },
  },
} as const;
