import type { ResourceLimits } from 'node:worker_threads';
import type { DevutilError } from '../errors.js';

export interface WorkerPoolOptions<Meta> {
  /** What the workers do, for the default errors ("regex", "schema"). */
  name: string;
  /** The worker module, which calls `serveJobs`: `module` is its file name beside `from` (the caller's `import.meta.url`), without extension. */
  worker: { from: string; module: string; resourceLimits?: ResourceLimits };
  /** Most threads alive at once, those still being terminated included. */
  maxThreads: number;
  /** Threads kept started without work (from `warm()` or the first job on). Default 0. */
  warmThreads?: number;
  /** Idle threads kept started beyond those the jobs need, so that the next caller finds one ready. Default 0. */
  spareThreads?: number;
  /** A thread beyond `warmThreads` without a job this long is stopped (its memory returned); absent, threads are kept. */
  idleMs?: number;
  /** Jobs waiting for a thread beyond this are refused with `errors.busy('queue')`. */
  maxQueue: number;
  /**
   * Longest a job may run, by phase: `run` from when a thread takes it; a worker entering a phase
   * (`enterPhase('evaluate')`) restarts the clock with that phase's limit. A job past it fails with
   * `errors.timedOut` and its thread is terminated (V8 interrupts whatever it runs) and replaced.
   * Absent: jobs run as long as they take.
   */
  limitsMs?: { run: number } & Record<string, number>;
  /**
   * Longest from submission to answer, waiting included. A job still running then fails with
   * `errors.timedOut`, but its thread is terminated only once its phase's limit is spent too, so a
   * job that started late and ends soon keeps its thread. A job that found no free thread by then
   * never ran: it fails with `errors.busy('deadline')`. Waiting for the pool's very first thread
   * does not count: such a job runs at least 100 ms however late it starts.
   */
  deadlineMs?: number;
  /**
   * Threads shared between callers (`run`'s `caller`): a caller runs at most `perCaller` jobs at
   * once, a free thread goes to the waiting caller with the fewest running, a caller may have at
   * most `maxQueuePerCaller` waiting, and a full queue still takes a caller with fewer waiting than
   * the caller with the most (whose newest job gives way). Absent: first come, first served.
   */
  fairness?: { perCaller: number; maxQueuePerCaller: number };
  errors?: Partial<WorkerPoolErrors<Meta>>;
}

/** The errors of jobs the pool stopped or refused; `meta` is what the caller passed to `run`. */
export interface WorkerPoolErrors<Meta> {
  /** A job stopped by the clock in `phase` (`run` unless the worker entered another). */
  timedOut(phase: string, meta: Meta): DevutilError;
  /** A job whose thread ran out of its `resourceLimits`. */
  outOfMemory(meta: Meta): DevutilError;
  /** A job refused without running: the queue was full, or no thread was free before its deadline. */
  busy(reason: 'queue' | 'deadline'): DevutilError;
}

/** Runs jobs on worker threads. */
export interface WorkerPool<Input, Output, Meta = void> {
  /** Run on a worker; `meta` stays on this thread and only chooses the errors; `caller` (a key id) matters with `fairness`. */
  run(input: Input, meta: Meta, caller?: string): Promise<Output>;
  /** Start the warm threads now rather than on the first job. */
  warm(): void;
  /** Threads alive now, those starting included, those being terminated not. */
  workers(): number;
  /** Terminate every thread and refuse every job, running, waiting or later. */
  close(): Promise<void>;
}
