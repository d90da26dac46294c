import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { DevutilError } from '../../errors.js';
import { newTimeOrderedId } from '../../ids.js';
import type { CapturedRequestRecord } from '../../storage/types.js';

export interface RawCapture {
  binId: string;
  method: string;
  /** The request target as received (path and query). */
  url: string;
  /** Alternating names and values as received (`IncomingMessage.rawHeaders`). */
  rawHeaders: readonly string[];
  body: Buffer;
  sourceIp: string;
  now: number;
}

/**
 * Headers as stored, from the raw name/value list: names lower-cased, repeated ones joined with
 * ", " in arrival order. A null-prototype object, so a header named `__proto__` stays an entry.
 *
 * @example
 *   joinHeaders(['X-A', '1', 'x-a', '2']) // { 'x-a': '1, 2' }
 */
export function joinHeaders(rawHeaders: readonly string[]): Record<string, string> {
  const out: Record<string, string> = Object.create(null);
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i].toLowerCase();
    out[name] = name in out ? `${out[name]}, ${rawHeaders[i + 1]}` : rawHeaders[i + 1];
  }
  return out;
}

/**
 * The record one inbound request becomes: full path, raw query string (after the first `?`),
 * joined headers, exact body bytes.
 *
 * @example
 *   buildCapture({ binId, method: 'POST', url: '/v1/catch/bin_x/a?b=1', headers, body, sourceIp, now })
 *   // { path: '/v1/catch/bin_x/a', queryString: 'b=1', ... }
 */
export function buildCapture(raw: RawCapture): CapturedRequestRecord {
  const q = raw.url.indexOf('?');
  const headers = joinHeaders(raw.rawHeaders);
  return {
    id: newTimeOrderedId('req_', raw.now),
    binId: raw.binId,
    method: raw.method,
    path: q === -1 ? raw.url : raw.url.slice(0, q),
    queryString: q === -1 ? '' : raw.url.slice(q + 1),
    headers,
    body: raw.body,
    contentType: headers['content-type'] ?? '',
    sourceIp: raw.sourceIp,
    timestamp: raw.now,
  };
}

/**
 * Whether the request announces a body (the framework does not read bodies of GET, HEAD and other
 * bodyless methods, so the catch path reads them itself).
 *
 * @example
 *   announcesBody({ 'content-length': '3' }) // true
 */
export function announcesBody(headers: IncomingHttpHeaders): boolean {
  return headers['transfer-encoding'] !== undefined || (headers['content-length'] !== undefined && headers['content-length'] !== '0');
}
