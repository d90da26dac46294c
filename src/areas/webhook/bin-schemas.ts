import { deletedSchema, errorResponses, pageQuerySchema } from '../../http/schemas.js';
import { binSchema } from './wire.js';

/** Schemas of the bin endpoints (CONTRACT §2.1): they validate, serialize and document them. */

const EXAMPLE_BIN = {
  bin_id: 'bin_4fQ9xT2mZk8Lr0aBcDeFgH',
  name: 'stripe test',
  created_at: '2026-11-21T10:15:30.123Z',
  expires_at: '2026-11-22T10:15:30.123Z',
  request_count: 0,
  catch_url: '/v1/catch/bin_4fQ9xT2mZk8Lr0aBcDeFgH',
};

/** The body of `POST /v1/bins` once validated (schema defaults applied). */
export interface CreateBinBody {
  name?: string;
  ttl_seconds: number;
}

export const binIdParams = {
  type: 'object',
  required: ['bin_id'],
  properties: { bin_id: { type: 'string' } },
} as const;

const createBody = {
  type: 'object',
  properties: {
    name: { type: 'string', maxLength: 128, description: 'Optional friendly name, at most 128 characters.' },
    ttl_seconds: { type: 'integer', minimum: 60, maximum: 172800, default: 86400, description: 'Lifetime, 60 to 172800 s.' },
  },
  additionalProperties: false,
  examples: [{ name: 'stripe test', ttl_seconds: 3600 }],
} as const;

const binResponse = {
  type: 'object',
  required: ['bin'],
  properties: { bin: binSchema },
  examples: [{ bin: EXAMPLE_BIN }],
} as const;

export const createBinSchema = {
  operationId: 'createBin',
  summary: 'Create a request bin',
  description:
    'The bin belongs to the calling key (other keys get 404). `ttl_seconds` defaults to 86400. `url` is the absolute ' +
    'catch URL: `PUBLIC_BASE_URL` when the server sets it, else the scheme and host of this request. At and after ' +
    '`expires_at` the bin behaves exactly as deleted.',
  body: createBody,
  response: {
    201: {
      type: 'object',
      required: ['bin', 'url'],
      properties: { bin: binSchema, url: { type: 'string', description: 'Absolute catch URL.' } },
      examples: [{ bin: EXAMPLE_BIN, url: `https://hooks.example.com${EXAMPLE_BIN.catch_url}` }],
    },
  },
};

export const listBinsSchema = {
  operationId: 'listBins',
  summary: "The caller's live bins, newest first",
  description: '`total` counts all live bins of the key; `limit` 1..200 (default 50), `offset` >= 0.',
  querystring: { ...pageQuerySchema, examples: [{ limit: 50, offset: 0 }] },
  response: {
    200: {
      type: 'object',
      required: ['total', 'bins'],
      properties: { total: { type: 'integer' }, bins: { type: 'array', items: binSchema } },
      examples: [{ total: 1, bins: [EXAMPLE_BIN] }],
    },
  },
};

export const readBinSchema = {
  operationId: 'getBin',
  summary: 'Read a bin',
  description: 'Unknown, expired, deleted and foreign bins all answer 404.',
  params: binIdParams,
  response: { 200: binResponse, ...errorResponses('not_found') },
};

export const deleteBinSchema = {
  operationId: 'deleteBin',
  summary: 'Delete a bin and its captured requests',
  description: 'Afterwards the bin, its requests and its catch path answer 404, and its live streams end.',
  params: binIdParams,
  response: {
    200: { ...deletedSchema('bin_id'), examples: [{ message: 'bin deleted', bin_id: EXAMPLE_BIN.bin_id }] },
    ...errorResponses('not_found'),
  },
};
