import { DevutilError } from '../../../errors.js';
import { createWorkerPool } from '../../../workers/pool.js';
import type { MockDataRequest, MockDataResult, planMockData } from './generate.js';

/**
 * Plans costing more than this many typical Faker calls (about 2 ms of drawing) are drawn on a
 * worker; smaller ones, the usual request, inline where a thread hop would cost more than the work.
 */
export const INLINE_COST = 256;
/** Longest one request may draw on a worker before it is stopped (422). */
export const MOCK_DATA_TIMEOUT_MS = 5000;

// The worker holds Faker's locales (about 60 MB) and at most MAX_OUTPUT_CHARS of output twice over.
const RESOURCE_LIMITS = { maxOldGenerationSizeMb: 384, maxYoungGenerationSizeMb: 32 };

// Faker and its locales load on the first mock-data call, not at start: one import for every
// caller, however many arrive before it is done.
let planner: Promise<typeof planMockData> | undefined;
const loadPlanner = () => (planner ??= import('./generate.js').then((m) => m.planMockData));

/** Draws mock data, on a worker when the request is large. */
export interface MockDataPool {
  /**
   * mock-data: check the request with {@link planMockData} (its option errors answer at once), then
   * draw it here when it costs at most {@link INLINE_COST}, else on a worker.
   */
  generate(request: MockDataRequest): Promise<MockDataResult>;
  close(): Promise<void>;
}

/**
 * Up to two worker threads (src/workers/pool.ts) for large mock-data requests (up to 1000 rows of
 * 50 fields: tenths of a second to seconds of drawing, more with patterns that take many steps per
 * value), each started when a request finds no free one and stopped after a minute without work.
 * A request drawing longer than {@link MOCK_DATA_TIMEOUT_MS} is stopped with a 422; more than 32
 * waiting get 429.
 *
 * @example
 *   const pool = createMockDataPool();
 *   await pool.generate({ fields: [{ name: 'who', type: 'name' }], rows: 1000 }); // { data: [...], rows: 1000, ... }
 */
export function createMockDataPool(): MockDataPool {
  const pool = createWorkerPool<MockDataRequest, MockDataResult>({
    name: 'mock-data',
    worker: { from: import.meta.url, module: 'mock-data-worker', resourceLimits: RESOURCE_LIMITS },
    maxThreads: 2,
    // A worker holds about 65 MB (Faker's locales): given back after a minute without large requests.
    idleMs: 60_000,
    maxQueue: 32,
    limitsMs: { run: MOCK_DATA_TIMEOUT_MS },
    errors: {
      timedOut: () =>
        new DevutilError(
          'validation_error',
          `Drawing the rows took longer than ${MOCK_DATA_TIMEOUT_MS} ms and was stopped; ask for fewer rows or simpler fields.`,
          {
            errors: [{ path: 'rows', message: `take longer than ${MOCK_DATA_TIMEOUT_MS} ms to draw with these fields` }],
          },
        ),
      outOfMemory: () =>
        new DevutilError(
          'validation_error',
          'Drawing the rows needed too much memory and was stopped; ask for fewer rows or shorter fields.',
          {
            errors: [{ path: 'rows', message: 'need too much memory with these fields' }],
          },
        ),
      busy: () =>
        new DevutilError('rate_limited', 'Too many large mock-data requests are waiting; retry shortly.', {
          headers: { 'retry-after': '1' },
        }),
    },
  });
  return {
    async generate(request) {
      const plan = (await loadPlanner())(request);
      return plan.cost <= INLINE_COST ? plan.run() : pool.run(request);
    },
    close: pool.close,
  };
}
