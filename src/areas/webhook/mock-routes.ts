import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { DevutilError } from '../../errors.js';
import { absoluteUrl } from '../../http/absolute-url.js';
import { deletedSchema, errorResponses, pageQuerySchema } from '../../http/schemas.js';
import type { MockRecord } from '../../storage/types.js';
import { buildMock, buildMockPatch, type MockInput } from './mock-config.js';
import { createdMockResponse, createMockBody, mockIdParams, mockListResponse, mockResponse, patchMockBody } from './mock-schemas.js';
import mockServeRoutes from './mock-serve.js';
import { mockPath, mockToWire } from './mock-wire.js';

type IdRequest = FastifyRequest<{ Params: { mock_id: string } }>;

function callerId(request: FastifyRequest): string {
  const id = request.principal?.key?.id;
  // Anonymous callers (PUBLIC_AREAS) own nothing.
  if (!id) throw new DevutilError('not_found', 'Anonymous callers have no mocks.');
  return id;
}

/** The caller's live mock, or 404 (unknown, expired, deleted and foreign mocks look alike). */
async function getOwnedMock(ctx: AppContext, request: IdRequest): Promise<MockRecord> {
  const mock = await ctx.store.mocks.getMock(request.params.mock_id, ctx.now());
  if (!mock || mock.ownerKeyId !== callerId(request)) throw new DevutilError('not_found', `No mock with id ${request.params.mock_id}.`);
  return mock;
}

/** Mock management (`/v1/mocks...`, key required) and the public serving path (spec §4.2, CONTRACT §2.5). */
export default async function mockRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const config = { area: 'webhook' } as const;

  app.post<{ Body: MockInput }>('/v1/mocks', {
    config,
    schema: {
      summary: 'Create a mock endpoint',
      description: 'The mock belongs to the calling key (other keys get 404). `url` is the absolute serving URL, built from ' +
        '`PUBLIC_BASE_URL` when set, else from the request, and ends with `path` when one is set (the only place such a mock answers; ' +
        '`mock.endpoint_url` stays the base path). `body` and `response_body` are exclusive (both → 422).',
      body: createMockBody,
      response: { 201: createdMockResponse },
    },
  }, async (request, reply) => {
    const mock = buildMock(request.body, callerId(request), ctx.now());
    await ctx.store.mocks.createMock(mock);
    // A mock restricted to a path answers only there: its URL includes the path (percent-encoded as a URL needs).
    const url = absoluteUrl(ctx.config.publicBaseUrl, request, mockPath(mock.id) + (mock.path === null ? '' : encodeURI(mock.path)));
    return reply.status(201).send({ mock: mockToWire(mock), url });
  });

  app.get<{ Querystring: { limit: number; offset: number } }>('/v1/mocks', {
    config,
    schema: {
      summary: "List the caller's mocks",
      description: '(beyond) Live mocks of the calling key, newest first; `total` counts them all.',
      querystring: pageQuerySchema,
      response: { 200: mockListResponse },
    },
  }, async (request) => {
    const page = await ctx.store.mocks.listMocks(callerId(request), request.query, ctx.now());
    return { total: page.total, mocks: page.items.map(mockToWire) };
  });

  app.get<{ Params: { mock_id: string } }>('/v1/mocks/:mock_id', {
    config,
    schema: {
      summary: 'Read a mock with its hit count',
      params: mockIdParams,
      response: { 200: mockResponse, ...errorResponses('not_found') },
    },
  }, async (request) => ({ mock: mockToWire(await getOwnedMock(ctx, request)) }));

  app.patch<{ Params: { mock_id: string }; Body: MockInput }>('/v1/mocks/:mock_id', {
    config,
    schema: {
      summary: 'Update a mock',
      description: '(beyond) Changes only the given fields, with the same validation as creation. `headers` replaces the whole ' +
        'set; `body` and `response_body` replace each other; `method: null` / `path: null` remove the restriction; ' +
        '`ttl_seconds` restarts the lifetime from now; `hit_count` is kept.',
      params: mockIdParams,
      body: patchMockBody,
      response: { 200: mockResponse, ...errorResponses('not_found') },
    },
  }, async (request) => {
    await getOwnedMock(ctx, request);
    const updated = await ctx.store.mocks.updateMock(request.params.mock_id, buildMockPatch(request.body, ctx.now()), ctx.now());
    if (!updated) throw new DevutilError('not_found', `No mock with id ${request.params.mock_id}.`);
    return { mock: mockToWire(updated) };
  });

  app.delete<{ Params: { mock_id: string } }>('/v1/mocks/:mock_id', {
    config,
    schema: {
      summary: 'Delete a mock',
      description: 'Afterwards the mock and its serving path answer 404.',
      params: mockIdParams,
      response: { 200: { ...deletedSchema('mock_id'), examples: [{ message: 'mock deleted', mock_id: 'mock_8kLm2NpQr5StUvWxYz0aBc' }] }, ...errorResponses('not_found') },
    },
  }, async (request) => {
    const mock = await getOwnedMock(ctx, request);
    await ctx.store.mocks.deleteMock(mock.id);
    return { message: 'mock deleted', mock_id: mock.id };
  });

  await app.register(mockServeRoutes, ctx);
}
