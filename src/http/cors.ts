import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DevutilError } from '../errors.js';

/**
 * Headers of an API answer to a browser on another origin (a request with `Origin`): any origin may
 * read it, since the key travels in a header and no cookie is ever used, and it may read the
 * service's own response headers. Requests without `Origin` (curl, servers) get none of them.
 */
export const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers':
    'X-Request-Id, X-Credits-Limit, X-Credits-Remaining, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After',
};

/**
 * Add {@link CORS_HEADERS} to the reply of a request that came with `Origin` (a browser on another
 * origin); any other request is left as it is.
 */
export function allowCrossOrigin(request: FastifyRequest, reply: FastifyReply): void {
  if (request.headers.origin !== undefined) reply.headers(CORS_HEADERS);
}

/** The answer to a browser's preflight for an API route: what a cross-origin call may send. */
const PREFLIGHT_HEADERS = {
  ...CORS_HEADERS,
  'access-control-allow-methods': 'GET, POST, PATCH, DELETE',
  'access-control-allow-headers': 'X-API-Key, X-Marketplace-Key, X-Marketplace-Host, X-Admin-Token, X-Request-Id, Content-Type',
  'access-control-max-age': '86400',
};

/**
 * `OPTIONS` on any path the catch and mock routes do not take (they capture and serve OPTIONS
 * themselves): a CORS preflight (`Origin` and `Access-Control-Request-Method`) gets 204 with
 * {@link PREFLIGHT_HEADERS}; any other OPTIONS request is an unknown route (404), as before.
 *
 * @example
 *   registerPreflight(app); // OPTIONS /v1/json-transform with Origin → 204
 */
export function registerPreflight(app: FastifyInstance): void {
  app.route({
    method: 'OPTIONS',
    url: '/*',
    config: { area: 'public' },
    schema: { hide: true },
    handler: async (request, reply) => {
      const { origin } = request.headers;
      if (origin === undefined || request.headers['access-control-request-method'] === undefined) {
        throw new DevutilError('not_found', `No route OPTIONS ${request.url.split('?')[0]}.`);
      }
      return reply.status(204).headers(PREFLIGHT_HEADERS).send();
    },
  });
}
