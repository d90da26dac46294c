import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { DevutilError } from '../../errors.js';
import { absoluteUrl } from '../../http/absolute-url.js';
import { deletedSchema, errorResponses, pageQuerySchema } from '../../http/schemas.js';
import type { Page } from '../../storage/types.js';
import { createBin, deleteOwnedBin, findOwnedBin } from './bin-actions.js';
import { binSchema, binToWire, catchPath } from './wire.js';

const EXAMPLE_BIN = {
  bin_id: 'bin_4fQ9xT2mZk8Lr0aBcDeFgH',
  name: 'stripe test',
  created_at: '2026-11-21T10:15:30.123Z',
  expires_at: '2026-11-22T10:15:30.123Z',
  request_count: 0,
  catch_url: '/v1/catch/bin_4fQ9xT2mZk8Lr0aBcDeFgH',
};

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

/**
 * The key that owns what this request creates or reads. Bins always need an owner, so an anonymous
 * caller (an area opened by `PUBLIC_AREAS`) is asked for a key.
 *
 * @example
 *   findOwnedBin(store, binId, callerKeyId(request), now());
 */
export function callerKeyId(request: FastifyRequest): string {
  const key = request.principal?.key;
  if (!key) throw new DevutilError('missing_api_key', 'Bins belong to an API key: send one in the X-API-Key header.');
  return key.id;
}

/** Bins: create, list, read, delete (CONTRACT §2.1). */
export default async function binRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { store, now } = ctx;

  app.post('/v1/bins', {
    config: { area: 'webhook' },
    schema: {
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
    },
  }, async (request, reply) => {
    const body = request.body as { name?: string; ttl_seconds: number };
    const bin = await createBin(store, { ownerKeyId: callerKeyId(request), name: body.name, ttlSeconds: body.ttl_seconds }, now());
    return reply.status(201).send({ bin: binToWire(bin), url: absoluteUrl(ctx.config.publicBaseUrl, request, catchPath(bin.id)) });
  });

  app.get('/v1/bins', {
    config: { area: 'webhook' },
    schema: {
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
    },
  }, async (request) => {
    const page = await store.bins.listBins(callerKeyId(request), request.query as Page, now());
    return { total: page.total, bins: page.items.map(binToWire) };
  });

  app.get('/v1/bins/:bin_id', {
    config: { area: 'webhook' },
    schema: {
      summary: 'Read a bin',
      description: 'Unknown, expired, deleted and foreign bins all answer 404.',
      params: binIdParams,
      response: { 200: binResponse, ...errorResponses('not_found') },
    },
  }, async (request) => {
    const { bin_id } = request.params as { bin_id: string };
    return { bin: binToWire(await findOwnedBin(store, bin_id, callerKeyId(request), now())) };
  });

  app.delete('/v1/bins/:bin_id', {
    config: { area: 'webhook' },
    schema: {
      summary: 'Delete a bin and its captured requests',
      description: 'Afterwards the bin, its requests and its catch path answer 404, and its live streams end.',
      params: binIdParams,
      response: {
        200: { ...deletedSchema('bin_id'), examples: [{ message: 'bin deleted', bin_id: EXAMPLE_BIN.bin_id }] },
        ...errorResponses('not_found'),
      },
    },
  }, async (request) => {
    const { bin_id } = request.params as { bin_id: string };
    await deleteOwnedBin(store, bin_id, callerKeyId(request), now());
    return { message: 'bin deleted', bin_id };
  });
}
