/**
 * The service's Prometheus metrics, counted in plain numbers and written in the text exposition
 * format when `/metrics` is scraped: prom-client checks and hashes the labels of every observation,
 * a cost paid on every request for a page read once a minute (bench/README.md, "Design figures").
 */

/** The content type of {@link Metrics.render}'s document (Prometheus text format 0.0.4). */
export const METRICS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/** Histogram buckets of request durations, in seconds. */
export const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30] as const;

const REQUESTS = 'devutil_http_requests_total';
const LATENCY = 'devutil_http_request_duration_seconds';
const CREDITS = 'devutil_credits_spent_total';

/** The metrics of one app instance (tests build many apps, each with its own). */
export interface Metrics {
  /** Count one finished request under its route pattern, with its duration. */
  observeRequest(route: string, method: string, status: number, seconds: number): void;
  /** Count credits charged in an area. */
  spend(area: string, credits: number): void;
  /** The whole `/metrics` document. */
  render(): string;
}

/** One route pattern's numbers. */
interface RouteNumbers {
  /** method → status → requests */
  counts: Map<string, Map<number, number>>;
  /** Requests per bucket, not cumulative: slot i counts durations in (LATENCY_BUCKETS[i-1], LATENCY_BUCKETS[i]]; the last slot is +Inf. */
  buckets: number[];
  sum: number;
  count: number;
}

function label(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

function renderRoute(route: string, numbers: RouteNumbers, counts: string[], latency: string[]): void {
  const name = label(route);
  for (const [method, byStatus] of numbers.counts) {
    for (const [status, n] of byStatus) counts.push(`${REQUESTS}{method="${label(method)}",route="${name}",status="${status}"} ${n}`);
  }
  let cumulative = 0;
  LATENCY_BUCKETS.forEach((le, i) => {
    cumulative += numbers.buckets[i]!;
    latency.push(`${LATENCY}_bucket{le="${le}",route="${name}"} ${cumulative}`);
  });
  latency.push(
    `${LATENCY}_bucket{le="+Inf",route="${name}"} ${numbers.count}`,
    `${LATENCY}_sum{route="${name}"} ${numbers.sum}`,
    `${LATENCY}_count{route="${name}"} ${numbers.count}`,
  );
}

/**
 * Requests by method, route pattern and status, their latency by route pattern, and credits spent by area.
 *
 * @example
 *   const metrics = createMetrics();
 *   metrics.observeRequest('/healthz', 'GET', 200, 0.0004);
 *   metrics.render(); // '... devutil_http_requests_total{method="GET",route="/healthz",status="200"} 1 ...'
 */
export function createMetrics(): Metrics {
  const routes = new Map<string, RouteNumbers>();
  const spent = new Map<string, number>();
  return {
    observeRequest(route, method, status, seconds) {
      let numbers = routes.get(route);
      if (!numbers)
        routes.set(
          route,
          (numbers = { counts: new Map(), buckets: new Array<number>(LATENCY_BUCKETS.length + 1).fill(0), sum: 0, count: 0 }),
        );
      let byStatus = numbers.counts.get(method);
      if (!byStatus) numbers.counts.set(method, (byStatus = new Map()));
      byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
      let i = 0;
      while (i < LATENCY_BUCKETS.length && seconds > LATENCY_BUCKETS[i]!) i++;
      numbers.buckets[i]! += 1;
      numbers.sum += seconds;
      numbers.count += 1;
    },
    spend(area, credits) {
      spent.set(area, (spent.get(area) ?? 0) + credits);
    },
    render() {
      const counts: string[] = [];
      const latency: string[] = [];
      for (const [route, numbers] of routes) renderRoute(route, numbers, counts, latency);
      return [
        `# HELP ${REQUESTS} HTTP requests by method, route pattern and status.`,
        `# TYPE ${REQUESTS} counter`,
        ...counts,
        `# HELP ${LATENCY} Time from request start to response end, by route pattern.`,
        `# TYPE ${LATENCY} histogram`,
        ...latency,
        `# HELP ${CREDITS} Credits charged for successful metered calls, by area.`,
        `# TYPE ${CREDITS} counter`,
        ...[...spent].map(([area, credits]) => `${CREDITS}{area="${label(area)}"} ${credits}`),
        '',
      ].join('\n');
    },
  };
}
