import { DevutilError } from '../../errors.js';
import { createWorkerPool } from '../../workers/pool.js';
import type { SchemaValidationInput, SchemaValidationResult } from './json-schema.js';

export interface SchemaPoolOptions {
  /** Most workers at once (each started when a job finds no free one, then kept). */
  size: number;
  /** Longest the evaluation of one validation may run on a worker before the worker is terminated. */
  timeoutMs: number;
  /** Longest compiling its schema may take (bounded by the schema limits; generous for cold caches). */
  compileTimeoutMs: number;
  /** Jobs waiting beyond this are refused with 429. */
  maxQueue: number;
}

/** Runs validations that could take long off the event loop. */
export interface SchemaPool {
  /** Validate on a worker; past the timeout, fail with `timeoutCode` (422). */
  run(input: SchemaValidationInput, timeoutCode: TimeoutCode): Promise<SchemaValidationResult>;
  close(): Promise<void>;
}

/** The code of a validation stopped by the clock: a backtracking pattern, or any slow evaluation. */
type TimeoutCode = 'regex_timeout' | 'validation_error';

const RESOURCE_LIMITS = { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 32 };

/**
 * A small worker pool (src/workers/pool.ts) for JSON Schema validations that run user regexes
 * (`pattern`, `patternProperties`) or references. An evaluation running past `timeoutMs` (a
 * compile past `compileTimeoutMs`) has its worker terminated and replaced and fails with 422
 * (`regex_timeout` or `validation_error`, as the caller says); the event loop is never blocked.
 *
 * @example
 *   const pool = createSchemaPool({ size: 2, timeoutMs: 1000, compileTimeoutMs: 10000, maxQueue: 64 });
 *   await pool.run({ data: 'abc', schema: { pattern: '^a' } }, 'regex_timeout'); // → { valid: true, errors: [] }
 */
export function createSchemaPool(options: SchemaPoolOptions): SchemaPool {
  const pool = createWorkerPool<SchemaValidationInput, SchemaValidationResult, TimeoutCode>({
    name: 'schema',
    worker: { from: import.meta.url, module: 'json-schema-worker', resourceLimits: RESOURCE_LIMITS },
    maxThreads: options.size,
    maxQueue: options.maxQueue,
    // The worker enters `evaluate` once the schema is compiled: the clock that guards against slow regexes covers the evaluation only.
    limitsMs: { run: options.compileTimeoutMs, evaluate: options.timeoutMs },
    errors: {
      timedOut(phase, timeoutCode) {
        if (phase === 'run') {
          return new DevutilError('validation_error', `Compiling the schema took longer than ${options.compileTimeoutMs} ms and was stopped.`, {
            errors: [{ path: 'schema', message: 'takes too long to compile' }],
          });
        }
        if (timeoutCode === 'regex_timeout') {
          return new DevutilError('regex_timeout', `Validation ran longer than ${options.timeoutMs} ms (a pattern in the schema backtracks too much on this data) and was stopped.`);
        }
        return new DevutilError('validation_error', `Validation ran longer than ${options.timeoutMs} ms and was stopped.`, {
          errors: [{ path: 'schema', message: `takes longer than ${options.timeoutMs} ms to validate this data` }],
        });
      },
      outOfMemory: () => new DevutilError('validation_error', 'Validation needed too much memory and was stopped.', {
        errors: [{ path: 'schema', message: 'needs too much memory on this data' }],
      }),
      busy: () => new DevutilError('rate_limited', 'Too many pattern validations are waiting; retry shortly.', { headers: { 'retry-after': '1' } }),
    },
  });
  return { run: (input, timeoutCode) => pool.run(input, timeoutCode), close: () => pool.close() };
}
