import { deletedSchema, errorResponses, pageQuerySchema } from '../../http/schemas.js';
import { httpMethodPattern, wordedPattern } from '../../http/validation.js';
import { mockExample, mockSchema } from './mock-wire.js';

/** Schemas of the mock management endpoints (spec §4.2, CONTRACT §2.5). */

/** Configurable fields; `withDefaults` adds the create defaults (PATCH must not get them). */
function mockFields(withDefaults: boolean) {
  const d = <T>(value: T) => (withDefaults ? { default: value } : {});
  return {
    name: { type: 'string', maxLength: 128, description: 'Friendly name, at most 128 characters.' },
    status_code: { type: 'integer', minimum: 100, maximum: 599, ...d(200), description: '100 to 599 (default 200).' },
    headers: {
      type: 'object',
      maxProperties: 50,
      propertyNames: { maxLength: 256 },
      additionalProperties: { type: 'string', maxLength: 8192 },
      description:
        'Extra response headers (names up to 256 characters, values up to 8192). Names must be HTTP tokens, values free of CR/LF/NUL; hop-by-hop headers, ' +
        '`content-length`, `transfer-encoding`, `x-mock-id`, `x-content-type-options` and `content-security-policy` are refused.',
    },
    body: {
      type: 'string',
      maxLength: 1024 * 1024,
      description:
        'Response body (default empty), served as UTF-8; a lone surrogate (`\\ud800`) is stored and served as U+FFFD. Not with `response_body`.',
    },
    response_body: { description: 'Any JSON value, served JSON-encoded when `body` is absent. Not with `body`.' },
    content_type: {
      type: 'string',
      minLength: 1,
      maxLength: 255,
      description:
        'Response content type; wins over a `content-type` entry in `headers`. Default: that entry when `headers` has one, else application/json.',
    },
    delay_ms: { type: 'integer', minimum: 0, maximum: 30000, ...d(0), description: '0 to 30000 (default 0).' },
    ttl_seconds: { type: 'integer', minimum: 60, maximum: 172800, ...d(86400), description: '60 to 172800 (default 86400).' },
    method: {
      type: withDefaults ? 'string' : ['string', 'null'],
      ...httpMethodPattern(false),
      maxLength: 32,
      description:
        'Serve only this method (upper-cased); others get 405 with `Allow`. A GET mock also answers HEAD. One of the methods the ' +
        'HTTP parser accepts (GET, POST, PUT, PATCH, DELETE, OPTIONS, PURGE, PROPFIND, REPORT, ...; others could never reach the ' +
        'mock: 422); CONNECT is refused (a tunnel request, never served).',
    },
    path: {
      type: withDefaults ? 'string' : ['string', 'null'],
      ...wordedPattern('^/[^?#\\s]*$', 'must start with / and hold no ?, # or whitespace'),
      maxLength: 1024,
      description:
        'Serve only at `/v1/mock/{mock_id}{path}`; other sub-paths get 404. Without it, the base path and every sub-path answer. ' +
        'No `.` or `..` segment (clients resolve them away before sending) and no lone surrogate.',
    },
  };
}

const createMockBody = {
  type: 'object',
  additionalProperties: false,
  properties: mockFields(true),
  examples: [
    {
      name: 'payment ok',
      status_code: 200,
      headers: { 'x-request-source': 'devutil' },
      body: '{"status":"paid"}',
      content_type: 'application/json',
      delay_ms: 0,
      ttl_seconds: 86400,
    },
  ],
} as const;

const patchMockBody = {
  type: 'object',
  additionalProperties: false,
  properties: mockFields(false),
  examples: [{ status_code: 503, delay_ms: 2000 }],
} as const;

const mockIdParams = {
  type: 'object',
  required: ['mock_id'],
  properties: { mock_id: { type: 'string' } },
} as const;

const mockResponse = {
  type: 'object',
  required: ['mock'],
  properties: { mock: mockSchema },
  examples: [{ mock: mockExample }],
} as const;

const createdMockResponse = {
  type: 'object',
  required: ['mock', 'url'],
  properties: { mock: mockSchema, url: { type: 'string', description: 'Absolute serving URL.' } },
  examples: [{ mock: mockExample, url: 'http://127.0.0.1:8080/v1/mock/mock_8kLm2NpQr5StUvWxYz0aBc' }],
} as const;

const mockListResponse = {
  type: 'object',
  required: ['total', 'mocks'],
  properties: { total: { type: 'integer' }, mocks: { type: 'array', items: mockSchema } },
  examples: [{ total: 1, mocks: [mockExample] }],
} as const;

export const createMockSchema = {
  operationId: 'createMock',
  summary: 'Create a mock endpoint',
  description:
    'The mock belongs to the calling key (other keys get 404). `url` is the absolute serving URL, built from ' +
    '`PUBLIC_BASE_URL` when set, else from the request, and ends with `path` when one is set (the only place such a mock answers; ' +
    '`mock.endpoint_url` stays the base path). `body` and `response_body` are exclusive (both → 422).',
  body: createMockBody,
  response: { 201: createdMockResponse },
};

export const listMocksSchema = {
  operationId: 'listMocks',
  summary: "List the caller's mocks",
  description: '(beyond) Live mocks of the calling key, newest first; `total` counts them all.',
  querystring: pageQuerySchema,
  response: { 200: mockListResponse },
};

export const readMockSchema = {
  operationId: 'getMock',
  summary: 'Read a mock with its hit count',
  params: mockIdParams,
  response: { 200: mockResponse, ...errorResponses('not_found') },
};

export const updateMockSchema = {
  operationId: 'updateMock',
  summary: 'Update a mock',
  description:
    '(beyond) Changes only the given fields, with the same validation as creation. `headers` replaces the whole ' +
    'set; `body` and `response_body` replace each other; `method: null` / `path: null` remove the restriction; ' +
    '`ttl_seconds` restarts the lifetime from now; `hit_count` is kept.',
  params: mockIdParams,
  body: patchMockBody,
  response: { 200: mockResponse, ...errorResponses('not_found') },
};

export const deleteMockSchema = {
  operationId: 'deleteMock',
  summary: 'Delete a mock',
  description: 'Afterwards the mock and its serving path answer 404.',
  params: mockIdParams,
  response: {
    200: { ...deletedSchema('mock_id'), examples: [{ message: 'mock deleted', mock_id: 'mock_8kLm2NpQr5StUvWxYz0aBc' }] },
    ...errorResponses('not_found'),
  },
};
