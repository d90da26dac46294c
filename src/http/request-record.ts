import type { FastifyBaseLogger, onResponseHookHandler } from 'fastify';
import type { Metrics } from '../ops/metrics.js';

/** One answered request, as the metrics and the "request completed" line name it. */
export interface AnsweredRequest {
  reqId: string;
  method: string;
  /** The route pattern, or `unmatched` when no route took the request. */
  route: string;
  status: number;
  ms: number;
}

/**
 * The logger for "request completed" lines: the app's own when it logs at info, else null (none).
 *
 * @example
 *   const requestLog = requestCompletedLog(app.log); // null with LOG_LEVEL=warn
 */
export function requestCompletedLog(log: FastifyBaseLogger): FastifyBaseLogger | null {
  return (log as { isLevelEnabled?: (level: string) => boolean }).isLevelEnabled?.('info') ? log : null;
}

/**
 * Count an answered request in the metrics and, with a `log`, write its "request completed" line
 * (no body, no key). The onResponse hook below calls it for every route; the CONNECT listener,
 * which answers outside Fastify's routes, calls it too.
 *
 * @example
 *   recordRequest(metrics, null, { reqId: 'req_1', method: 'CONNECT', route: '/v1/catch/:bin_id', status: 200, ms: 1.2 });
 */
export function recordRequest(metrics: Metrics, log: FastifyBaseLogger | null, r: AnsweredRequest): void {
  metrics.observeRequest(r.route, r.method, r.status, r.ms / 1000);
  if (log)
    log.info({ reqId: r.reqId, method: r.method, route: r.route, status: r.status, ms: Math.round(r.ms * 10) / 10 }, 'request completed');
}

/**
 * The app's onResponse hook: {@link recordRequest} for every request, under its route pattern.
 *
 * @example
 *   app.addHook('onResponse', recordRequests(metrics, requestCompletedLog(app.log)));
 */
export function recordRequests(metrics: Metrics, log: FastifyBaseLogger | null): onResponseHookHandler {
  return (request, reply, done) => {
    const route = request.is404 ? 'unmatched' : (request.routeOptions.url ?? 'unmatched');
    recordRequest(metrics, log, { reqId: request.id, method: request.method, route, status: reply.statusCode, ms: reply.elapsedTime });
    done();
  };
}
