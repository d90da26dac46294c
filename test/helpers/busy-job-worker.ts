/** A job worker for the pool's own tests: holds its thread `spin` ms, then answers or fails. */
import { threadId } from 'node:worker_threads';
import { DevutilError } from '../../src/errors.js';
import { serveJobs } from '../../src/workers/serve-jobs.js';

export interface BusyJob {
  spin: number;
  /** Report this phase first (restarting the pool's clock with its limit), then spin again. */
  phase?: string;
  fail?: 'devutil' | 'other' | 'exit' | 'memory';
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
    if (job.fail === 'exit') process.exit(3);
    if (job.fail === 'memory') for (const held: number[][] = []; ;) held.push(new Array(100_000).fill(held.length));
    return { spun: job.spin, thread: threadId };
  },
  unexpected: () => new DevutilError('internal_error', 'Unexpected.'),
});
