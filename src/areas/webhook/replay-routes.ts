import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';

export default async function replayRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  void app;
  void ctx;
}
