import { LogController, type FastifyBaseLogger, type FastifyReply, type FastifyRequest } from 'fastify';
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
 * (no body, no key). {@link RequestRecorder} calls it for every route; the CONNECT listener,
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
 * Fastify's log controller for the app: Fastify calls `requestCompleted` once per answered request
 * (when a logger is set, as `buildApp` always does), and this one records the request under its
 * route pattern ({@link recordRequest}) in place of Fastify's own per-request lines. One call per
 * request, without the onResponse hook run that would do the same.
 *
 * @example
 *   const recorder = new RequestRecorder(metrics);
 *   const app = Fastify({ logger: { level: 'warn' }, logController: recorder });
 *   recorder.writeTo(app.log);
 */
export class RequestRecorder extends LogController {
  readonly #metrics: Metrics;
  #log: FastifyBaseLogger | null = null;

  constructor(metrics: Metrics) {
    super({ disableRequestLogging: true });
    this.#metrics = metrics;
  }

  /** Write "request completed" lines to `log` when it logs at info. */
  writeTo(log: FastifyBaseLogger): void {
    this.#log = requestCompletedLog(log);
  }

  override requestCompleted(_error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const route = request.is404 ? 'unmatched' : (request.routeOptions.url ?? 'unmatched');
    recordRequest(this.#metrics, this.#log, {
      reqId: request.id,
      method: request.method,
      route,
      status: reply.statusCode,
      ms: reply.elapsedTime,
    });
  }
}
