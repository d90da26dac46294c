import { DevutilError } from '../../errors.js';
import { createWorkerPool, type WorkerPool } from '../../workers/pool.js';
import type { DateFormatInput, DateFormatOutput, formatDate } from './date-format.js';
import type { inputFormatWays } from './date-parse.js';

interface DateTool {
  formatDate: typeof formatDate;
  inputFormatWays: typeof inputFormatWays;
}

// The date tool (chrono's grammars, luxon) loads on its first call, not at start: one import for
// every caller, however many arrive before it is done.
let dateTool: Promise<DateTool> | undefined;
const loadDateTool = (): Promise<DateTool> =>
  (dateTool ??= Promise.all([import('./date-format.js'), import('./date-parse.js')]).then(([f, p]) => ({
    formatDate: f.formatDate,
    inputFormatWays: p.inputFormatWays,
  })));

/**
 * An `input_format` whose directives could split an input more ways than this (see
 * `inputFormatWays`) is matched on a worker: at a million ways the parser's worst case is about
 * 3 ms, at 3.9e8 (`%f%j` six times) half a second, at 1e16 (`%Z%p` six times) half a minute.
 * Ordinary formats stay far below (`%Y%m%d%H%M%S` is 32).
 */
export const INLINE_FORMAT_WAYS = 1_000_000;
/** Longest a date may take to match its `input_format` on the worker before it is stopped (422). */
export const DATE_FORMAT_TIMEOUT_MS = 1000;

/** Formats dates, off the event loop when the parser could backtrack for long. */
export interface DateFormatPool extends Pick<WorkerPool<DateFormatInput, DateFormatOutput>, 'run' | 'close'> {
  /**
   * date-format: {@link formatDate} here, or on the worker when `inputFormat` could split the
   * date more than {@link INLINE_FORMAT_WAYS} ways.
   */
  format(input: DateFormatInput): Promise<DateFormatOutput>;
}

/**
 * One worker thread (src/workers/pool.ts), started when such a request comes and stopped after a
 * minute without one, for dates whose `input_format` could make the parser backtrack for seconds:
 * a match running past {@link DATE_FORMAT_TIMEOUT_MS} is stopped with a 422 on `input_format`;
 * more than 8 waiting get 429. `run` always uses the worker.
 *
 * @example
 *   const pool = createDateFormatPool();
 *   await pool.format({ date: '20260307', inputFormat: '%f%j%f%j%f%j%f%j%f%j', now: Date.now() }); // on the worker
 */
export function createDateFormatPool(): DateFormatPool {
  const pool = createWorkerPool<DateFormatInput, DateFormatOutput>({
    name: 'date-format',
    worker: { from: import.meta.url, module: 'date-format-worker' },
    maxThreads: 1,
    idleMs: 60_000,
    maxQueue: 8,
    limitsMs: { run: DATE_FORMAT_TIMEOUT_MS },
    errors: {
      timedOut: () =>
        new DevutilError(
          'validation_error',
          `Matching the date against input_format took longer than ${DATE_FORMAT_TIMEOUT_MS} ms and was stopped; put separators between directives that read the same characters.`,
          {
            errors: [
              {
                path: 'input_format',
                message: `takes longer than ${DATE_FORMAT_TIMEOUT_MS} ms to match this date: directives that read the same characters follow each other without a separator`,
              },
            ],
          },
        ),
      outOfMemory: () =>
        new DevutilError('validation_error', 'Matching the date against input_format needed too much memory and was stopped.', {
          errors: [{ path: 'input_format', message: 'needs too much memory to match this date' }],
        }),
      busy: () =>
        new DevutilError('rate_limited', 'Too many dates with ambiguous input formats are waiting; retry shortly.', {
          headers: { 'retry-after': '1' },
        }),
    },
  });
  return {
    format: async (input) => {
      const { formatDate, inputFormatWays } = await loadDateTool();
      return input.inputFormat !== undefined && inputFormatWays(input.inputFormat) > INLINE_FORMAT_WAYS
        ? pool.run(input)
        : formatDate(input);
    },
    run: pool.run,
    close: pool.close,
  };
}
