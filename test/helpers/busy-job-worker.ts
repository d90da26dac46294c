/** A job worker for the pool's own tests: holds its thread `spin` ms, then answers or fails. */
import { DevutilError } from '../../src/errors.js';
import { serveJobs } from '../../src/worker-jobs.js';

export interface BusyJob {
  spin: number;
  /** Report this phase first (restarting the pool's clock with its limit), then spin again. */
  phase?: string;
  fail?: 'devutil' | 'other';
}

function spin(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until);
}

serveJobs({
  run(job: BusyJob, enterPhase) {
    spin(job.spin);
    if (job.phase) {
      enterPhase(job.phase);
      spin(job.spin);
    }
    if (job.fail === 'devutil') throw new DevutilError('validation_error', 'Refused.', { errors: [{ path: 'spin', message: 'refused' }] });
    if (job.fail === 'other') throw new TypeError('boom');
    return { spun: job.spin, thread: process.pid };
  },
  unexpected: () => new DevutilError('internal_error', 'Unexpected.'),
});
