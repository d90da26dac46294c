import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import jsonRoutes from './json-routes.js';
import toolRoutes from './tool-routes.js';

/** Developer utilities (spec §4.3, CONTRACT §3): 1 credit per successful call. */
export default async function devtoolsRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await app.register(jsonRoutes, ctx); // json-transform, json-schema-validate, json-to-schema
  await app.register(toolRoutes, ctx); // mock-data, regex-extract, number/date format, array-ops
}
