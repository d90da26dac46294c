import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema, HTTPMethods } from 'fastify';
import type { AppContext } from '../../context.js';
import { DevutilError } from '../../errors.js';
import { absoluteUrl } from '../../http/absolute-url.js';
import type { Page } from '../../storage/types.js';
import {
  clearCapturedRequests,
  createBin,
  deleteOwnedBin,
  findCapturedRequest,
  findOwnedBin,
  listCapturedRequests,
} from './bin-actions.js';
import { createBinSchema, deleteBinSchema, listBinsSchema, readBinSchema, type CreateBinBody } from './bin-schemas.js';
import { createCaptureStreams } from './bin-stream.js';
import { captureRequest, prepareCatchScope } from './catch-request.js';
import { catchOperationIds, catchSchema, catchSubPathOperationIds, catchSubPathSchema, type DocumentedMethod } from './catch-schemas.js';
import { createMock, deleteOwnedMock, findOwnedMock, listOwnedMocks, updateOwnedMock } from './mock-actions.js';
import type { MockInput } from './mock-config.js';
import { createMockSchema, deleteMockSchema, listMocksSchema, readMockSchema, updateMockSchema } from './mock-schemas.js';
import { prepareMockServeScope, serveMock } from './mock-serve.js';
import { serveMockOperationIds, serveMockSchema } from './mock-serve-schemas.js';
import { mockServingPath, mockToWire } from './mock-wire.js';
import { startPurgeTimer } from './purge-timer.js';
import { replayRequest } from './replay.js';
import { replaySchema, type ReplayBody } from './replay-schemas.js';
import { clearRequestsSchema, listRequestsSchema, readRequestSchema, streamSchema } from './request-schemas.js';
import { binToWire, catchPath, requestToWire, summaryToWire } from './wire.js';

type BinParams = { Params: { bin_id: string } };
type RequestParams = { Params: { bin_id: string; request_id: string } };
type MockParams = { Params: { mock_id: string } };
type StreamRoute = BinParams & { Querystring: { last_event_id?: string }; Headers: { 'last-event-id'?: string } };

/**
 * The key that owns what this request creates or reads. Bins always need an owner, so an anonymous
 * caller (an area opened by `PUBLIC_AREAS`) is asked for a key.
 */
function callerKeyId(request: FastifyRequest): string {
  const key = request.principal?.key;
  if (!key) throw new DevutilError('missing_api_key', 'Bins belong to an API key: send one in the X-API-Key header.');
  return key.id;
}

/**
 * Webhook area (spec §4.1-4.2, CONTRACT §2): every endpoint with its URL and the function that does
 * its work. Bins, captured requests, streams and mocks need a key; the catch and mock serving paths
 * are public (the id is the capability) and answer every method.
 */
export default async function webhookRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { store, now, config } = ctx;
  const webhook = { area: 'webhook' } as const;

  // Bins (CONTRACT §2.1)
  app.post<{ Body: CreateBinBody }>('/v1/bins', { config: webhook, schema: createBinSchema }, async (request, reply) => {
    const bin = await createBin(
      store,
      { ownerKeyId: callerKeyId(request), name: request.body.name, ttlSeconds: request.body.ttl_seconds },
      now(),
    );
    return reply.status(201).send({ bin: binToWire(bin), url: absoluteUrl(config.publicBaseUrl, request, catchPath(bin.id)) });
  });
  app.get<{ Querystring: Page }>('/v1/bins', { config: webhook, schema: listBinsSchema }, async (request) => {
    const page = await store.bins.listBins(callerKeyId(request), request.query, now());
    return { total: page.total, bins: page.items.map(binToWire) };
  });
  app.get<BinParams>('/v1/bins/:bin_id', { config: webhook, schema: readBinSchema }, async (request) => ({
    bin: binToWire(await findOwnedBin(store, request.params.bin_id, callerKeyId(request), now())),
  }));
  app.delete<BinParams>('/v1/bins/:bin_id', { config: webhook, schema: deleteBinSchema }, async (request) => {
    await deleteOwnedBin(store, request.params.bin_id, callerKeyId(request), now());
    return { message: 'bin deleted', bin_id: request.params.bin_id };
  });

  // Captured requests of a bin (CONTRACT §2.3)
  app.get<BinParams & { Querystring: Page }>(
    '/v1/bins/:bin_id/requests',
    { config: webhook, schema: listRequestsSchema },
    async (request) => {
      const page = await listCapturedRequests(store, request.params.bin_id, callerKeyId(request), request.query, now());
      return { total: page.total, requests: page.items.map(summaryToWire) };
    },
  );
  app.get<RequestParams>('/v1/bins/:bin_id/requests/:request_id', { config: webhook, schema: readRequestSchema }, async (request) => {
    const { bin_id, request_id } = request.params;
    return { request: requestToWire(await findCapturedRequest(store, bin_id, request_id, callerKeyId(request), now())) };
  });
  app.delete<BinParams>('/v1/bins/:bin_id/requests', { config: webhook, schema: clearRequestsSchema }, async (request) => {
    const { bin_id } = request.params;
    return { message: 'requests cleared', bin_id, deleted: await clearCapturedRequests(store, bin_id, callerKeyId(request), now()) };
  });

  // Live stream of a bin's captures, Server-Sent Events (CONTRACT §2.3)
  const streams = createCaptureStreams(ctx);
  app.addHook('preClose', async () => streams.endAll('server_shutdown'));
  app.get<StreamRoute>('/v1/bins/:bin_id/stream', { config: webhook, schema: streamSchema }, async (request, reply) => {
    const bin = await findOwnedBin(store, request.params.bin_id, callerKeyId(request), now());
    // The header wins: a browser's EventSource sends the newest id there, while its URL keeps the first one.
    const lastEventId = request.headers['last-event-id'] || request.query.last_event_id || undefined;
    return streams.open(request, reply, bin.id, lastEventId);
  });

  // Replay a captured request (spec §4.1, CONTRACT §2.4)
  app.post<RequestParams & { Body: ReplayBody }>(
    '/v1/bins/:bin_id/requests/:request_id/replay',
    { config: webhook, schema: replaySchema },
    async (request) =>
      replayRequest(ctx, {
        binId: request.params.bin_id,
        requestId: request.params.request_id,
        ownerKeyId: request.principal?.key?.id,
        targetUrl: request.body.target_url,
        method: request.body.method,
        headers: request.body.headers,
      }),
  );

  // Catch (CONTRACT §2.2): ANY /v1/catch/{bin_id} and ANY /v1/catch/{bin_id}/*, every body kept byte for byte
  await app.register(async (scope) => {
    prepareCatchScope(scope, ctx);
    const capture = (request: FastifyRequest<BinParams>, reply: FastifyReply) => captureRequest(ctx, request, reply);
    routeEveryMethod(scope, '/v1/catch/:bin_id', catchSchema, catchOperationIds, config.maxBodyBytes, capture);
    routeEveryMethod(scope, '/v1/catch/:bin_id/*', catchSubPathSchema, catchSubPathOperationIds, config.maxBodyBytes, capture);
  });

  // Mocks (spec §4.2, CONTRACT §2.5)
  app.post<{ Body: MockInput }>('/v1/mocks', { config: webhook, schema: createMockSchema }, async (request, reply) => {
    const mock = await createMock(store, request.body, request.principal?.key?.id, now());
    return reply.status(201).send({ mock: mockToWire(mock), url: absoluteUrl(config.publicBaseUrl, request, mockServingPath(mock)) });
  });
  app.get<{ Querystring: Page }>('/v1/mocks', { config: webhook, schema: listMocksSchema }, async (request) => {
    const page = await listOwnedMocks(store, request.principal?.key?.id, request.query, now());
    return { total: page.total, mocks: page.items.map(mockToWire) };
  });
  app.get<MockParams>('/v1/mocks/:mock_id', { config: webhook, schema: readMockSchema }, async (request) => ({
    mock: mockToWire(await findOwnedMock(store, request.params.mock_id, request.principal?.key?.id, now())),
  }));
  app.patch<MockParams & { Body: MockInput }>('/v1/mocks/:mock_id', { config: webhook, schema: updateMockSchema }, async (request) => ({
    mock: mockToWire(await updateOwnedMock(store, request.params.mock_id, request.body, request.principal?.key?.id, now())),
  }));
  app.delete<MockParams>('/v1/mocks/:mock_id', { config: webhook, schema: deleteMockSchema }, async (request) => {
    await deleteOwnedMock(store, request.params.mock_id, request.principal?.key?.id, now());
    return { message: 'mock deleted', mock_id: request.params.mock_id };
  });

  // Mock serving (CONTRACT §2.5): ANY /v1/mock/{mock_id} and ANY /v1/mock/{mock_id}/*, any body accepted and ignored
  await app.register(async (scope) => {
    prepareMockServeScope(scope);
    const serve = (request: FastifyRequest<MockParams>, reply: FastifyReply) => serveMock(ctx, request, reply);
    routeEveryMethod(scope, '/v1/mock/:mock_id', serveMockSchema, serveMockOperationIds, config.maxBodyBytes, serve);
    // A sub-path is the same operation as the base path: not documented twice.
    routeEveryMethod(scope, '/v1/mock/:mock_id/*', serveMockSchema, null, config.maxBodyBytes, serve);
  });

  startPurgeTimer(app, ctx);
}

/**
 * Register a public `url` for every method the server accepts but CONNECT (which Node hands to the
 * server's 'connect' event, never to a route): each method of `operationIds` as its own documented
 * operation, the others (PURGE, PROPFIND, ...; all of them without `operationIds`) as the same work,
 * hidden from the OpenAPI document.
 */
function routeEveryMethod<P>(
  scope: FastifyInstance,
  url: string,
  schema: FastifySchema,
  operationIds: Record<DocumentedMethod, string> | null,
  bodyLimit: number,
  handler: (request: FastifyRequest<{ Params: P }>, reply: FastifyReply) => Promise<unknown>,
): void {
  // HEAD is a route of its own here, not the copy Fastify would make of GET.
  const route = { url, bodyLimit, handler, exposeHeadRoute: false };
  const documented = Object.entries(operationIds ?? {}) as Array<[DocumentedMethod, string]>;
  for (const [method, operationId] of documented) {
    // A list, even of one: the OpenAPI generator drops a lone `'HEAD'` route, or renames its operationId `…-head`.
    scope.route<{ Params: P }>({ ...route, method: [method], config: { area: 'public' }, schema: { ...schema, operationId } });
  }
  const others = scope.supportedMethods.filter((m) => m !== 'CONNECT' && !documented.some(([d]) => d === m)) as HTTPMethods[];
  scope.route<{ Params: P }>({ ...route, method: others, config: { area: 'public' }, schema: { ...schema, hide: true } });
}
