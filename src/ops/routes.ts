import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { errorResponses } from '../http/schemas.js';
import { METRICS_CONTENT_TYPE } from './metrics.js';

const statusSchema = { type: 'object', required: ['status'], properties: { status: { type: 'string' } } } as const;

/** Liveness, readiness and Prometheus metrics. */
export default async function opsRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.get(
    '/healthz',
    {
      config: { area: 'public' },
      schema: { tags: ['operations'], operationId: 'getHealth', summary: 'Liveness: the process answers', response: { 200: statusSchema } },
    },
    () => ({ status: 'ok' }),
  );

  app.get(
    '/readyz',
    {
      config: { area: 'public' },
      schema: {
        tags: ['operations'],
        operationId: 'getReadiness',
        summary: 'Readiness: the store is reachable (503 storage_unavailable otherwise)',
        response: { 200: statusSchema, ...errorResponses('storage_unavailable') },
      },
    },
    async () => {
      await ctx.store.ping();
      return { status: 'ready' };
    },
  );

  if (!ctx.config.adminToken) return;
  app.get(
    '/metrics',
    {
      config: { area: 'admin' },
      schema: {
        tags: ['operations'],
        operationId: 'getMetrics',
        summary: 'Prometheus metrics: requests by route and status, latency histogram, credits spent',
        // The 200 alone is text (errors are JSON, as everywhere).
        response: { 200: { description: 'Prometheus text exposition format.', content: { 'text/plain': { schema: { type: 'string' } } } } },
      },
    },
    (_request, reply) => {
      reply.type(METRICS_CONTENT_TYPE);
      return ctx.metrics.render();
    },
  );
}
