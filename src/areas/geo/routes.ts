import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';

/** The geo area's routes (CONTRACT and spec sections of the geo area). */
export default async function geoRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  void app;
  void ctx;
}
