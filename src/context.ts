import type { IncomingMessage } from 'node:http';
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
  /** The request's id: a valid incoming X-Request-Id, else a new one (as Fastify's `genReqId`). */
  requestId: (req: IncomingMessage) => string;
  /**
   * Name resolution for replay targets (every address of a name, as node:dns `lookup` with
   * `all: true`); undefined means node:dns. Tests give names their own addresses with it.
   */
  resolveHost?: (hostname: string) => Promise<{ address: string; family: number }[]>;
}
