import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';

/** How often expired bins and mocks are swept out of the store. */
export const PURGE_INTERVAL_MS = 60_000;

/**
 * Sweep expired bins (with their requests) and mocks every minute, so expired data does not
 * accumulate. Between sweeps expiry is already exact: the store treats an expired bin as missing.
 * The timer never keeps the process alive and stops when the app closes.
 *
 * @example
 *   startPurgeTimer(app, ctx);
 */
export function startPurgeTimer(app: FastifyInstance, ctx: AppContext): void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    ctx.store
      .purgeExpired(ctx.now())
      .then((purged) => {
        if (purged.bins + purged.mocks > 0) app.log.info(purged, 'expired bins and mocks purged');
      })
      .catch((err: unknown) => app.log.warn({ err }, 'purge of expired data failed'))
      .finally(() => {
        running = false;
      });
  }, PURGE_INTERVAL_MS);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
}
