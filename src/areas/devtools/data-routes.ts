import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { runArrayOps, type ArrayOperation, type ArrayOpsOptions } from './array-ops.js';
import { ARRAY_OPS_DESCRIPTION, arrayOpsBody, arrayOpsResponse } from './array-ops-schemas.js';
import { listFieldTypes } from './mock-data/field-types.js';
import type { MockField, planMockData } from './mock-data/generate.js';
import { createMockDataPool, INLINE_COST } from './mock-data/mock-data-pool.js';
import { MOCK_LOCALES } from './mock-data/locales.js';
import type { OutputFormat } from './mock-data/render.js';
import type { SqlDialect } from './mock-data/render-sql.js';
import { MOCK_DATA_DESCRIPTION, mockDataBody, mockDataResponse, mockTypesResponse } from './mock-data/schemas.js';
import { postTool } from '../../http/tool-route.js';

interface MockDataBody {
  fields: MockField[];
  rows: number;
  output_format: OutputFormat;
  locale: string;
  seed?: number;
  table_name: string;
  dialect: SqlDialect;
  create_table: boolean;
}

interface ArrayOpsBody {
  operation: ArrayOperation;
  arrays: unknown[][];
  options?: ArrayOpsOptions;
}

// Faker and its locales load on the first mock-data call, not at start: one import for every
// caller, however many arrive before it is done.
let mockDataPlanner: Promise<typeof planMockData> | undefined;
const loadMockDataPlanner = () => (mockDataPlanner ??= import('./mock-data/generate.js').then((m) => m.planMockData));

/** mock-data (+ its type list) and array-ops (spec §4.3 rules 1 and 7, CONTRACT §3.1, §3.8). */
export default async function dataRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  void ctx;
  const types = listFieldTypes();
  const mockDataPool = createMockDataPool();
  app.addHook('onClose', () => mockDataPool.close());

  postTool(app, '/v1/mock-data', {
    area: 'devtools',
    schema: { summary: 'Generate mock data rows', description: MOCK_DATA_DESCRIPTION, body: mockDataBody, response: { 200: mockDataResponse } },
  }, async (body: MockDataBody) => {
    const request = {
      fields: body.fields,
      rows: body.rows,
      outputFormat: body.output_format,
      locale: body.locale,
      seed: body.seed,
      tableName: body.table_name,
      dialect: body.dialect,
      createTable: body.create_table,
    };
    // Checked here (option errors answer at once); drawn here when small, on a worker when large.
    const planFor = await loadMockDataPlanner();
    const plan = planFor(request);
    const out = plan.cost <= INLINE_COST ? plan.run() : await mockDataPool.run(request);
    return out.outputFormat === 'json'
      ? { data: out.data, rows: out.rows, fields: out.fields }
      : { data: out.data, rows: out.rows, fields: out.fields, output_format: out.outputFormat };
  });

  app.get('/v1/mock-data/types', {
    config: { area: 'devtools', free: true },
    schema: { summary: 'List mock-data field types, their options and the locales', response: { 200: mockTypesResponse } },
  }, async () => ({ count: types.length, types, locales: MOCK_LOCALES }));

  postTool(app, '/v1/array-ops', {
    area: 'devtools',
    schema: { summary: 'Sort, deduplicate, intersect, diff, union, chunk, flatten, compact, reverse or sample arrays', description: ARRAY_OPS_DESCRIPTION, body: arrayOpsBody, response: { 200: arrayOpsResponse } },
  }, (body: ArrayOpsBody) => runArrayOps(body.operation, body.arrays, body.options ?? {}));
}
