import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';

/** The webhook area's routes (CONTRACT and spec sections of the webhook area). */
export default async function webhookRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  void app;
  void ctx;
}
