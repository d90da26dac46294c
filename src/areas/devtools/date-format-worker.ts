/**
 * Worker-thread entry of the date-format pool: formats one date whose `input_format` could make
 * the parser backtrack for long, so that time is spent on this thread, never the event loop's.
 */
import { toDevutilError } from '../../http/error-handler.js';
import { serveJobs } from '../../workers/serve-jobs.js';
import { formatDate, type DateFormatInput } from './date-format.js';

serveJobs({
  run: (input: DateFormatInput) => formatDate(input),
  unexpected: toDevutilError,
  // luxon's zone data and parser, so the first request's clock does not count them.
  warmUp: async () => formatDate({ date: '08/03/2026 17:07', inputFormat: '%d/%m/%Y %H:%M', fromTimezone: 'Europe/Berlin', now: 0 }),
});
