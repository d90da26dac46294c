import type { FastifyInstance } from 'fastify';
import { DevutilError } from '../../src/errors.js';

/** Not operations of the API: left out of the OpenAPI document, so they need no operationId. */
const hide = true;

/**
 * Test-only routes that exercise the shared machinery without depending on any area:
 * a metered devtools call, one that fails with a 422, an echo of the parsed body, and a crash.
 */
export function registerProbeRoutes(app: FastifyInstance): void {
  app.post('/test/metered', { config: { area: 'devtools' }, schema: { hide } }, async () => ({ ok: true }));
  app.post('/test/metered-fails', { config: { area: 'devtools' }, schema: { hide } }, async () => {
    throw new DevutilError('validation_error', 'probe failure');
  });
  app.post(
    '/test/echo',
    {
      config: { area: 'public' },
      schema: { hide, body: { type: 'object' } },
    },
    async (request) => {
      const body = request.body as Record<string, unknown>;
      return {
        own_keys: Object.keys(body),
        proto_is_object_prototype: Object.getPrototypeOf(body) === Object.prototype,
        polluted: ({} as Record<string, unknown>).polluted === true,
        body,
      };
    },
  );
  app.post(
    '/test/typed',
    {
      config: { area: 'public' },
      schema: {
        hide,
        body: {
          type: 'object',
          required: ['count'],
          properties: { count: { type: 'integer', minimum: 1 }, name: { type: 'string' } },
          additionalProperties: false,
        },
      },
    },
    async (request) => request.body,
  );
  app.get('/test/boom', { config: { area: 'public' }, schema: { hide } }, async () => {
    throw new Error('secret internal detail at /srv/db.sqlite');
  });
}
