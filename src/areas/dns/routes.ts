import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';

/** The dns area's routes (CONTRACT and spec sections of the dns area). */
export default async function dnsRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  void app;
  void ctx;
}
