import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import dataRoutes from './data-routes.js';
import formatRoutes from './format-routes.js';
import jsonRoutes from './json-routes.js';

/** Developer utilities (spec §4.3, CONTRACT §3): 1 credit per successful call. */
export default async function devtoolsRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await app.register(jsonRoutes, ctx); // json-transform, json-schema-validate, json-to-schema
  await app.register(dataRoutes, ctx); // mock-data (+ types), array-ops
  await app.register(formatRoutes, ctx); // regex-extract, number-format, date-format
}
