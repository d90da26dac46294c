import { executionAsyncResource } from 'node:async_hooks';

/** One tick object, kept for the life of the process; see {@link pinTickObjectShape}. */
let pinned: object | undefined;

/**
 * Keep one of Node's `process.nextTick` queue entries alive for good, so that the hidden classes
 * ("maps") V8 builds for them are never collected.
 *
 * `nextTick` makes each entry as `{ [async_id_symbol]: id, [trigger_async_id_symbol]: id, callback,
 * args }`. With computed keys first, V8 builds that object property by property, through maps that
 * only live entries keep alive; an entry lives for a fraction of one event-loop turn. A full
 * (mark-compact) collection that finds none alive, as V8's memory reducer does when the service is
 * idle, frees those maps, and the next entry gets new ones. The property stores in `nextTick` see a
 * new map after each such collection; after four they are megamorphic for good, and its optimized
 * code then defines every property through the runtime (`Runtime_DefineKeyedOwnPropertyInLiteral`,
 * map transitions and migrations in `perf`). Every request runs `nextTick` five or six times
 * (stream ends, `finish`, `close`), so a long-running service slowed down after its first idle
 * periods: mock serving lost a fifth of its requests/s.
 *
 * Measured on Node 20.20 by `bench/tick-shape.mjs`: after eight full collections with no entry
 * alive, 1M `nextTick` calls took 272 ms; with one entry kept, 46 ms.
 *
 * Call once at start; resolves once the entry is kept.
 *
 * @example
 *   await pinTickObjectShape();
 */
export function pinTickObjectShape(): Promise<void> {
  if (pinned) return Promise.resolve();
  return new Promise((resolve) => {
    process.nextTick(() => {
      // Inside a nextTick callback the executing async resource is its queue entry.
      pinned = executionAsyncResource();
      resolve();
    });
  });
}
