import { DevutilError } from '../../errors.js';
import { serveJobs } from '../../workers/serve-jobs.js';
import { ecPublicPoint } from './ec-point.js';
import { estimatePasswordStrength } from './password-strength.js';

/**
 * CPU-bound tasks that have no asynchronous native API, run in a worker thread so the event loop
 * stays free. One row per task: name → pure function of structured-cloneable arguments.
 */
export const WORKER_TASKS = {
  'password-strength': (password: string, userInputs: string[]) => estimatePasswordStrength(password, userInputs),
  // 1-2 ms of scalar multiplication on P-384 and P-521.
  'ec-public-point': ecPublicPoint,
} satisfies Record<string, (...args: never[]) => unknown>;

export type WorkerTaskName = keyof typeof WORKER_TASKS;

/** One job of the crypto worker pool: a task and its arguments. */
export interface WorkerRequest {
  task: WorkerTaskName;
  args: unknown[];
}

// Loaded as the pool's worker: answer each request with the task's result. A task that throws is the service's fault.
serveJobs({
  run: ({ task, args }: WorkerRequest) => (WORKER_TASKS[task] as (...args: unknown[]) => unknown)(...args),
  unexpected: (err) => new DevutilError('internal_error', undefined, { cause: err }),
});
