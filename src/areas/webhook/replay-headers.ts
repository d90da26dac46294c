import { invalidField } from '../../errors.js';
import { HEADER_BYTES_PREFIX } from './catch-capture.js';

/** An HTTP token (RFC 9110 §5.6.2): what header names and methods are made of. */
export const HTTP_TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Bytes Node accepts in a header value: tab, visible ASCII, space and Latin-1 (no CR, LF, NUL, controls). */
export const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/**
 * Connection-specific (hop-by-hop) headers (RFC 9110 §7.6.1) plus the framing and routing
 * headers a forwarder recomputes: never copied from a captured request.
 */
export const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'proxy-authenticate',
  'proxy-authorization',
]);
const RECOMPUTED = new Set(['host', 'content-length', 'expect']);

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const NON_ASCII = /[^\x00-\x7f]/;

/**
 * The bytes of a header value in its stored form, as the string Node writes them from (one
 * character per byte): `base64:` and base64 gives those bytes, any other text its UTF-8.
 *
 * @example
 *   headerValueBytes('café') // 'caf\u00c3\u00a9' (Node sends 63 61 66 c3 a9)
 *   headerValueBytes('base64:Y2Fm6Q==') // 'caf\u00e9' (sends 63 61 66 e9)
 */
export function headerValueBytes(stored: string): string {
  if (stored.startsWith(HEADER_BYTES_PREFIX)) return Buffer.from(stored.slice(HEADER_BYTES_PREFIX.length), 'base64').toString('latin1');
  return NON_ASCII.test(stored) ? Buffer.from(stored, 'utf8').toString('latin1') : stored;
}

/** A header's lines as sent: one per line of a Set-Cookie value (stored joined with line feeds), else the value. */
function linesOf(name: string, bytes: string): string | string[] {
  return name === 'set-cookie' && bytes.includes('\n') ? bytes.split('\n') : bytes;
}

const sendable = (lines: string | string[]) =>
  typeof lines === 'string' ? HEADER_VALUE.test(lines) : lines.every((line) => HEADER_VALUE.test(line));

/**
 * Headers a replay sends: the captured ones minus hop-by-hop headers (and those the captured
 * `connection` header names), `host`, `content-length` and `expect`; then `overrides` merged over
 * them (names case-insensitive). `host` defaults to the target's host; an override may set it.
 * Values are in the stored form (UTF-8 text, or `base64:` and the bytes) for overrides too, and
 * come back as the bytes to send (see {@link headerValueBytes}), so a replay sends exactly the
 * bytes captured. A Set-Cookie value goes out as one line per line-feed-separated part. Returns a
 * null-prototype object so header names such as `__proto__` stay plain data.
 *
 * @example
 *   buildReplayHeaders({ 'x-sig': 'abc', connection: 'close', host: 'old' }, { 'X-Extra': '1' }, 'example.com')
 *   // { 'x-sig': 'abc', host: 'example.com', 'x-extra': '1' }
 */
export function buildReplayHeaders(
  captured: Record<string, string>,
  overrides: Record<string, string> | undefined,
  targetHost: string,
): Record<string, string | string[]> {
  const named = new Set(
    (captured.connection ?? '')
      .split(',')
      .map((s) => s.trim().toLowerCase())
      .filter(Boolean),
  );
  const out: Record<string, string | string[]> = Object.create(null);
  for (const [name, value] of Object.entries(captured)) {
    const lower = name.toLowerCase();
    if (HOP_BY_HOP.has(lower) || RECOMPUTED.has(lower) || named.has(lower)) continue;
    const lines = linesOf(lower, headerValueBytes(value));
    if (!HTTP_TOKEN.test(lower) || !sendable(lines)) continue;
    out[lower] = lines;
  }
  out.host = targetHost;
  for (const [name, value] of Object.entries(overrides ?? {})) {
    const lower = name.toLowerCase();
    if (!HTTP_TOKEN.test(name)) throw invalidField(`headers.${name}`, "must be an HTTP token (letters, digits and !#$%&'*+.^_`|~-)");
    if (value.startsWith(HEADER_BYTES_PREFIX) && !BASE64.test(value.slice(HEADER_BYTES_PREFIX.length))) {
      throw invalidField(`headers.${name}`, `must be base64 after "${HEADER_BYTES_PREFIX}"`);
    }
    const lines = linesOf(lower, headerValueBytes(value));
    if (!sendable(lines)) throw invalidField(`headers.${name}`, 'must not hold CR, LF, NUL or other control characters');
    if (HOP_BY_HOP.has(lower) || lower === 'content-length') {
      throw invalidField(`headers.${name}`, 'is a hop-by-hop or framing header the replay computes itself');
    }
    out[lower] = lines;
  }
  return out;
}
