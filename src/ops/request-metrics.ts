/**
 * Request counts and latency per route, kept in plain numbers on the hot path and written in the
 * Prometheus text format only when `/metrics` is scraped. prom-client hashes its labels on every
 * observation; here the route's series is found once, when the route is registered.
 */
export const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30] as const;

const REQUESTS = 'devutil_http_requests_total';
const LATENCY = 'devutil_http_request_duration_seconds';

/** One route pattern's numbers. */
export interface RouteSeries {
  readonly route: string;
  /** method → status → count */
  readonly counts: Map<string, Map<number, number>>;
  /** Non-cumulative: buckets[i] counts observations in (LATENCY_BUCKETS[i-1], LATENCY_BUCKETS[i]]; the last slot is +Inf. */
  readonly buckets: number[];
  sum: number;
  count: number;
}

export interface RequestMetrics {
  /** The series of a route pattern (created on first use); keep it and pass it to {@link observe}. */
  series(route: string): RouteSeries;
  observe(series: RouteSeries, method: string, status: number, seconds: number): void;
  /** The two metric families in Prometheus text exposition format. */
  render(): string;
}

function label(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

export function createRequestMetrics(): RequestMetrics {
  const routes = new Map<string, RouteSeries>();
  return {
    series(route) {
      let s = routes.get(route);
      if (!s) routes.set(route, (s = { route, counts: new Map(), buckets: new Array<number>(LATENCY_BUCKETS.length + 1).fill(0), sum: 0, count: 0 }));
      return s;
    },
    observe(s, method, status, seconds) {
      let byStatus = s.counts.get(method);
      if (!byStatus) s.counts.set(method, (byStatus = new Map()));
      byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
      let i = 0;
      while (i < LATENCY_BUCKETS.length && seconds > LATENCY_BUCKETS[i]!) i++;
      s.buckets[i]! += 1;
      s.sum += seconds;
      s.count += 1;
    },
    render() {
      const counts: string[] = [];
      const latency: string[] = [];
      for (const s of routes.values()) {
        const route = label(s.route);
        for (const [method, byStatus] of s.counts) {
          for (const [status, n] of byStatus) counts.push(`${REQUESTS}{method="${label(method)}",route="${route}",status="${status}"} ${n}`);
        }
        if (s.count === 0) continue;
        let cumulative = 0;
        LATENCY_BUCKETS.forEach((le, i) => {
          cumulative += s.buckets[i]!;
          latency.push(`${LATENCY}_bucket{le="${le}",route="${route}"} ${cumulative}`);
        });
        latency.push(`${LATENCY}_bucket{le="+Inf",route="${route}"} ${s.count}`);
        latency.push(`${LATENCY}_sum{route="${route}"} ${s.sum}`);
        latency.push(`${LATENCY}_count{route="${route}"} ${s.count}`);
      }
      return [
        `# HELP ${REQUESTS} HTTP requests by method, route pattern and status.`,
        `# TYPE ${REQUESTS} counter`,
        ...counts,
        `# HELP ${LATENCY} Time from request start to response end, by route pattern.`,
        `# TYPE ${LATENCY} histogram`,
        ...latency,
        '',
      ].join('\n');
    },
  };
}
