import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { FastifyServerOptions } from 'fastify';

/**
 * A route answered before Fastify's router: it returns true when it took the request (and will
 * answer it), false to leave it to the router. Only the public serving paths whose whole work is
 * one store call use this (mock serving); each one's Fastify route stays registered, documents the
 * operation in OpenAPI and serves what the fast route declines (`inject()` requests, bodies,
 * unusual URLs) through the same responder.
 */
export type FastRoute = (req: IncomingMessage, res: ServerResponse) => boolean;

type ServerFactory = NonNullable<FastifyServerOptions['serverFactory']>;

/**
 * Fastify's `serverFactory`: the HTTP/1 server Fastify would create (same options and timeouts),
 * whose request listener offers each request to `routes` first. While the server is closing,
 * every request goes to Fastify, which answers 503.
 *
 * @example
 *   const routes: FastRoute[] = [];
 *   Fastify({ serverFactory: fastPathServer(routes) });
 */
export function fastPathServer(routes: readonly FastRoute[]): ServerFactory {
  return (handler, options) => {
    const opts = options as FastifyServerOptions & { http?: object; connectionTimeout?: number; keepAliveTimeout?: number; requestTimeout?: number };
    const server: Server = createServer(opts.http ?? {}, (req, res) => {
      if (server.listening) for (const route of routes) if (route(req, res)) return;
      handler(req, res);
    });
    // What Fastify sets on the server it creates itself (lib/server.js).
    if (opts.keepAliveTimeout !== undefined) server.keepAliveTimeout = opts.keepAliveTimeout;
    if (opts.requestTimeout !== undefined) server.requestTimeout = opts.requestTimeout;
    server.setTimeout(opts.connectionTimeout ?? 0);
    return server;
  };
}
