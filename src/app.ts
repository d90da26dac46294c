import { METHODS, type IncomingMessage } from 'node:http';
import Fastify, {
  type FastifyInstance,
  type FastifyPluginAsync,
  type FastifyReply,
  type FastifyServerOptions,
  type RawServerDefault,
} from 'fastify';
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
import { createClientErrorAnswers } from './http/client-error.js';
import { allowCrossOrigin, registerPreflight } from './http/cors.js';
import { registerErrorHandling, toDevutilError } from './http/error-handler.js';
import { errorBody } from './errors.js';
import { JSON_BODY_LIMIT, registerJsonBodyParser } from './http/json-body.js';
import { registerOpenApi } from './http/openapi.js';
import { RequestRecorder } from './http/request-record.js';
import { routableUrl } from './http/routable-url.js';
import { sharedSerializers } from './http/shared-serializers.js';
import { randomString } from './lib/ids.js';
import { registerValidators } from './http/validation.js';
import webApp, { defaultWebRoot } from './http/web-app.js';
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
  /** The built web app's directory (default `dist/web` of the package); served unless `UI=false`. */
  webRoot?: string;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The router's maxParamLength: longer than any URL Node accepts (its 16 KiB header limit), so an
 * overlong bin or mock id is an unknown one (404), never the router's 400.
 */
const MAX_PARAM_LENGTH = 16 * 1024;

/**
 * Request ids: a random per-app prefix (12 base62 characters, 71 bits) and a counter, so ids are
 * unique across processes without drawing random bytes per request.
 */
function requestIds(): () => string {
  const prefix = randomString(12) + '-';
  let n = 0;
  return () => prefix + (++n).toString(36);
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
  const clientErrors = createClientErrorAnswers(nextRequestId);
  const metrics = createMetrics();
  // Metrics and one line per request (no body, no key), recorded as each answer completes. Fastify
  // reports completed requests only with a logger, so there is always one (silent by default).
  const recorder = new RequestRecorder(metrics);
  const app = Fastify({
    logger: options.logger || { level: 'silent' },
    logController: recorder,
    // Requests share the app's logger rather than each paying for a pino child (about 7% of a small
    // tool call, bench/README.md); the request-scoped lines name their request with `reqId` themselves.
    childLoggerFactory: (logger) => logger,
    requestIdHeader: false,
    genReqId: requestId,
    trustProxy: config.trustProxy,
    bodyLimit: JSON_BODY_LIMIT,
    onProtoPoisoning: 'ignore',
    onConstructorPoisoning: 'ignore',
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH, ignoreDuplicateSlashes: false },
    // The catch and mock paths take any sub-path, percent-encoded octets that are not UTF-8 included.
    rewriteUrl: routableUrl,
    // Any other malformed URL (bad percent-encoding) never reaches a route: answer it in the contract shape.
    frameworkErrors: (error, request, reply) => {
      const e = toDevutilError(error);
      void (reply as unknown as FastifyReply).code(e.status).header('x-request-id', request.id).send(errorBody(e));
    },
    // A request the HTTP parser refuses never reaches a route either (src/http/client-error.ts).
    clientErrorHandler: clientErrors.handler,
    schemaController: { compilersFactory: { buildSerializer: sharedSerializers() } },
    ...options.serverOptions,
  } as FastifyServerOptions) as unknown as FastifyInstance<RawServerDefault>;
  recorder.writeTo(app.log);

  // The catch and mock paths answer every method Node's HTTP parser accepts (PURGE, PROPFIND, ...).
  for (const method of METHODS) {
    if (!app.supportedMethods.includes(method)) app.addHttpMethod(method, { hasBody: true });
  }
  registerValidators(app);
  registerJsonBodyParser(app);

  const ctx: AppContext = { config, store, now, metrics, requestId, resolveHost: options.resolveHost };
  const gate = createGate(ctx, keys);

  // Every request, 404s included: its id on the answer, CORS for a browser on another origin
  // (src/http/cors.ts), and its response noted for a malformed request that may follow it.
  app.addHook('onRequest', (request, reply, done) => {
    clientErrors.follow(request.raw.socket, reply.raw);
    reply.header('x-request-id', request.id);
    allowCrossOrigin(request, reply);
    done();
  });
  // A JSON endpoint called with no body at all sees `{}`, so its schema reports the missing fields
  // (a body sent empty reads as `{}` too, and answers 400 invalid_json when that fails: src/http/json-body.ts).
  app.addHook('onRoute', (route) => {
    if (route.schema?.body === undefined) return;
    route.preValidation = [giveEmptyBody, ...[route.preValidation ?? []].flat()];
  });
  registerErrorHandling(app);

  app.addHook('onClose', () => keys.close());
  await app.register(authPlugin, { gate });
  await registerOpenApi(app);
  await app.register(opsRoutes, ctx);
  await app.register(keyRoutes, ctx);
  for (const area of config.areas) await app.register(AREA_PLUGINS[area], ctx);
  // Node drops a CONNECT nobody listens for without a word: without the catch path (AREAS), it is a 404.
  if (!config.areas.includes('webhook')) app.server.on('connect', connectNotFound(requestId, app.log, ctx.metrics));
  if (config.ui) await app.register(webApp, { root: options.webRoot ?? defaultWebRoot() });
  registerPreflight(app);
  return app;
}

/** preValidation of routes with a body schema: `{}` for a request without a body. */
function giveEmptyBody(request: { body: unknown }, _reply: unknown, done: () => void): void {
  if (request.body === undefined) request.body = {};
  done();
}
