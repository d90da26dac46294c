import { Counter, Registry } from 'prom-client';
import { createRequestMetrics, type RequestMetrics } from './request-metrics.js';

/** Prometheus metrics of one app instance (its own registry, so tests can build many apps). */
export interface Metrics {
  registry: Registry;
  /** Requests and latency per route (plain counters on the hot path). */
  requests: RequestMetrics;
  creditsSpent: Counter<'area'>;
  /** Count credits charged in an area (label child cached per area). */
  spend(area: string, credits: number): void;
  /** The whole `/metrics` document. */
  render(): Promise<string>;
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  const requests = createRequestMetrics();
  const creditsSpent = new Counter({
    name: 'devutil_credits_spent_total',
    help: 'Credits charged for successful metered calls, by area.',
    labelNames: ['area'],
    registers: [registry],
  });
  const spentIn = new Map<string, { inc(n: number): void }>();
  return {
    registry,
    requests,
    creditsSpent,
    spend(area, credits) {
      let child = spentIn.get(area);
      if (!child) spentIn.set(area, (child = creditsSpent.labels({ area })));
      child.inc(credits);
    },
    async render() {
      return requests.render() + (await registry.metrics());
    },
  };
}
