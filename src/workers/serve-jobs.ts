import { workerData, type MessagePort } from 'node:worker_threads';
import { DevutilError, type ErrorCode, type FieldError } from '../errors.js';

/** What a pool sends its worker: one job. */
export interface JobMessage<Input> {
  id: number;
  input: Input;
}

/** What a job worker posts to its pool (src/workers/pool.ts): `ready` once, then per job any phases and one answer. */
export type JobReply<Output> =
  | { ready: true }
  | { id: number; phase: string }
  | { id: number; ok: true; result: Output }
  | { id: number; ok: false; code: ErrorCode; message: string; errors?: FieldError[]; cause?: { message: string; stack?: string } };

/** What the pool hands each worker it starts: the channel its jobs and answers travel on. */
export interface JobWorkerData {
  jobPort: MessagePort;
}

export interface JobHandler<Input, Output> {
  /** Do one job; `enterPhase` restarts the pool's clock with that phase's limit. */
  run(input: Input, enterPhase: (phase: string) => void): Output | Promise<Output>;
  /** The error answered for a failure that is no DevutilError. */
  unexpected(err: unknown): DevutilError;
  /** Done before the first job is taken (a cold compile, loading data); its failure is ignored. */
  warmUp?: () => unknown;
}

/**
 * The worker-thread side of a pool: take one job per message, answer its result or its error
 * (code, message and field errors, which the pool rebuilds as a DevutilError). Does nothing
 * outside a pool's worker thread.
 *
 * @example
 *   serveJobs({ run: (input: MockDataRequest) => generateMockData(input), unexpected: toDevutilError });
 */
export function serveJobs<Input, Output>(handler: JobHandler<Input, Output>): void {
  // The pool's own channel, not parentPort, so the pool can read an answer synchronously when its clock fires first.
  const port = (workerData as Partial<JobWorkerData> | null)?.jobPort;
  if (!port) return;
  const post = (reply: JobReply<Output>) => port.postMessage(reply);
  const answer = async ({ id, input }: JobMessage<Input>) => {
    try {
      post({ id, ok: true, result: await handler.run(input, (phase) => post({ id, phase })) });
    } catch (err) {
      const e = err instanceof DevutilError ? err : handler.unexpected(err);
      // A 5xx carries what caused it, for the service's log (never for the answer).
      const cause = e.status >= 500 && err instanceof Error ? { message: err.message, stack: err.stack } : undefined;
      post({ id, ok: false, code: e.code, message: e.message, errors: e.errors, cause });
    }
  };
  port.on('message', (message: JobMessage<Input>) => void answer(message));
  void Promise.allSettled([(async () => handler.warmUp?.())()]).then(() => post({ ready: true }));
}
