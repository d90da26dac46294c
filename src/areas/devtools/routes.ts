import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { postTool } from '../../http/tool-route.js';
import { runArrayOps } from './array-ops.js';
import { arrayOpsSchema, type ArrayOpsBody } from './array-ops-schemas.js';
import { createDateFormatPool } from './date-format-pool.js';
import { dateFormatSchema, type DateFormatBody } from './date-format-schema.js';
import { transformJson } from './jmespath.js';
import { jsonTransformSchema, type JsonTransformBody } from './jmespath-schemas.js';
import { createSchemaPool } from './json-schema-pool.js';
import { jsonSchemaValidateSchema, type JsonSchemaValidateBody } from './json-schema-schemas.js';
import { inferSchema } from './json-to-schema.js';
import { jsonToSchemaSchema } from './json-to-schema-schemas.js';
import { listFieldTypes } from './mock-data/field-types.js';
import { MOCK_LOCALES } from './mock-data/locales.js';
import { createMockDataPool } from './mock-data/mock-data-pool.js';
import { mockDataSchema, mockTypesSchema, type MockDataBody } from './mock-data/schemas.js';
import { formatNumber } from './number-format.js';
import { numberFormatSchema, type NumberFormatBody } from './number-format-schema.js';
import { createRegexPool } from './regex-pool.js';
import { REGEX_DEADLINE_MS, REGEX_POOL, REGEX_TIMEOUT_MS, regexExtractSchema, type RegexExtractBody } from './regex-schema.js';

const area = 'devtools';

/**
 * The developer tools (spec §4.3, CONTRACT §3), 1 credit per successful call, and the function
 * behind each:
 *
 *   POST /v1/json-transform        transformJson             jmespath.ts
 *   POST /v1/json-schema-validate  validateJsonSchema        json-schema.ts (via json-schema-pool.ts)
 *   POST /v1/json-to-schema        inferSchema               json-to-schema.ts
 *   POST /v1/mock-data             generateMockData          mock-data/generate.ts (via mock-data/mock-data-pool.ts)
 *   GET  /v1/mock-data/types       listFieldTypes            mock-data/field-types.ts (free)
 *   POST /v1/array-ops             runArrayOps               array-ops.ts
 *   POST /v1/regex-extract         extractMatches            regex-extract.ts (via regex-pool.ts)
 *   POST /v1/number-format         formatNumber              number-format.ts
 *   POST /v1/date-format           formatDate                date-format.ts (via date-format-pool.ts)
 *
 * Each handler maps the body to the tool's input, calls it and maps its answer; the schemas live in
 * the `*-schema(s).ts` beside each tool. The tools that can hold a thread for long go through a pool
 * of worker threads (src/workers/pool.ts) that keeps them off the event loop: always for user
 * regexes, and for the other three when the request could take long.
 *
 * @example
 *   await app.register(devtoolsRoutes, ctx);
 */
export default async function devtoolsRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  // An evaluation on a worker stops after 1 s (422), a compilation after 10 s.
  const schemaPool = createSchemaPool({ size: 2, timeoutMs: 1000, compileTimeoutMs: 10_000, maxQueue: 64 });
  const mockDataPool = createMockDataPool();
  const regexPool = createRegexPool({ ...REGEX_POOL, timeoutMs: REGEX_TIMEOUT_MS, deadlineMs: REGEX_DEADLINE_MS });
  const datePool = createDateFormatPool();
  app.addHook('onClose', async () => {
    await Promise.all([schemaPool.close(), mockDataPool.close(), regexPool.close(), datePool.close()]);
  });

  postTool(app, '/v1/json-transform', { area, schema: jsonTransformSchema }, (b: JsonTransformBody) => ({
    result: transformJson(b.data, b.expression, { legacyLiterals: b.legacy_literals }),
    expression: b.expression,
  }));

  postTool(app, '/v1/json-schema-validate', { area, schema: jsonSchemaValidateSchema }, async (b: JsonSchemaValidateBody) => {
    const { valid, errors } = await schemaPool.validate({
      data: b.data,
      schema: b.schema,
      draft: b.draft,
      schemas: b.schemas,
      assertFormat: b.assert_format,
    });
    const failures = errors.map((f) => ({ error: f.error, path: f.path, schema_path: f.schemaPath }));
    return valid ? { valid, errors: [] } : { valid, ...failures[0], errors: failures };
  });

  postTool(app, '/v1/json-to-schema', { area, schema: jsonToSchemaSchema }, (b: { data: unknown }) => ({ schema: inferSchema(b.data) }));

  postTool(app, '/v1/mock-data', { area, schema: mockDataSchema }, async (b: MockDataBody) => {
    const out = await mockDataPool.generate({
      fields: b.fields,
      rows: b.rows,
      outputFormat: b.output_format,
      locale: b.locale,
      seed: b.seed,
      tableName: b.table_name,
      dialect: b.dialect,
      createTable: b.create_table,
    });
    const answer = { data: out.data, rows: out.rows, fields: out.fields };
    return out.outputFormat === 'json' ? answer : { ...answer, output_format: out.outputFormat };
  });

  const types = listFieldTypes();
  app.get('/v1/mock-data/types', { config: { area, free: true }, schema: mockTypesSchema }, async () => ({
    count: types.length,
    types,
    locales: MOCK_LOCALES,
  }));

  postTool(app, '/v1/array-ops', { area, schema: arrayOpsSchema }, (b: ArrayOpsBody) =>
    runArrayOps(b.operation, b.arrays, b.options ?? {}),
  );

  postTool(app, '/v1/regex-extract', { area, schema: regexExtractSchema }, async (b: RegexExtractBody, caller) => {
    const { matches, truncated } = await regexPool.extract(b, caller);
    return {
      pattern: b.pattern,
      match_count: matches.length,
      matches: matches.map((m) => ({ match: m.match, start: m.start, end: m.end, groups: m.groups, named_groups: m.namedGroups })),
      truncated,
    };
  });

  postTool(app, '/v1/number-format', { area, schema: numberFormatSchema }, (b: NumberFormatBody) => {
    const out = formatNumber({ number: b.number, formatType: b.format_type, locale: b.locale, currency: b.currency, decimals: b.decimals });
    return { formatted: out.formatted, original: b.number, locale: out.locale, format_type: b.format_type };
  });

  postTool(app, '/v1/date-format', { area, schema: dateFormatSchema }, (b: DateFormatBody) =>
    datePool.format({
      date: b.date,
      outputFormat: b.output_format,
      inputFormat: b.input_format,
      fromTimezone: b.from_timezone,
      toTimezone: b.to_timezone,
      now: ctx.now(),
    }),
  );
}
