import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { DevutilError } from '../../errors.js';
import { errorResponses, pageQuerySchema } from '../../http/schemas.js';
import type { Page } from '../../storage/types.js';
import { findOwnedBin } from './bin-actions.js';
import { binIdParams, callerKeyId } from './bin-routes.js';
import { requestDetailSchema, requestSummarySchema, requestToWire, summaryToWire } from './wire.js';

const EXAMPLE_SUMMARY = {
  request_id: 'req_0VbrioQK7hJ2kLm9Np0Qr3StUvWxYz',
  bin_id: 'bin_4fQ9xT2mZk8Lr0aBcDeFgH',
  method: 'POST',
  path: '/v1/catch/bin_4fQ9xT2mZk8Lr0aBcDeFgH/stripe',
  query_string: 'attempt=1',
  content_type: 'application/json',
  content_length: 17,
  source_ip: '203.0.113.7',
  timestamp: '2026-11-21T10:15:30.123Z',
};

const requestParams = {
  type: 'object',
  required: ['bin_id', 'request_id'],
  properties: { bin_id: { type: 'string' }, request_id: { type: 'string' } },
} as const;

/** Captured requests of a bin: list, detail, clear (CONTRACT §2.3). */
export default async function requestRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { store, now } = ctx;

  app.get('/v1/bins/:bin_id/requests', {
    config: { area: 'webhook' },
    schema: {
      summary: 'List captured requests, newest first',
      description:
        '`total` counts the requests the bin still retains (at most BIN_MAX_REQUESTS), while the bin\'s `request_count` ' +
        'counts every capture since creation. Equal timestamps are ordered by capture order. `limit` 1..200 (default 50), ' +
        '`offset` >= 0; anything else, non-integers included, is 422.',
      params: binIdParams,
      querystring: { ...pageQuerySchema, examples: [{ limit: 50, offset: 0 }] },
      response: {
        200: {
          type: 'object',
          required: ['total', 'requests'],
          properties: { total: { type: 'integer' }, requests: { type: 'array', items: requestSummarySchema } },
          examples: [{ total: 1, requests: [EXAMPLE_SUMMARY] }],
        },
        ...errorResponses('not_found'),
      },
    },
  }, async (request) => {
    const { bin_id } = request.params as { bin_id: string };
    await findOwnedBin(store, bin_id, callerKeyId(request), now());
    const page = await store.bins.listRequests(bin_id, request.query as Page);
    return { total: page.total, requests: page.items.map(summaryToWire) };
  });

  app.get('/v1/bins/:bin_id/requests/:request_id', {
    config: { area: 'webhook' },
    schema: {
      summary: 'Read one captured request in full',
      description:
        '`body` is the UTF-8 text of the body, or its base64 when the bytes are not valid UTF-8 (`body_encoding` says ' +
        'which). `content_length` is the byte count; `content_type` is `""` when the request had none.',
      params: requestParams,
      response: {
        200: {
          type: 'object',
          required: ['request'],
          properties: { request: requestDetailSchema },
          examples: [{
            request: {
              ...EXAMPLE_SUMMARY,
              headers: { 'content-type': 'application/json', 'user-agent': 'Stripe/1.0' },
              body: '{"event":"paid"}\n',
              body_encoding: 'utf8',
            },
          }],
        },
        ...errorResponses('not_found'),
      },
    },
  }, async (request) => {
    const { bin_id, request_id } = request.params as { bin_id: string; request_id: string };
    await findOwnedBin(store, bin_id, callerKeyId(request), now());
    const record = await store.bins.getRequest(bin_id, request_id);
    if (!record) throw new DevutilError('not_found', `No request ${request_id} in bin ${bin_id}.`);
    return { request: requestToWire(record) };
  });

  app.delete('/v1/bins/:bin_id/requests', {
    config: { area: 'webhook' },
    schema: {
      summary: 'Delete every captured request of a bin (the bin stays)',
      description: 'The bin keeps its `request_count`; the list is empty afterwards. `deleted` is how many were removed.',
      params: binIdParams,
      response: {
        200: {
          type: 'object',
          required: ['message', 'bin_id', 'deleted'],
          properties: { message: { type: 'string' }, bin_id: { type: 'string' }, deleted: { type: 'integer' } },
          examples: [{ message: 'requests cleared', bin_id: 'bin_4fQ9xT2mZk8Lr0aBcDeFgH', deleted: 12 }],
        },
        ...errorResponses('not_found'),
      },
    },
  }, async (request) => {
    const { bin_id } = request.params as { bin_id: string };
    await findOwnedBin(store, bin_id, callerKeyId(request), now());
    return { message: 'requests cleared', bin_id, deleted: await store.bins.clearRequests(bin_id) };
  });
}
