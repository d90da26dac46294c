import { METHODS, type IncomingMessage } from 'node:http';
import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyPluginAsync, type FastifyServerOptions, type RawServerDefault } from 'fastify';
import { createGate } from './auth/gate.js';
import authPlugin from './auth/plugin.js';
import type { Area } from './auth/plans.js';
import { withKeyCache } from './auth/key-cache.js';
import keyRoutes from './auth/routes.js';
import cryptoRoutes from './areas/crypto/routes.js';
import devtoolsRoutes from './areas/devtools/routes.js';
import dnsRoutes from './areas/dns/routes.js';
import emailRoutes from './areas/email/routes.js';
import geoRoutes from './areas/geo/routes.js';
import webhookRoutes from './areas/webhook/routes.js';
import { connectNotFound } from './areas/webhook/catch-connect.js';
import type { Config } from './config.js';
import type { AppContext } from './context.js';
import { answerClientError } from './http/client-error.js';
import { allowCrossOrigin, registerPreflight } from './http/cors.js';
import { registerErrorHandling, toDevutilError } from './http/error-handler.js';
import { errorBody } from './errors.js';
import { JSON_BODY_LIMIT, registerJsonBodyParser } from './http/json-body.js';
import { CollectingIncomingMessage } from './http/request-body.js';
import { AnsweredResponse } from './http/answered-response.js';
import { registerOpenApi } from './http/openapi.js';
import { fastPathServer, MAX_ID_LENGTH, type FastRoute, type UndecodableUrlRoute } from './http/fast-path.js';
import { lazyChildLogger } from './http/request-logger.js';
import { requestRecorder } from './http/request-record.js';
import { prependHook, withPrologue } from './http/route-hooks.js';
import { randomString } from './ids.js';
import { registerValidators } from './http/validation.js';
import { createMetrics } from './ops/metrics.js';
import opsRoutes from './ops/routes.js';
import type { Store } from './storage/types.js';

/** One plugin per area; `AREAS` chooses which ones a process serves. */
const AREA_PLUGINS: Record<Area, FastifyPluginAsync<AppContext>> = {
  webhook: webhookRoutes,
  devtools: devtoolsRoutes,
  auth: cryptoRoutes,
  dns: dnsRoutes,
  email: emailRoutes,
  geo: geoRoutes,
};

export interface BuildOptions {
  config: Config;
  store: Store;
  /** Epoch-ms clock; tests pass a controllable one. */
  now?: () => number;
  logger?: FastifyServerOptions['logger'];
  /** Server-level options (timeouts) set by the process that listens. */
  serverOptions?: Partial<FastifyServerOptions>;
  /** Resolution of replay target names (default node:dns); see AppContext.resolveHost. */
  resolveHost?: AppContext['resolveHost'];
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Request ids: a random per-app prefix (12 base62 characters, 71 bits) and a counter, so ids are
 * unique across processes without drawing random bytes per request.
 */
function requestIds(): () => string {
  const prefix = randomString(12) + '-';
  let n = 0;
  // join builds one flat string; `prefix + n` would be a rope, which Node's header-value check
  // (a regular expression) flattens through V8's runtime on every response.
  return () => [prefix, (++n).toString(36)].join('');
}

/**
 * Compose the service: framework defaults, authentication, OpenAPI, operations and the areas the
 * configuration enables. No logic lives here.
 *
 * @example
 *   const app = await buildApp({ config: loadConfig(), store });
 *   const res = await app.inject({ method: 'GET', url: '/healthz' });
 */
export async function buildApp(options: BuildOptions): Promise<FastifyInstance<RawServerDefault>> {
  const { config } = options;
  const now = options.now ?? Date.now;
  const keys = await withKeyCache(options.store.keys, now, options.store.pubsub);
  const store: Store = { ...options.store, keys };
  const nextRequestId = requestIds();
  const requestId = (req: IncomingMessage) => {
    const given = req.headers['x-request-id'];
    return typeof given === 'string' && REQUEST_ID.test(given) ? given : nextRequestId();
  };
  const fastRoutes: FastRoute[] = [];
  const undecodableUrlRoutes: UndecodableUrlRoute[] = [];
  const app = Fastify({
    logger: options.logger ?? false,
    ...(options.logger ? { childLoggerFactory: lazyChildLogger } : {}),
    // One line per request, written by our onResponse hook (no body, no key).
    logController: new LogController({ disableRequestLogging: true }),
    requestIdHeader: false,
    genReqId: requestId,
    serverFactory: fastPathServer(fastRoutes),
    trustProxy: config.trustProxy,
    bodyLimit: JSON_BODY_LIMIT,
    onProtoPoisoning: 'ignore',
    onConstructorPoisoning: 'ignore',
    routerOptions: { maxParamLength: MAX_ID_LENGTH, ignoreDuplicateSlashes: false },
    // A malformed URL (bad percent-encoding) never reaches a route: answer it in the contract shape.
    frameworkErrors: (error, request, reply) => {
      // The catch and mock paths take any sub-path, percent-encoded octets that are not UTF-8 included.
      if ((error as { code?: string }).code === 'FST_ERR_BAD_URL') {
        for (const route of undecodableUrlRoutes) if (route(request as FastifyRequest, reply as unknown as FastifyReply)) return;
      }
      const e = toDevutilError(error);
      void (reply as unknown as FastifyReply).code(e.status).header('x-request-id', request.id).send(errorBody(e));
    },
    // A request the HTTP parser refuses never reaches a route either (src/http/client-error.ts).
    clientErrorHandler: answerClientError(nextRequestId),
    ...options.serverOptions,
    // Requests whose body a parser can collect without the stream machinery (src/http/request-body.ts),
    // responses that report when their answer is handed to Node (src/http/answered-response.ts).
    http: { IncomingMessage: CollectingIncomingMessage, ServerResponse: AnsweredResponse, ...(options.serverOptions as { http?: object } | undefined)?.http },
  } as FastifyServerOptions) as unknown as FastifyInstance<RawServerDefault>;

  // The catch and mock paths answer every method Node's HTTP parser accepts (PURGE, PROPFIND, ...).
  for (const method of METHODS) {
    if (!app.supportedMethods.includes(method)) app.addHttpMethod(method, { hasBody: true });
  }
  registerValidators(app);
  registerJsonBodyParser(app);

  const logRequests = (app.log as { isLevelEnabled?: (level: string) => boolean }).isLevelEnabled?.('info') ?? false;
  const ctx: AppContext = { config, store, now, metrics: createMetrics(), requestId, fastRoutes, undecodableUrlRoutes, logRequests, resolveHost: options.resolveHost };
  const gate = createGate(ctx);

  // Callback-style hooks and route data bound at registration: these run on every request.
  const recordFor = (route: string) => {
    const record = requestRecorder(ctx.metrics, route, logRequests);
    return (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
      record(request.method, reply.statusCode, reply.elapsedTime, request.log);
      done();
    };
  };
  const recordUnmatched = recordFor('unmatched');
  app.addHook('onRoute', (route) => {
    route.onResponse = prependHook(route.onResponse, recordFor(route.url));
  });
  registerErrorHandling(app, (request, reply) => {
    reply.header('x-request-id', request.id);
    allowCrossOrigin(request, reply);
    reply.raw.once('finish', () => recordUnmatched(request, reply, () => undefined));
  });

  app.addHook('onClose', () => keys.close());
  await app.register(authPlugin, { gate });
  // After the auth plugin's onRoute hook, so these steps join the hook it put first on keyed routes.
  app.addHook('onRoute', (route) => {
    // A JSON endpoint called with no body at all sees `{}`, so its schema reports missing fields (a
    // body, when there is one, replaces it; the JSON parser reads an empty one as `{}` too, and answers
    // 400 invalid_json when that `{}` fails the schema: src/http/json-body.ts).
    const takesBody = route.schema?.body !== undefined;
    route.onRequest = withPrologue(route.onRequest as never, (request, reply) => {
      reply.header('x-request-id', request.id);
      // A browser on another origin may read the answer (src/http/cors.ts).
      allowCrossOrigin(request, reply);
      if (takesBody) request.body = {};
    });
  });
  await registerOpenApi(app);
  await app.register(opsRoutes, ctx);
  await app.register(keyRoutes, ctx);
  for (const area of config.areas) await app.register(AREA_PLUGINS[area], ctx);
  // Node drops a CONNECT nobody listens for without a word: without the catch path (AREAS), it is a 404.
  if (!config.areas.includes('webhook')) app.server.on('connect', connectNotFound(requestId, app.log));
  registerPreflight(app);
  return app;
}
