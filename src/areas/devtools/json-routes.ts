import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { transformJson } from './jmespath.js';
import { jsonTransformSchema } from './jmespath-schemas.js';

interface TransformBody {
  data: unknown;
  expression: string;
  legacy_literals: boolean;
}

/** JSON tools (CONTRACT §3.2-3.4): JMESPath transform, JSON Schema validation and inference. */
export default async function jsonRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  void ctx;
  app.post<{ Body: TransformBody }>('/v1/json-transform', { schema: jsonTransformSchema, config: { area: 'devtools' } }, async (request) => {
    const { data, expression, legacy_literals: legacyLiterals } = request.body;
    return { result: transformJson(data, expression, { legacyLiterals }), expression };
  });
}
