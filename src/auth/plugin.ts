import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import type { ErrorCode } from '../errors.js';
import { clientAddress } from '../http/client-address.js';
import { mergeErrorResponses } from '../http/schemas.js';
import type { Charge, Gate, Principal, RouteArea } from './gate.js';

export type { RouteArea } from './gate.js';

/**
 * A route without `config.area` stops the app from starting, so an area plugin cannot forget
 * authentication. `free: true` exempts a route from credits.
 */
declare module 'fastify' {
  interface FastifyContextConfig {
    area?: RouteArea;
    free?: boolean;
  }
  interface FastifyRequest {
    principal: Principal | null;
    charge: Charge | null;
  }
  interface FastifyInstance {
    /** Every route with the area it declared (the route-table authentication test walks it). */
    routeTable: { method: string; url: string; area: RouteArea }[];
  }
}

/** Routes plugins register without our config (the docs UI) that are public by nature. */
const PUBLIC_PREFIXES = ['/docs'];

/** Any request: headers too slow or too large are answered before routing (src/http/client-error.ts). */
const CLIENT_ERRORS: ErrorCode[] = ['request_timeout', 'headers_too_large'];

/** Errors each kind of route can answer with before its handler runs (documented in OpenAPI). */
function standardErrors(route: RouteOptions, area: RouteArea): ErrorCode[] {
  const codes: ErrorCode[] = [...CLIENT_ERRORS, 'internal_error'];
  if (area === 'admin') codes.push('invalid_admin_token');
  if (area !== 'public' && area !== 'admin') {
    codes.push('missing_api_key', 'invalid_api_key', 'rate_limited', 'storage_unavailable');
    if (area !== 'account') codes.push('forbidden', 'credits_exhausted');
  }
  const schema = route.schema ?? {};
  if (schema.body) codes.push('bad_request', 'invalid_json', 'payload_too_large', 'unsupported_media_type', 'validation_error');
  // A body sent where none is expected is still read (and refused when it is not JSON, is malformed or too large).
  else if ([route.method].flat().some((m) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(m)))
    codes.push('bad_request', 'invalid_json', 'payload_too_large', 'unsupported_media_type');
  if (schema.querystring || schema.params) codes.push('validation_error');
  return codes;
}

async function authPlugin(app: FastifyInstance, { gate }: { gate: Gate }): Promise<void> {
  app.decorateRequest('principal', null);
  app.decorateRequest('charge', null);
  app.decorate('routeTable', []);

  app.addHook('onRoute', (route) => {
    let area = route.config?.area;
    if (!area) {
      if (!PUBLIC_PREFIXES.some((p) => route.url.startsWith(p))) {
        throw new Error(`route ${String(route.method)} ${route.url} declares no config.area`);
      }
      area = 'public';
      route.config = { ...(route.config ?? {}), area };
    }
    for (const method of [route.method].flat()) app.routeTable.push({ method, url: route.url, area });
    if (area === 'public' && route.schema?.response) {
      // Public routes declare their own errors; any request can also be too slow or too large in its headers.
      const response = { ...(route.schema.response as Record<string, unknown>) };
      mergeErrorResponses(response, CLIENT_ERRORS);
      route.schema = { ...route.schema, response };
    }
    if (area !== 'public') {
      route.schema = { ...(route.schema ?? {}) };
      route.schema.tags ??= [area === 'admin' || area === 'account' ? 'keys' : area];
      // An area in PUBLIC_AREAS also takes calls without a key (`{}`: no scheme needed).
      const anonymous = (gate.publicAreas as readonly string[]).includes(area) ? [{}] : [];
      route.schema.security ??=
        area === 'admin' ? [{ adminToken: [] }] : [{ apiKey: [] }, { marketplace: [], marketplaceHost: [] }, ...anonymous];
      const response = { ...((route.schema.response as Record<string, unknown>) ?? {}) };
      mergeErrorResponses(response, standardErrors(route, area));
      route.schema.response = response;
      // Hooks go on the route itself, ahead of its own, with its area bound: public routes pay for none of them.
      const routeArea = area;
      const free = route.config?.free === true;
      // Callback style: the request goes on as soon as the gate's promise settles, one turn sooner than an async hook.
      const admit = (request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) => {
        gate
          .admit({ headers: request.headers, socket: request.raw.socket, ip: () => clientAddress(request) }, routeArea, free)
          .then((pass) => {
            request.principal = pass.principal;
            request.charge = pass.charge;
            if (pass.headers) reply.headers(pass.headers);
            done();
          }, done);
      };
      route.onRequest = [admit, ...[route.onRequest ?? []].flat()];
      // Only an area some configured plan charges for has credits to settle.
      if (routeArea !== 'admin' && routeArea !== 'account' && !free && gate.charges(routeArea)) {
        // A reserved credit is kept only when the call delivered its result (2xx); anything else gives it back.
        // Callback style: only a refund waits for the store, so a call without one is answered in the same turn.
        const settle = (
          request: FastifyRequest,
          reply: FastifyReply,
          payload: unknown,
          done: (err: Error | null, payload?: unknown) => void,
        ) => {
          const charge = request.charge;
          if (!charge) return done(null, payload);
          request.charge = null;
          // HEAD runs the GET's work (and is refused when no credit is left) but delivers no result: its credit is given back.
          const delivered = request.method !== 'HEAD' && reply.statusCode >= 200 && reply.statusCode < 300;
          if (delivered) {
            const headers = gate.keep(charge);
            if (headers) reply.headers(headers);
            return done(null, payload);
          }
          // A refund the store cannot make costs the caller a credit; it does not replace the call's own answer.
          gate.refund(charge).then(
            (headers) => {
              if (headers) reply.headers(headers);
              done(null, payload);
            },
            (err: unknown) => {
              request.log.error({ reqId: request.id, err, keyId: charge.keyId }, 'credit refund failed');
              done(null, payload);
            },
          );
        };
        route.onSend = [settle, ...[route.onSend ?? []].flat()];
      }
    }
  });
}

/** Authentication, plans, credits and rate limits for every route of the app. */
export default fp(authPlugin, { name: 'devutil-auth' });
