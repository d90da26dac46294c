import { isoTime, timestampSchema } from '../../http/schemas.js';
import type { MockRecord } from '../../storage/types.js';

/**
 * The one place mocks are mapped to the wire (spec §2.3 plus beyond fields), with the JSON
 * Schemas that document and serialize them.
 */

export const mockSchema = {
  type: 'object',
  required: [
    'mock_id',
    'name',
    'status_code',
    'content_type',
    'delay_ms',
    'has_custom_headers',
    'has_body',
    'created_at',
    'expires_at',
    'hit_count',
    'endpoint_url',
    'headers',
    'body',
    'method',
    'path',
  ],
  properties: {
    mock_id: { type: 'string', examples: ['mock_8kLm2NpQr5StUvWxYz0aBc'] },
    name: { type: 'string', description: 'Friendly name; `""` when none was given.' },
    status_code: { type: 'integer' },
    content_type: { type: 'string' },
    delay_ms: { type: 'integer' },
    has_custom_headers: { type: 'boolean' },
    has_body: { type: 'boolean', description: 'True when `body` is non-empty or `response_body` is set.' },
    created_at: timestampSchema,
    expires_at: timestampSchema,
    hit_count: { type: 'integer', description: 'Responses served; exact as soon as each response is sent.' },
    endpoint_url: { type: 'string', description: 'Relative serving path.', examples: ['/v1/mock/mock_8kLm2NpQr5StUvWxYz0aBc'] },
    headers: { type: 'object', additionalProperties: { type: 'string' }, description: '(beyond) Custom response headers.' },
    body: { type: 'string', description: '(beyond) Configured body; `""` when none.' },
    response_body: { description: '(beyond) Configured structured body (any JSON), present only when set.' },
    method: { type: ['string', 'null'], description: '(beyond) Only method served, or null for any.' },
    path: { type: ['string', 'null'], description: '(beyond) Only sub-path served, or null for the base path and every sub-path.' },
  },
} as const;

export const mockExample = {
  mock_id: 'mock_8kLm2NpQr5StUvWxYz0aBc',
  name: 'payment ok',
  status_code: 200,
  content_type: 'application/json',
  delay_ms: 0,
  has_custom_headers: true,
  has_body: true,
  created_at: '2026-11-21T10:15:30.123Z',
  expires_at: '2026-11-22T10:15:30.123Z',
  hit_count: 0,
  endpoint_url: '/v1/mock/mock_8kLm2NpQr5StUvWxYz0aBc',
  headers: { 'x-request-source': 'devutil' },
  body: '{"status":"paid"}',
  method: null,
  path: null,
};

export interface WireMock {
  mock_id: string;
  name: string;
  status_code: number;
  content_type: string;
  delay_ms: number;
  has_custom_headers: boolean;
  has_body: boolean;
  created_at: string;
  expires_at: string;
  hit_count: number;
  endpoint_url: string;
  headers: Record<string, string>;
  body: string;
  response_body?: unknown;
  method: string | null;
  path: string | null;
}

/**
 * The relative serving path of a mock.
 *
 * @example
 *   mockPath('mock_abc') // '/v1/mock/mock_abc'
 */
export function mockPath(mockId: string): string {
  return `/v1/mock/${mockId}`;
}

/**
 * Where a mock answers, relative: its base path, or the only path it is restricted to
 * (percent-encoded as a URL needs).
 *
 * @example
 *   mockServingPath({ ...mock, id: 'mock_abc', path: '/a b' }) // '/v1/mock/mock_abc/a%20b'
 */
export function mockServingPath(mock: MockRecord): string {
  return mockPath(mock.id) + (mock.path === null ? '' : encodeURI(mock.path));
}

/**
 * A mock as the API shows it.
 *
 * @example
 *   mockToWire(mock).endpoint_url // '/v1/mock/mock_...'
 */
export function mockToWire(mock: MockRecord): WireMock {
  const wire: WireMock = {
    mock_id: mock.id,
    name: mock.name ?? '',
    status_code: mock.statusCode,
    content_type: mock.contentType,
    delay_ms: mock.delayMs,
    has_custom_headers: Object.keys(mock.headers).length > 0,
    has_body: (mock.body ?? '') !== '' || mock.responseBodyJson !== null,
    created_at: isoTime(mock.createdAt),
    expires_at: isoTime(mock.expiresAt),
    hit_count: mock.hitCount,
    endpoint_url: mockPath(mock.id),
    headers: mock.headers,
    body: mock.body ?? '',
    method: mock.method,
    path: mock.path,
  };
  if (mock.responseBodyJson !== null) wire.response_body = JSON.parse(mock.responseBodyJson);
  return wire;
}

/**
 * What the serving path answers with: `body`, else `response_body` JSON-encoded, else nothing.
 *
 * @example
 *   servedBody({ ...mock, body: null, responseBodyJson: '{"ok":true}' }) // '{"ok":true}'
 */
export function servedBody(mock: MockRecord): string {
  return mock.body ?? mock.responseBodyJson ?? '';
}
