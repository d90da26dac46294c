import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import type { AppContext } from '../context.js';
import { whenAnswered } from './answered-response.js';
import { requestRecorder } from './request-record.js';
import { batchWrites, writeThrough } from './write-batching.js';
import { lazyRequestLogger } from './request-logger.js';

/**
 * A route answered before Fastify's router: it returns true when it took the request (and will
 * answer it), false to leave it to the router. Only the public hot paths whose whole work is one
 * store call use this (mock serving and catch); each one's Fastify route stays registered, documents
 * the operation in OpenAPI and serves what the fast route declines (`inject()` requests, unusual
 * URLs, and for mocks requests with a body) through the same responder.
 */
export type FastRoute = (req: IncomingMessage, res: ServerResponse) => boolean;

type ServerFactory = NonNullable<FastifyServerOptions['serverFactory']>;

/**
 * Fastify's `serverFactory`: the HTTP/1 server Fastify would create (same options and timeouts),
 * whose request listener offers each request to `routes` first. While the server is closing,
 * every request goes to Fastify, which answers 503. Its connections write once per event-loop
 * iteration ({@link batchWrites}), but for the answers of the fast routes ({@link writeThrough}).
 *
 * @example
 *   const routes: FastRoute[] = [];
 *   Fastify({ serverFactory: fastPathServer(routes) });
 */
export function fastPathServer(routes: readonly FastRoute[]): ServerFactory {
  return (handler, options) => {
    const opts = options as FastifyServerOptions & { http?: object; connectionTimeout?: number; keepAliveTimeout?: number; requestTimeout?: number };
    const server: Server = createServer(opts.http ?? {}, (req, res) => {
      // Set before a route runs: a fast route may answer before it returns.
      writeThrough(req.socket, true);
      if (server.listening) {
        for (const route of routes) if (route(req, res)) return;
      }
      writeThrough(req.socket, false);
      handler(req, res);
    });
    // What Fastify sets on the server it creates itself (lib/server.js).
    if (opts.keepAliveTimeout !== undefined) server.keepAliveTimeout = opts.keepAliveTimeout;
    if (opts.requestTimeout !== undefined) server.requestTimeout = opts.requestTimeout;
    server.setTimeout(opts.connectionTimeout ?? 0);
    server.on('connection', batchWrites);
    return server;
  };
}

/** One request a {@link paramRoute} took: the raw exchange, the id from the path, the request's id and logger. */
export interface FastExchange {
  req: IncomingMessage;
  res: ServerResponse;
  /** The path parameter (`bin_id`, `mock_id`), as sent: plain ids only. */
  id: string;
  requestId: string;
  log: FastifyBaseLogger;
}

/** Ids taken as they are (the router decodes anything else): letters, digits, `_` and `-`, by char code. */
const ID_CHARS = new Uint8Array(128);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-') ID_CHARS[c.charCodeAt(0)] = 1;
/**
 * The router's maxParamLength: longer than any URL Node accepts (its 16 KiB header limit), so an
 * overlong id is an unknown one (404 after the key check), never the router's 400.
 */
export const MAX_ID_LENGTH = 16 * 1024;

/**
 * Where a plain id right after `prefix` in `url` ends (at a `/`, a `?` or the end), or -1 when the
 * url does not start with `prefix` or what follows it is not a plain id (letters, digits, `_`, `-`).
 */
export function plainIdEnd(url: string, prefix: string): number {
  if (!url.startsWith(prefix)) return -1;
  let end = prefix.length;
  for (; end < url.length; end++) {
    const c = url.charCodeAt(end);
    if (c === 47 /* / */ || c === 63 /* ? */) break;
    if (ID_CHARS[c] !== 1) return -1;
  }
  return end === prefix.length || end - prefix.length > MAX_ID_LENGTH ? -1 : end;
}

/**
 * A public route that also takes requests whose URL the router cannot decode (`/v1/catch/{id}/%ff`:
 * RFC 3986 allows any octet percent-encoded in a path, the router only UTF-8): it returns true when
 * it took the request (and answers it on the raw exchange), false to leave it to the 400.
 */
export type UndecodableUrlRoute = (request: FastifyRequest, reply: FastifyReply) => boolean;

/**
 * An {@link UndecodableUrlRoute} for `prefix{id}[/…]` with a plain id: the reply is hijacked and
 * `handle` answers on the raw exchange.
 *
 * @example
 *   ctx.undecodableUrlRoutes.push(undecodableParamRoute('/v1/mock/', (request, id) => respond({ … })));
 */
export function undecodableParamRoute(prefix: string, handle: (request: FastifyRequest, id: string, res: ServerResponse) => void): UndecodableUrlRoute {
  return (request, reply) => {
    const url = request.raw.url!;
    const end = plainIdEnd(url, prefix);
    if (end === -1) return false;
    reply.hijack();
    handle(request, url.slice(prefix.length, end), reply.raw);
    return true;
  };
}

export interface ParamRouteOptions {
  /** The Fastify route it stands in for, `/prefix/:param`; `/prefix/:param/*` is served too. */
  route: string;
  ctx: AppContext;
  log: FastifyBaseLogger;
  /** Requests this route may take; the others go to the router. */
  accepts: (req: IncomingMessage) => boolean;
  handle: (exchange: FastExchange) => void;
}

/**
 * A fast route for `route` and its sub-paths: a plain id and a path without percent-encoding
 * (which the router would decode or refuse) are taken when `accepts` agrees; X-Request-Id, request
 * metrics and the request log line are as for any route.
 *
 * @example
 *   ctx.fastRoutes.push(paramRoute({ route: '/v1/mock/:mock_id', ctx, log: app.log, accepts, handle }));
 */
export function paramRoute({ route, ctx, log, accepts, handle }: ParamRouteOptions): FastRoute {
  const prefix = route.slice(0, route.indexOf(':'));
  const recordBase = requestRecorder(ctx.metrics, route, ctx.logRequests);
  const recordSub = requestRecorder(ctx.metrics, `${route}/*`, ctx.logRequests);
  return (req, res) => {
    const url = req.url!;
    // The id runs to the next `/` or `?`; any other character but an id character leaves it to the router.
    const end = plainIdEnd(url, prefix);
    if (end === -1) return false;
    // A percent-encoded sub-path (before the query) is the router's to decode.
    const percent = url.indexOf('%', end);
    if (percent !== -1) {
      const query = url.indexOf('?', end);
      if (query === -1 || percent < query) return false;
    }
    if (!accepts(req)) return false;
    const id = url.slice(prefix.length, end);
    const record = url.charCodeAt(end) === 47 ? recordSub : recordBase;
    const requestId = ctx.requestId(req);
    const requestLog = lazyRequestLogger(log, { reqId: requestId });
    const started = performance.now();
    whenAnswered(res, () => record(req.method!, res.statusCode, performance.now() - started, requestLog));
    handle({ req, res, id, requestId, log: requestLog });
    return true;
  };
}
