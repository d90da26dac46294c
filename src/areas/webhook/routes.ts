import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import mockRoutes from './mock-routes.js';
import replayRoutes from './replay-routes.js';

/** Webhook area (spec §4.1-4.2, CONTRACT §2): bins, catch, captured requests, replay, mocks. */
export default async function webhookRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await app.register(replayRoutes, ctx);
  await app.register(mockRoutes, ctx);
}
