import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';

/** The email area's routes (CONTRACT and spec sections of the email area). */
export default async function emailRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  void app;
  void ctx;
}
