import type { Worker } from 'node:worker_threads';
import { DevutilError } from './errors.js';
import type { JobReply } from './worker-jobs.js';

export interface JobPoolOptions<Meta> {
  /** Most workers at once, each started when a job finds no free one. */
  size: number;
  /** A worker without a job this long is stopped (its memory returned); kept for good when absent. */
  idleMs?: number;
  /** Jobs waiting for a worker beyond this are refused with {@link JobPoolOptions.busy}. */
  maxQueue: number;
  /** Start one worker (its module calls `serveJobs`). */
  spawn(): Worker;
  /**
   * Longest a job may run, by phase: `start` from when a worker takes it; a worker reporting a
   * phase (`enterPhase('evaluate')`) restarts the clock with that phase's limit.
   */
  limitsMs: { start: number } & Record<string, number>;
  /** The error of a job stopped in `phase` (its worker is terminated and replaced). */
  timedOut(phase: string, meta: Meta): DevutilError;
  /** The error of a job whose worker died under it (out of its memory limit). */
  died(meta: Meta): DevutilError;
  /** The error when the queue is full (a 429). */
  busy(): DevutilError;
  /** What the workers do, for the errors of a pool that cannot start or is closed ("schema"). */
  name: string;
}

/** Runs jobs on worker threads, each under a time limit. */
export interface JobPool<Input, Output, Meta> {
  /** Run on a worker; `meta` stays here and only chooses the errors. */
  run(input: Input, meta: Meta): Promise<Output>;
  /** Workers alive now, those starting included. */
  workers(): number;
  close(): Promise<void>;
}

interface Job<Input, Output, Meta> {
  id: number;
  input: Input;
  meta: Meta;
  resolve(result: Output): void;
  reject(err: Error): void;
}

interface Slot<Input, Output, Meta> {
  worker: Worker;
  ready: boolean;
  job?: Job<Input, Output, Meta>;
  timer?: NodeJS.Timeout;
  idleTimer?: NodeJS.Timeout;
}

/**
 * A small pool of worker threads, one job per worker at a time, for work that could hold the
 * event loop (user patterns, large generations). A job running past its phase's limit has its
 * worker terminated (V8 interrupts whatever it runs) and replaced, and fails with the pool's
 * error; the event loop is never blocked. Jobs go to a worker only once it is ready (its
 * warm-up done), so a cold start does not count against a job's time.
 *
 * @example
 *   const pool = createJobPool<Input, Result, void>({ size: 2, maxQueue: 64, spawn, limitsMs: { start: 5000 }, ... });
 *   await pool.run(input);
 */
export function createJobPool<Input, Output, Meta = void>(options: JobPoolOptions<Meta>): JobPool<Input, Output, Meta> {
  const slots = new Set<Slot<Input, Output, Meta>>();
  const queue: Job<Input, Output, Meta>[] = [];
  let nextId = 1;
  let closed = false;
  const closing = () => new DevutilError('internal_error', 'The service is shutting down.');

  function spawn(): void {
    const slot: Slot<Input, Output, Meta> = { worker: options.spawn(), ready: false };
    slot.worker.unref();
    slot.worker.on('message', (reply: JobReply<Output>) => onReply(slot, reply));
    slot.worker.on('error', () => undefined); // followed by 'exit', handled there
    slot.worker.on('exit', () => onExit(slot));
    slots.add(slot);
  }

  function finish(slot: Slot<Input, Output, Meta>): Job<Input, Output, Meta> | undefined {
    const job = slot.job;
    clearTimeout(slot.timer);
    slot.job = undefined;
    slot.idleTimer = undefined;
    return job;
  }

  function startClock(slot: Slot<Input, Output, Meta>, phase: string): void {
    clearTimeout(slot.timer);
    slot.timer = setTimeout(() => onTimeout(slot, phase), options.limitsMs[phase] ?? options.limitsMs.start).unref();
  }

  /** Stop a worker once it has been without a job for `idleMs`. */
  function idle(slot: Slot<Input, Output, Meta>): void {
    if (options.idleMs === undefined || closed) return;
    slot.idleTimer = setTimeout(() => {
      slots.delete(slot);
      void slot.worker.terminate();
    }, options.idleMs).unref();
  }

  function pump(): void {
    for (const slot of slots) {
      if (queue.length === 0) break;
      if (!slot.ready || slot.job) continue;
      const job = queue.shift()!;
      slot.job = job;
      clearTimeout(slot.idleTimer);
      startClock(slot, 'start');
      slot.worker.postMessage({ id: job.id, input: job.input });
    }
    // Jobs still waiting beyond the workers that are starting get workers of their own, up to `size`.
    let starting = 0;
    for (const slot of slots) if (!slot.ready) starting++;
    while (!closed && slots.size < options.size && queue.length > starting) {
      spawn();
      starting++;
    }
    for (const slot of slots) if (slot.ready && !slot.job && slot.idleTimer === undefined) idle(slot);
  }

  function onReply(slot: Slot<Input, Output, Meta>, reply: JobReply<Output>): void {
    if ('ready' in reply) slot.ready = true;
    else if (slot.job?.id !== reply.id) return; // a late reply of a job already answered
    else if ('phase' in reply) return startClock(slot, reply.phase);
    else if (reply.ok) finish(slot)!.resolve(reply.result);
    else {
      const cause = reply.cause && Object.assign(new Error(reply.cause.message), { stack: reply.cause.stack });
      finish(slot)!.reject(new DevutilError(reply.code, reply.message, { errors: reply.errors, cause }));
    }
    pump();
  }

  function onTimeout(slot: Slot<Input, Output, Meta>, phase: string): void {
    const job = finish(slot);
    slots.delete(slot);
    void slot.worker.terminate();
    if (job) job.reject(options.timedOut(phase, job.meta));
    pump();
  }

  function onExit(slot: Slot<Input, Output, Meta>): void {
    if (!slots.delete(slot)) return; // terminated on purpose
    const job = finish(slot);
    if (job) job.reject(options.died(job.meta));
    if (slot.ready) pump(); // a worker that never became ready cannot load: do not respawn in a loop
    else for (const waiting of queue.splice(0)) waiting.reject(new DevutilError('internal_error', `The ${options.name} worker cannot start.`));
  }

  return {
    run(input, meta) {
      if (closed) return Promise.reject(closing());
      if (queue.length >= options.maxQueue) return Promise.reject(options.busy());
      return new Promise((resolve, reject) => {
        queue.push({ id: nextId++, input, meta, resolve, reject });
        pump();
      });
    },
    workers: () => slots.size,
    async close() {
      closed = true;
      for (const job of queue.splice(0)) job.reject(closing());
      const all = [...slots];
      slots.clear();
      for (const slot of all) {
        clearTimeout(slot.idleTimer);
        finish(slot)?.reject(closing());
      }
      await Promise.all(all.map((slot) => slot.worker.terminate()));
    },
  };
}
