import type { onResponseHookHandler } from 'fastify';
import type { Metrics } from '../ops/metrics.js';

/**
 * The app's onResponse hook: the request's metrics under its route pattern (`unmatched` when no
 * route took it) and, when `logRequests` is on, one "request completed" line (no body, no key).
 *
 * @example
 *   app.addHook('onResponse', recordRequests(metrics, true));
 */
export function recordRequests(metrics: Metrics, logRequests: boolean): onResponseHookHandler {
  return (request, reply, done) => {
    const route = request.is404 ? 'unmatched' : (request.routeOptions.url ?? 'unmatched');
    const ms = reply.elapsedTime;
    metrics.observeRequest(route, request.method, reply.statusCode, ms / 1000);
    if (logRequests)
      request.log.info(
        { reqId: request.id, method: request.method, route, status: reply.statusCode, ms: Math.round(ms * 10) / 10 },
        'request completed',
      );
    done();
  };
}
