import { Counter, Histogram, Registry } from 'prom-client';

/** Prometheus metrics of one app instance (its own registry, so tests can build many apps). */
export interface Metrics {
  registry: Registry;
  requests: Counter<'method' | 'route' | 'status'>;
  latency: Histogram<'route'>;
  creditsSpent: Counter<'area'>;
  /** Count one finished request and its latency (label children cached: no hashing per call). */
  observeRequest(method: string, route: string, status: number, seconds: number): void;
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  const requests = new Counter({
      name: 'devutil_http_requests_total',
      help: 'HTTP requests by method, route pattern and status.',
      labelNames: ['method', 'route', 'status'],
      registers: [registry],
    });
  const latency = new Histogram({
      name: 'devutil_http_request_duration_seconds',
      help: 'Time from request start to response end, by route pattern.',
      labelNames: ['route'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [registry],
    });
  const counters = new Map<string, { inc(): void }>();
  const histograms = new Map<string, { observe(v: number): void }>();
  return {
    registry,
    requests,
    latency,
    observeRequest(method, route, status, seconds) {
      const key = `${method} ${status} ${route}`;
      let counter = counters.get(key);
      if (!counter) counters.set(key, (counter = requests.labels({ method, route, status: String(status) })));
      counter.inc();
      let histogram = histograms.get(route);
      if (!histogram) histograms.set(route, (histogram = latency.labels({ route })));
      histogram.observe(seconds);
    },
    creditsSpent: new Counter({
      name: 'devutil_credits_spent_total',
      help: 'Credits charged for successful metered calls, by area.',
      labelNames: ['area'],
      registers: [registry],
    }),
  };
}
