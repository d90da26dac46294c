import { DevutilError } from '../../errors.js';
import { createWorkerPool } from '../../workers/pool.js';
import { prepareValidation, validateJsonSchema, type SchemaValidationInput, type SchemaValidationResult } from './json-schema.js';

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

/** Validates, off the event loop when a validation could take long. */
export interface SchemaPool {
  /**
   * json-schema-validate: {@link validateJsonSchema} here when the request is small and has no
   * user regexes, else on a worker; past the timeout, 422 `regex_timeout` (the schema has
   * patterns) or `validation_error`.
   */
  validate(input: SchemaValidationInput): Promise<SchemaValidationResult>;
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
 *   await pool.validate({ data: 'abc', schema: { pattern: '^a' } }); // → { valid: true, errors: [] } (on a worker: a pattern)
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
          return new DevutilError(
            'validation_error',
            `Compiling the schema took longer than ${options.compileTimeoutMs} ms and was stopped.`,
            {
              errors: [{ path: 'schema', message: 'takes too long to compile' }],
            },
          );
        }
        if (timeoutCode === 'regex_timeout') {
          return new DevutilError(
            'regex_timeout',
            `Validation ran longer than ${options.timeoutMs} ms (a pattern in the schema backtracks too much on this data) and was stopped.`,
          );
        }
        return new DevutilError('validation_error', `Validation ran longer than ${options.timeoutMs} ms and was stopped.`, {
          errors: [{ path: 'schema', message: `takes longer than ${options.timeoutMs} ms to validate this data` }],
        });
      },
      outOfMemory: () =>
        new DevutilError('validation_error', 'Validation needed too much memory and was stopped.', {
          errors: [{ path: 'schema', message: 'needs too much memory on this data' }],
        }),
      busy: () =>
        new DevutilError('rate_limited', 'Too many pattern validations are waiting; retry shortly.', { headers: { 'retry-after': '1' } }),
    },
  });
  return {
    async validate(input) {
      const prepared = prepareValidation(input);
      if (prepared.isolation === 'none') return validateJsonSchema(prepared);
      return pool.run(input, prepared.isolation === 'regex' ? 'regex_timeout' : 'validation_error');
    },
    close: () => pool.close(),
  };
}
