import { MessageChannel, receiveMessageOnPort, type MessagePort, type Worker } from 'node:worker_threads';
import { DevutilError } from '../errors.js';
import { createFairQueue, type QueuedJob } from './fair-queue.js';
import type { WorkerPool, WorkerPoolErrors, WorkerPoolOptions } from './pool-options.js';
import type { JobMessage, JobReply, JobWorkerData } from './serve-jobs.js';
import { startModuleWorker, USER_WORK_NICENESS } from './start-worker.js';

export type { WorkerPool, WorkerPoolErrors, WorkerPoolOptions } from './pool-options.js';

/** The least a job queued during the pool's first start runs, however late it starts. */
const COLD_START_RUN_MS = 100;

interface Job<Input, Output, Meta> extends QueuedJob {
  input: Input;
  meta: Meta;
  /** When the job must be answered (Infinity without `deadlineMs`). */
  deadline: number;
  /** Queued before the pool's first thread was ready: its wait was a cold start, not contention. */
  coldStart: boolean;
  waitTimer?: NodeJS.Timeout;
  resolve(result: Output): void;
  reject(err: Error): void;
}

/** The clock of the phase a job is in: it is answered when `timer` fires and its thread terminated at `stopAt`. */
interface Clock {
  phase: string;
  stopAt: number;
  timer?: NodeJS.Timeout;
}

interface Slot<Input, Output, Meta> {
  worker: Worker;
  /** Jobs go out and answers come back on this channel, so an answer can be read synchronously. */
  port: MessagePort;
  ready: boolean;
  job?: Job<Input, Output, Meta>;
  clock?: Clock;
  idleTimer?: NodeJS.Timeout;
  error?: Error;
}

/**
 * A pool of worker threads for work that could hold the event loop (user patterns and schemas,
 * large generations, password estimates), one job per thread at a time. Threads start when jobs
 * need them, at nice 10 (src/workers/start-worker.ts), are unref'd while idle, and take jobs only
 * once ready (their warm-up done), so a cold start does not count against a job's time. Time
 * limits, deadlines and fairness between callers are options; the event loop is never blocked.
 * Built on node:worker_threads rather than piscina, which has no per-caller shares or phase
 * clocks and would terminate at a request's deadline a thread that could have been kept.
 *
 * @example
 *   const pool = createWorkerPool<RegexJob, ExtractResult>({
 *     name: 'regex', worker: { from: import.meta.url, module: 'regex-worker' },
 *     maxThreads: 8, warmThreads: 4, maxQueue: 64, limitsMs: { run: 500 }, deadlineMs: 800,
 *     fairness: { perCaller: 3, maxQueuePerCaller: 16 },
 *   });
 *   const result = await pool.run({ pattern, text, limits }, undefined, 'key_1');
 *   await pool.close();
 */
export function createWorkerPool<Input, Output, Meta = void>(options: WorkerPoolOptions<Meta>): WorkerPool<Input, Output, Meta> {
  type PoolJob = Job<Input, Output, Meta>;
  type PoolSlot = Slot<Input, Output, Meta>;
  const { limitsMs, deadlineMs } = options;
  const errors = { ...defaultErrors(options.name), ...options.errors } as WorkerPoolErrors<Meta>;
  const warmThreads = options.warmThreads ?? 0;
  const queue = createFairQueue<PoolJob>({
    maxQueue: options.maxQueue,
    maxQueuePerCaller: options.fairness?.maxQueuePerCaller ?? options.maxQueue,
    perCaller: options.fairness?.perCaller ?? Infinity,
  });
  const slots = new Set<PoolSlot>();
  /** Threads terminated but not yet gone: they count against `maxThreads`, and close() waits for them. */
  const terminating = new Set<Promise<void>>();
  let nextId = 1;
  let closed = false;
  let warmedUp = false;
  const shuttingDown = () => new DevutilError('internal_error', 'The service is shutting down.');

  function spawn(): void {
    const { port1: port, port2 } = new MessageChannel();
    const workerData: JobWorkerData = { jobPort: port2 };
    const { from, module, resourceLimits } = options.worker;
    const worker = startModuleWorker(from, module, { resourceLimits, workerData, transferList: [port2], niceness: USER_WORK_NICENESS });
    const slot: PoolSlot = { worker, port, ready: false };
    port.on('message', (reply: JobReply<Output>) => onReply(slot, reply));
    // After the listener, which refs the port. The thread itself keeps the process alive while it
    // starts or works, never while idle (becameIdle), so a job is answered even in a process with nothing else to do.
    port.unref();
    worker.on('error', (err) => {
      slot.error = err;
    });
    worker.on('exit', () => onExit(slot));
    slots.add(slot);
  }

  /** Threads wanted now: the warm ones, or one per running and startable job plus the spare ones. */
  function wanted(): number {
    let busy = 0;
    for (const slot of slots) if (slot.job) busy++;
    return Math.max(warmThreads, busy + queue.startable() + (options.spareThreads ?? 0));
  }

  function scale(): void {
    const target = wanted();
    while (!closed && slots.size < target && slots.size + terminating.size < options.maxThreads) spawn();
  }

  /** Terminate a slot's thread; until it is gone it counts against `maxThreads`, and against `caller`'s share if given. */
  function stop(slot: PoolSlot, caller?: string): void {
    slots.delete(slot);
    clearTimeout(slot.idleTimer);
    slot.port.close();
    const gone = () => {
      terminating.delete(done);
      if (caller !== undefined) queue.countRunning(caller, -1);
      pump();
    };
    const done: Promise<void> = slot.worker.terminate().then(gone, gone);
    terminating.add(done);
  }

  function pump(): void {
    for (const slot of slots) {
      if (!slot.ready || slot.job) continue;
      const job = takeStartable();
      if (!job) break;
      begin(slot, job);
    }
    scale();
  }

  /** The next job that may still start; one past its deadline (unless it waited out a cold start) is refused instead. */
  function takeStartable(): PoolJob | undefined {
    for (let job = queue.takeNext(); job; job = queue.takeNext()) {
      clearTimeout(job.waitTimer);
      if (job.coldStart || job.deadline > Date.now()) return job;
      job.reject(errors.busy('deadline'));
    }
    return undefined;
  }

  function begin(slot: PoolSlot, job: PoolJob): void {
    clearTimeout(slot.idleTimer);
    slot.idleTimer = undefined;
    slot.job = job;
    queue.countRunning(job.caller, 1);
    slot.worker.ref();
    startClock(slot, 'run');
    slot.port.postMessage({ id: job.id, input: job.input } satisfies JobMessage<Input>);
  }

  function startClock(slot: PoolSlot, phase: string): void {
    clearTimeout(slot.clock?.timer);
    const job = slot.job!;
    const now = Date.now();
    const limit = limitsMs ? (limitsMs[phase] ?? limitsMs.run) : Infinity;
    let answerIn = Math.min(limit, job.deadline - now);
    if (job.coldStart) answerIn = Math.max(answerIn, Math.min(limit, COLD_START_RUN_MS));
    const clock: Clock = { phase, stopAt: now + limit };
    if (answerIn !== Infinity) clock.timer = setTimeout(() => onAnswerDue(slot, clock), answerIn).unref();
    slot.clock = clock;
  }

  /** Whether the worker has moved on from `clock` (answered, or entered another phase), reading first any reply that arrived but was not yet delivered. */
  function movedOn(slot: PoolSlot, clock: Clock): boolean {
    // A busy event loop can run a timer before it delivers a reply that was already there.
    for (let reply; slot.clock === clock && (reply = receiveMessageOnPort(slot.port));) onReply(slot, reply.message as JobReply<Output>);
    return slot.clock !== clock;
  }

  /** The job's answer is due: it fails now; its thread is terminated at the phase's `stopAt` unless it answers by then. */
  function onAnswerDue(slot: PoolSlot, clock: Clock): void {
    if (movedOn(slot, clock)) return;
    const job = slot.job!;
    // Settled now: an answer arriving later frees the thread and the share, and answers nothing.
    job.reject(errors.timedOut(clock.phase, job.meta));
    const grace = clock.stopAt - Date.now();
    if (grace <= 0) stopRunaway(slot);
    else if (grace !== Infinity) clock.timer = setTimeout(() => movedOn(slot, clock) || stopRunaway(slot), grace).unref();
  }

  /** The job spent its phase's limit: its thread is terminated, and holds its caller's share until it is gone. */
  function stopRunaway(slot: PoolSlot): void {
    const job = finish(slot, true)!;
    stop(slot, job.caller);
    pump();
  }

  /** The slot's job, taken off it; `keepShare`: its caller's share stays taken (until the thread is gone). */
  function finish(slot: PoolSlot, keepShare = false): PoolJob | undefined {
    const job = slot.job;
    clearTimeout(slot.clock?.timer);
    slot.job = slot.clock = undefined;
    if (!job) return undefined;
    if (!keepShare) queue.countRunning(job.caller, -1);
    return job;
  }

  function onReply(slot: PoolSlot, reply: JobReply<Output>): void {
    if ('ready' in reply) slot.ready = warmedUp = true;
    else if (slot.job?.id !== reply.id) return;
    else if ('phase' in reply) return startClock(slot, reply.phase);
    else if (reply.ok) finish(slot)!.resolve(reply.result);
    else finish(slot)!.reject(rebuildError(reply));
    pump();
    if (!slot.job) becameIdle(slot);
  }

  function becameIdle(slot: PoolSlot): void {
    slot.worker.unref();
    clearTimeout(slot.idleTimer);
    slot.idleTimer = undefined;
    if (options.idleMs === undefined || slots.size <= warmThreads) return;
    slot.idleTimer = setTimeout(() => {
      if (slot.job || !slots.has(slot)) return;
      if (slots.size > wanted()) stop(slot);
      else becameIdle(slot);
    }, options.idleMs).unref();
  }

  function onWaitedTooLong(job: PoolJob): void {
    // Waiting for the pool's first thread is not the caller's doing: keep waiting.
    if (!warmedUp) job.waitTimer = setTimeout(() => onWaitedTooLong(job), 50).unref();
    else if (queue.remove(job)) job.reject(errors.busy('deadline'));
  }

  function onExit(slot: PoolSlot): void {
    if (!slots.delete(slot)) return; // terminated on purpose
    clearTimeout(slot.idleTimer);
    slot.port.close();
    const job = finish(slot);
    const outOfMemory = (slot.error as { code?: string } | undefined)?.code === 'ERR_WORKER_OUT_OF_MEMORY';
    job?.reject(outOfMemory ? errors.outOfMemory(job.meta) : new DevutilError('internal_error', undefined, { cause: slot.error }));
    // A thread that never became ready cannot load: refuse the waiting jobs rather than start threads in a loop.
    if (!slot.ready) refuseWaiting(new DevutilError('internal_error', `The ${options.name} worker cannot start.`, { cause: slot.error }));
    else pump();
  }

  function refuseWaiting(err: Error): void {
    for (const job of queue.takeAll()) refuse(job, err);
  }

  function refuse(job: PoolJob, err: Error): void {
    clearTimeout(job.waitTimer);
    job.reject(err);
  }

  return {
    run(input, meta, caller = '') {
      if (closed) return Promise.reject(shuttingDown());
      if (!queue.admit(caller, (evicted) => refuse(evicted, errors.busy('queue')))) return Promise.reject(errors.busy('queue'));
      return new Promise<Output>((resolve, reject) => {
        const deadline = deadlineMs === undefined ? Infinity : Date.now() + deadlineMs;
        const job: PoolJob = { id: nextId++, caller, input, meta, deadline, coldStart: !warmedUp, resolve, reject };
        if (deadlineMs !== undefined) job.waitTimer = setTimeout(() => onWaitedTooLong(job), deadlineMs).unref();
        queue.add(job);
        pump();
      });
    },
    warm: scale,
    workers: () => slots.size,
    async close() {
      closed = true;
      refuseWaiting(shuttingDown());
      const all = [...slots];
      slots.clear();
      for (const slot of all) {
        clearTimeout(slot.idleTimer);
        finish(slot)?.reject(shuttingDown());
        slot.port.close();
      }
      await Promise.all([...all.map((slot) => slot.worker.terminate()), ...terminating]);
    },
  };
}

/** A job's failure as the worker answered it: code, message and field errors; a 5xx's cause for the log. */
function rebuildError(reply: Extract<JobReply<unknown>, { ok: false }>): DevutilError {
  const cause = reply.cause && Object.assign(new Error(reply.cause.message), { stack: reply.cause.stack });
  return new DevutilError(reply.code, reply.message, { errors: reply.errors, cause });
}

/** The errors of a pool that names none: a 500 for a stopped job (the work was bounded, so it is the service's fault), a 429 when busy. */
function defaultErrors(name: string): WorkerPoolErrors<unknown> {
  return {
    timedOut: () => new DevutilError('internal_error', `A ${name} job ran too long and was stopped.`),
    outOfMemory: () => new DevutilError('internal_error', `A ${name} job needed too much memory and was stopped.`),
    busy: () => new DevutilError('rate_limited', `Too many ${name} jobs are waiting; retry shortly.`, { headers: { 'retry-after': '1' } }),
  };
}
