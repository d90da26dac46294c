import { isUtf8 } from 'node:buffer';
import { isoTime, timestampSchema } from '../../http/schemas.js';
import type { BinRecord, CapturedRequestRecord, CapturedRequestSummary, NewCapture } from '../../storage/types.js';

/**
 * The one place bins and captured requests are mapped to the wire (snake_case, CONTRACT §2.1-2.3),
 * with the JSON Schemas that document and serialize them.
 */

export const binSchema = {
  type: 'object',
  required: ['bin_id', 'name', 'created_at', 'expires_at', 'request_count', 'catch_url'],
  properties: {
    bin_id: { type: 'string', examples: ['bin_4fQ9xT2mZk8Lr0aBcDeFgH'] },
    name: { type: 'string', description: 'Friendly name; `""` when none was given.' },
    created_at: timestampSchema,
    expires_at: timestampSchema,
    request_count: { type: 'integer', description: 'Every request captured since creation, evicted ones included.' },
    catch_url: { type: 'string', description: 'Relative catch path.', examples: ['/v1/catch/bin_4fQ9xT2mZk8Lr0aBcDeFgH'] },
  },
} as const;

export const requestSummarySchema = {
  type: 'object',
  required: ['request_id', 'bin_id', 'method', 'path', 'query_string', 'content_type', 'content_length', 'source_ip', 'timestamp'],
  properties: {
    request_id: { type: 'string', examples: ['req_00000CQK7hJ2kLm9Np0Qr3StUvWx'] },
    bin_id: { type: 'string' },
    method: { type: 'string', examples: ['POST'] },
    path: { type: 'string', description: 'Full request path, sub-path included, without the query string.' },
    query_string: { type: 'string', description: 'Raw query string without the `?`; `""` when none.' },
    content_type: { type: 'string', description: '`""` when the request had none.' },
    content_length: { type: 'integer', description: 'Body size in bytes.' },
    source_ip: { type: 'string' },
    timestamp: timestampSchema,
  },
} as const;

export const requestDetailSchema = {
  type: 'object',
  required: [...requestSummarySchema.required, 'headers', 'body', 'body_encoding'],
  properties: {
    ...requestSummarySchema.properties,
    headers: {
      type: 'object',
      description:
        'Names lower-cased; repeated headers joined with ", ", except Cookie (joined with "; ", as RFC 6265 and Node join them) and ' +
        'Set-Cookie (one line per header, joined with a line feed: its dates hold commas; a replay sends each line as its own ' +
        'Set-Cookie header). A value is the UTF-8 text of the bytes sent; when they are not valid ' +
        'UTF-8 it is `base64:` followed by the bytes in base64 (so is a value that itself starts with `base64:`, which keeps the ' +
        'form unambiguous). A replay sends exactly the bytes captured.',
      additionalProperties: { type: 'string' },
    },
    body: { type: 'string', description: 'The body as UTF-8 text, or base64 when the bytes are not valid UTF-8.' },
    body_encoding: { type: 'string', enum: ['utf8', 'base64'] },
  },
} as const;

export interface WireBin {
  bin_id: string;
  name: string;
  created_at: string;
  expires_at: string;
  request_count: number;
  catch_url: string;
}

/**
 * The relative catch path of a bin.
 *
 * @example
 *   catchPath('bin_abc') // '/v1/catch/bin_abc'
 */
export function catchPath(binId: string): string {
  return `/v1/catch/${binId}`;
}

/**
 * A bin as the API shows it.
 *
 * @example
 *   binToWire(bin).catch_url // '/v1/catch/bin_...'
 */
export function binToWire(bin: BinRecord): WireBin {
  return {
    bin_id: bin.id,
    name: bin.name ?? '',
    created_at: isoTime(bin.createdAt),
    expires_at: isoTime(bin.expiresAt),
    request_count: bin.requestCount,
    catch_url: catchPath(bin.id),
  };
}

/**
 * Body bytes as wire text: UTF-8 when valid, else base64 (CONTRACT §2.2).
 *
 * @example
 *   encodeBody(Buffer.from([0xff])) // { body: '/w==', body_encoding: 'base64' }
 */
export function encodeBody(bytes: Buffer): { body: string; body_encoding: 'utf8' | 'base64' } {
  return isUtf8(bytes)
    ? { body: bytes.toString('utf8'), body_encoding: 'utf8' }
    : { body: bytes.toString('base64'), body_encoding: 'base64' };
}

/**
 * A list item (also the SSE `request` event payload).
 *
 * @example
 *   summaryToWire(summary).content_length // 42
 */
export function summaryToWire(s: CapturedRequestSummary) {
  return {
    request_id: s.id,
    bin_id: s.binId,
    method: s.method,
    path: s.path,
    query_string: s.queryString,
    content_type: s.contentType,
    content_length: s.contentLength,
    source_ip: s.sourceIp,
    timestamp: isoTime(s.timestamp),
  };
}

/**
 * A captured request in full. Replay reads the exact bytes from the record, never from this.
 *
 * @example
 *   requestToWire(record).body_encoding // 'utf8'
 */
export function requestToWire(r: CapturedRequestRecord) {
  return {
    ...summaryToWire({ ...r, contentLength: r.body.length }),
    headers: r.headers,
    ...encodeBody(r.body),
  };
}

/**
 * The summary of a capture just stored under `id` (what the list and the live stream show).
 *
 * @example
 *   summaryOf(record, 'req_…').contentLength // record.body.length
 */
export function summaryOf(r: NewCapture, id: string): CapturedRequestSummary {
  return {
    id,
    binId: r.binId,
    method: r.method,
    path: r.path,
    queryString: r.queryString,
    contentType: r.contentType,
    contentLength: r.body.length,
    sourceIp: r.sourceIp,
    timestamp: r.timestamp,
  };
}
