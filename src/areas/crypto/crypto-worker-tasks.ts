import { parentPort } from 'node:worker_threads';
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

export interface WorkerRequest {
  id: number;
  task: WorkerTaskName;
  args: unknown[];
}

export type WorkerReply = { id: number; ok: true; value: unknown } | { id: number; ok: false; message: string };

// Loaded as a worker entry point: answer each request with the task's result.
if (parentPort) {
  const port = parentPort;
  port.on('message', (request: WorkerRequest) => {
    try {
      const run = WORKER_TASKS[request.task] as (...args: unknown[]) => unknown;
      port.postMessage({ id: request.id, ok: true, value: run(...request.args) } satisfies WorkerReply);
    } catch (err) {
      port.postMessage({ id: request.id, ok: false, message: (err as Error).message } satisfies WorkerReply);
    }
  });
}
