import { invalidField } from '../../errors.js';

/** An HTTP token (RFC 9110 §5.6.2): what header names and methods are made of. */
export const HTTP_TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Bytes Node accepts in a header value: tab, visible ASCII, space and Latin-1 (no CR, LF, NUL, controls). */
export const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/**
 * Connection-specific (hop-by-hop) headers (RFC 9110 §7.6.1) plus the framing and routing
 * headers a forwarder recomputes: never copied from a captured request.
 */
export const HOP_BY_HOP = new Set([
  'connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade',
  'proxy-authenticate', 'proxy-authorization',
]);
const RECOMPUTED = new Set(['host', 'content-length', 'expect']);

/**
 * Headers a replay sends: the captured ones minus hop-by-hop headers (and those the captured
 * `connection` header names), `host`, `content-length` and `expect`; then `overrides` merged over
 * them (names case-insensitive). `host` defaults to the target's host; an override may set it.
 * Returns a null-prototype object so header names such as `__proto__` stay plain data.
 *
 * @example
 *   buildReplayHeaders({ 'x-sig': 'abc', connection: 'close', host: 'old' }, { 'X-Extra': '1' }, 'example.com')
 *   // { 'x-sig': 'abc', host: 'example.com', 'x-extra': '1' }
 */
export function buildReplayHeaders(
  captured: Record<string, string>,
  overrides: Record<string, string> | undefined,
  targetHost: string,
): Record<string, string> {
  const named = new Set((captured.connection ?? '').split(',').map((s) => s.trim().toLowerCase()).filter(Boolean));
  const out: Record<string, string> = Object.create(null);
  for (const [name, value] of Object.entries(captured)) {
    const lower = name.toLowerCase();
    if (HOP_BY_HOP.has(lower) || RECOMPUTED.has(lower) || named.has(lower)) continue;
    if (!HTTP_TOKEN.test(lower) || !HEADER_VALUE.test(value)) continue;
    out[lower] = value;
  }
  out.host = targetHost;
  for (const [name, value] of Object.entries(overrides ?? {})) {
    const lower = name.toLowerCase();
    if (!HTTP_TOKEN.test(name)) throw invalidField(`headers.${name}`, 'must be an HTTP token (letters, digits and !#$%&\'*+.^_`|~-)');
    if (!HEADER_VALUE.test(value)) throw invalidField(`headers.${name}`, 'must hold only tab, visible ASCII and Latin-1 characters (no CR, LF, NUL or other control characters, nothing above U+00FF such as emoji)');
    if (HOP_BY_HOP.has(lower) || lower === 'content-length') {
      throw invalidField(`headers.${name}`, 'is a hop-by-hop or framing header the replay computes itself');
    }
    out[lower] = value;
  }
  return out;
}
