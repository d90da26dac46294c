import { DevutilError, invalidField } from '../../errors.js';
import { createWorkerPool } from '../../workers/pool.js';
import type { ExtractLimits, ExtractResult } from './regex-extract.js';
import { REGEX_LIMITS, REGEX_TEXT_MAX_BYTES } from './regex-schema.js';
import { compilePattern, type CompiledPattern } from './regex-syntax.js';
import type { RegexJob } from './regex-worker.js';

export interface RegexPoolOptions {
  /** Workers kept started even when idle; more than `perOwner`, so one owner's burst leaves one ready for the next. */
  size: number;
  /** Most threads alive at once, those still being stopped included. */
  maxThreads: number;
  /** Most jobs of one owner running at once; the rest of its jobs wait. */
  perOwner: number;
  /** Longest a job may run on a worker before it is stopped. */
  timeoutMs: number;
  /** Longest a job may take from submission to answer, waiting for a worker included. */
  deadlineMs: number;
  /** Jobs waiting for a worker beyond this, in all, are refused with 429. */
  maxQueue: number;
  /** Jobs of one owner waiting beyond this are refused with 429. */
  maxQueuePerOwner: number;
  /** A worker beyond `size` idle this long is stopped. */
  idleMs: number;
}

/** A regex-extract request: the pattern and flags as written, and the text to search. */
export interface ExtractRequest {
  pattern: string;
  flags: string;
  text: string;
}

/** Runs regex jobs off the event loop. */
export interface RegexPool {
  /**
   * regex-extract: check the text's size and compile the pattern here (so their errors answer at
   * once), then `extractMatches` (regex-extract.ts) on a worker within {@link REGEX_LIMITS}.
   */
  extract(request: ExtractRequest, owner: string): Promise<ExtractResult>;
  /** `owner` (a key id, a client address) is whose job it is: owners share the threads fairly. */
  run(pattern: CompiledPattern, text: string, limits: ExtractLimits, owner: string): Promise<ExtractResult>;
  /** Start the warm workers now rather than on the first job. */
  warm(): void;
  /** Terminate every worker; later jobs are refused. */
  close(): Promise<void>;
}

// A worker holds a text of 1 MiB at most and a result bounded by REGEX_LIMITS (8 Mi characters,
// 200000 values): 128 MiB is room enough, and up to 16 threads stay within about 2.3 GB however they are used.
const RESOURCE_LIMITS = { maxOldGenerationSizeMb: 128, maxYoungGenerationSizeMb: 16 };

/**
 * The worker pool (src/workers/pool.ts) for user regexes, shared fairly between owners. It keeps
 * `size` workers warm and, while jobs run, `perOwner` more idle ones started, up to `maxThreads`;
 * extra workers idle for `idleMs` are stopped. An owner runs at most `perOwner` jobs at once, and
 * a free worker goes to the waiting owner with the fewest running, so one owner's catastrophic
 * patterns cannot hold every thread (CONTRACT §3.5).
 *
 * A job running past `timeoutMs`, or past `deadlineMs` from its submission, fails at once with
 * 422 `regex_timeout`; its thread is terminated once the job has run `timeoutMs`. A job that found
 * no free thread before its deadline never ran: 429 `rate_limited` with `Retry-After: 1`, as are
 * jobs beyond `maxQueuePerOwner`, and beyond `maxQueue` unless the owner has fewer waiting than
 * the owner with the most (whose newest job then gives way).
 *
 * @example
 *   const pool = createRegexPool({ size: 4, maxThreads: 8, perOwner: 3, timeoutMs: 500, deadlineMs: 800, maxQueue: 64, maxQueuePerOwner: 16, idleMs: 10_000 });
 *   const { matches } = await pool.extract({ pattern: 'a+', flags: '', text: 'caaat' }, 'key_1'); // [{ match: 'aaa', start: 1, ... }]
 *   await pool.close();
 */
export function createRegexPool(options: RegexPoolOptions): RegexPool {
  const pool = createWorkerPool<RegexJob, ExtractResult>({
    name: 'regex',
    worker: { from: import.meta.url, module: 'regex-worker', resourceLimits: RESOURCE_LIMITS },
    maxThreads: options.maxThreads,
    warmThreads: options.size,
    spareThreads: options.perOwner,
    idleMs: options.idleMs,
    maxQueue: options.maxQueue,
    limitsMs: { run: options.timeoutMs },
    deadlineMs: options.deadlineMs,
    fairness: { perCaller: options.perOwner, maxQueuePerCaller: options.maxQueuePerOwner },
    errors: {
      timedOut: () =>
        new DevutilError(
          'regex_timeout',
          `The regular expression ran too long (limit ${options.timeoutMs} ms, ${options.deadlineMs} ms per request) and was stopped.`,
        ),
      outOfMemory: () => invalidField('pattern', 'needed too much memory on this text'),
      busy: (reason) =>
        new DevutilError(
          'rate_limited',
          reason === 'queue'
            ? 'Too many regular expressions are waiting to run; retry shortly.'
            : `No regex worker was free for this request within ${options.deadlineMs} ms (at most ${options.maxThreads} patterns run at once, ${options.perOwner} per caller), so it did not run. Retry shortly.`,
          { headers: { 'retry-after': '1' } },
        ),
    },
  });
  const run = (pattern: CompiledPattern, text: string, limits: ExtractLimits, owner: string) =>
    pool.run({ pattern, text, limits }, undefined, owner);
  return {
    async extract({ pattern, flags, text }, owner) {
      // The schema bounds characters; 1 MiB is bytes (a text of é is 2 bytes a character).
      if (Buffer.byteLength(text) > REGEX_TEXT_MAX_BYTES)
        throw invalidField('text', `must be at most 1 MiB (${REGEX_TEXT_MAX_BYTES} bytes of UTF-8)`);
      return run(compilePattern(pattern, flags), text, REGEX_LIMITS, owner);
    },
    run,
    warm: pool.warm,
    close: pool.close,
  };
}
