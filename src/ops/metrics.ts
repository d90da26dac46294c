import { Counter, Registry } from 'prom-client';
import { createRequestMetrics, type RequestMetrics } from './request-metrics.js';

/** Prometheus metrics of one app instance (its own registry, so tests can build many apps). */
export interface Metrics {
  registry: Registry;
  /** Requests and latency per route (plain counters on the hot path). */
  requests: RequestMetrics;
  /** Count credits charged in an area (a plain number per area, read when /metrics is scraped). */
  spend(area: string, credits: number): void;
  /** The whole `/metrics` document. */
  render(): Promise<string>;
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  const requests = createRequestMetrics();
  const spentIn = new Map<string, number>();
  new Counter({
    name: 'devutil_credits_spent_total',
    help: 'Credits charged for successful metered calls, by area.',
    labelNames: ['area'],
    registers: [registry],
    // Filled at scrape time: a labelled prom-client increment per metered call cost more than the call's bookkeeping.
    collect() {
      this.reset();
      for (const [area, credits] of spentIn) this.labels({ area }).inc(credits);
    },
  });
  return {
    registry,
    requests,
    spend(area, credits) {
      spentIn.set(area, (spentIn.get(area) ?? 0) + credits);
    },
    async render() {
      return requests.render() + (await registry.metrics());
    },
  };
}
