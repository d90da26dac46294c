import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { transformJson } from './jmespath.js';
import { jsonTransformSchema } from './jmespath-schemas.js';
import { prepareValidation, validateJsonSchema } from './json-schema.js';
import { createSchemaPool } from './json-schema-pool.js';
import type { Draft } from './json-schema-drafts.js';
import { jsonSchemaValidateSchema } from './json-schema-schemas.js';
import { inferSchema } from './json-to-schema.js';
import { jsonToSchemaSchema } from './json-to-schema-schemas.js';
import { postTool } from '../../http/tool-route.js';

/** Longest a validation on a worker may run (then 422: `regex_timeout` if the schema has patterns). */
export const SCHEMA_WORKER_TIMEOUT_MS = 1000;

interface TransformBody {
  data: unknown;
  expression: string;
  legacy_literals: boolean;
}

interface ValidateBody {
  data: unknown;
  schema: unknown;
  draft?: Draft;
  schemas?: Record<string, unknown>;
  assert_format: boolean;
}

/** JSON tools (CONTRACT §3.2-3.4): JMESPath transform, JSON Schema validation and inference. */
export default async function jsonRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  void ctx;
  // Validations with user regexes or large inputs run on worker threads, stopped after the timeout.
  const schemaPool = createSchemaPool({ size: 2, timeoutMs: SCHEMA_WORKER_TIMEOUT_MS, compileTimeoutMs: 10_000, maxQueue: 64 });
  app.addHook('onClose', () => schemaPool.close());
  postTool(app, '/v1/json-transform', { schema: jsonTransformSchema, area: 'devtools' }, ({ data, expression, legacy_literals: legacyLiterals }: TransformBody) => {
    return { result: transformJson(data, expression, { legacyLiterals }), expression };
  });

  postTool(app, '/v1/json-schema-validate', { schema: jsonSchemaValidateSchema, area: 'devtools' }, async (body: ValidateBody) => {
    const { data, schema, draft, schemas, assert_format: assertFormat } = body;
    const input = { data, schema, draft, schemas, assertFormat };
    const prepared = prepareValidation(input);
    const { isolation } = prepared;
    const { valid, errors } = isolation === 'none' ? await validateJsonSchema(prepared) : await schemaPool.run(input, isolation === 'regex' ? 'regex_timeout' : 'validation_error');
    const failures = errors.map((f) => ({ error: f.error, path: f.path, schema_path: f.schemaPath }));
    return valid ? { valid, errors: [] } : { valid, ...failures[0], errors: failures };
  });

  postTool(app, '/v1/json-to-schema', { schema: jsonToSchemaSchema, area: 'devtools' }, ({ data }: { data: unknown }) => ({ schema: inferSchema(data) }));
}
