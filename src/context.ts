import type { Config } from './config.js';
import type { Metrics } from './ops/metrics.js';
import type { Store } from './storage/types.js';

/** What every area plugin is registered with. */
export interface AppContext {
  config: Config;
  store: Store;
  /** Epoch milliseconds; tests inject a controllable clock. */
  now: () => number;
  metrics: Metrics;
}
