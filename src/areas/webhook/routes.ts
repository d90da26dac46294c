import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import binRoutes from './bin-routes.js';
import catchRoutes from './catch-routes.js';
import mockRoutes from './mock-routes.js';
import { startPurgeTimer } from './purge-timer.js';
import replayRoutes from './replay-routes.js';
import requestRoutes from './request-routes.js';
import streamRoutes from './stream-routes.js';

/** Webhook area (spec §4.1-4.2, CONTRACT §2): bins, catch, captured requests, replay, mocks. */
export default async function webhookRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await app.register(binRoutes, ctx);
  await app.register(catchRoutes, ctx);
  await app.register(requestRoutes, ctx);
  await app.register(streamRoutes, ctx);
  await app.register(replayRoutes, ctx);
  await app.register(mockRoutes, ctx);
  startPurgeTimer(app, ctx);
}
