import { isUtf8 } from 'node:buffer';
import type { NewCapture } from '../../storage/types.js';

export interface RawCapture {
  binId: string;
  method: string;
  /** The request target as received (path and query). */
  url: string;
  /** Alternating names and values as received (`IncomingMessage.rawHeaders`). */
  rawHeaders: readonly string[];
  body: Buffer;
  sourceIp: string;
}

/** Prefix of a stored header value given as the base64 of its bytes (bytes that are not UTF-8). */
export const HEADER_BYTES_PREFIX = 'base64:';
const NON_ASCII = /[^\x00-\x7f]/;

/**
 * A header value as stored, from Node's reading of it (one character per byte, Latin-1): the
 * UTF-8 text when the bytes are valid UTF-8; else `base64:` and the bytes in base64. A value that
 * itself starts with `base64:` is stored in that form too, so every stored value reads back to
 * exactly the bytes sent (see `headerValueBytes` for the way back).
 *
 * @example
 *   storedHeaderValue('caf\u00c3\u00a9') // 'café' (the bytes 63 61 66 c3 a9)
 *   storedHeaderValue('caf\u00e9') // 'base64:Y2Fm6Q==' (a Latin-1 é: not UTF-8)
 */
export function storedHeaderValue(latin1: string): string {
  const encoded = latin1.startsWith(HEADER_BYTES_PREFIX);
  if (!encoded && !NON_ASCII.test(latin1)) return latin1;
  const bytes = Buffer.from(latin1, 'latin1');
  return !encoded && isUtf8(bytes) ? bytes.toString('utf8') : HEADER_BYTES_PREFIX + bytes.toString('base64');
}

/**
 * What repeated lines of a header are joined with: `; ` for Cookie (RFC 6265 §5.4, as Node and
 * HTTP/2 join them), a line feed for Set-Cookie (its dates hold commas, so `, ` would be lossy;
 * a replay sends one line per part), `, ` for every other header (RFC 9110 §5.3).
 */
function separatorOf(name: string): string {
  return name === 'cookie' ? '; ' : name === 'set-cookie' ? '\n' : ', ';
}

/**
 * Headers as stored, from the raw name/value list: names lower-cased, repeated ones joined in
 * arrival order (see {@link separatorOf}), values as {@link storedHeaderValue} gives them. The
 * result is an ordinary object: only own properties count, and a header named `__proto__` is defined as an own entry, so no name reaches
 * the prototype.
 *
 * @example
 *   joinHeaders(['X-A', '1', 'x-a', '2', 'Cookie', 'a=1', 'cookie', 'b=2']) // { 'x-a': '1, 2', cookie: 'a=1; b=2' }
 */
export function joinHeaders(rawHeaders: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i].toLowerCase();
    const value = rawHeaders[i + 1];
    if (Object.hasOwn(out, name)) out[name] = `${out[name]}${separatorOf(name)}${value}`;
    else if (name === '__proto__') Object.defineProperty(out, name, { value, enumerable: true, writable: true, configurable: true });
    else out[name] = value;
  }
  // Decoded once joined: the separators are ASCII, so the joined bytes are UTF-8 exactly when every line is.
  for (const name in out) out[name] = storedHeaderValue(out[name]);
  return out;
}

/**
 * The path and query of a request target in absolute form (`http://host:port/v1/catch/…?q`, which
 * HTTP/1.1 servers must accept, RFC 9112 §3.2.2): the scheme and authority dropped.
 *
 * @example
 *   originForm('http://127.0.0.1:8080/v1/mock/mock_x/a?b=1') // '/v1/mock/mock_x/a?b=1'
 */
export function originForm(target: string): string {
  const authority = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/.exec(target);
  return authority ? target.slice(authority[0].length) || '/' : target;
}

/**
 * The record one inbound request becomes: full path, raw query string (after the first `?`),
 * joined headers, exact body bytes.
 *
 * @example
 *   buildCapture({ binId, method: 'POST', url: '/v1/catch/bin_x/a?b=1', rawHeaders, body, sourceIp }, Date.now())
 *   // { path: '/v1/catch/bin_x/a', queryString: 'b=1', ... }
 */
export function buildCapture(raw: RawCapture, now: number): NewCapture {
  const url = raw.url.charCodeAt(0) === 47 /* / */ ? raw.url : originForm(raw.url);
  const q = url.indexOf('?');
  const headers = joinHeaders(raw.rawHeaders);
  return {
    binId: raw.binId,
    method: raw.method,
    path: q === -1 ? url : url.slice(0, q),
    queryString: q === -1 ? '' : url.slice(q + 1),
    headers,
    body: raw.body,
    contentType: headers['content-type'] ?? '',
    sourceIp: raw.sourceIp,
    timestamp: now,
  };
}
