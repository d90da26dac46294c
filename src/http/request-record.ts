import type { FastifyBaseLogger } from 'fastify';
import type { Metrics } from '../ops/metrics.js';

/** Records one finished request: its method, status and duration in milliseconds. */
export type RequestRecorder = (method: string, status: number, ms: number, log: FastifyBaseLogger) => void;

/**
 * The recorder of one route pattern: request metrics always, and the "request completed" log line
 * (no body, no key) when `logRequests` is on.
 *
 * @example
 *   const record = requestRecorder(metrics, '/healthz', true);
 *   record('GET', 200, 0.4, request.log);
 */
export function requestRecorder(metrics: Metrics, route: string, logRequests: boolean): RequestRecorder {
  return (method, status, ms, log) => {
    metrics.observeRequest(route, method, status, ms / 1000);
    if (logRequests) log.info({ method, route, status, ms: Math.round(ms * 10) / 10 }, 'request completed');
  };
}
