import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { DevutilError, invalidField } from '../../errors.js';
import { startModuleWorker, USER_WORK_NICENESS } from '../../worker-module.js';
import type { ExtractLimits, ExtractResult } from './regex-extract.js';
import type { CompiledPattern } from './regex-syntax.js';
import type { RegexJobMessage, RegexWorkerReply } from './regex-worker.js';

export interface RegexPoolOptions {
  /** Workers kept started even when idle; more than `perOwner`, so one owner's burst leaves one ready for the next. */
  size: number;
  /** Most threads alive at once, those still being stopped included. */
  maxThreads: number;
  /** Most jobs of one owner running at once; the rest of its jobs wait. */
  perOwner: number;
  /** Longest a job may run on a worker before it is stopped. */
  timeoutMs: number;
  /** Longest a job may take from submission to answer, waiting for a worker included. */
  deadlineMs: number;
  /** Jobs waiting for a worker beyond this, in all, are refused with 429. */
  maxQueue: number;
  /** Jobs of one owner waiting beyond this are refused with 429. */
  maxQueuePerOwner: number;
  /** A worker beyond `size` idle this long is stopped. */
  idleMs: number;
}

/** Runs regex jobs off the event loop. */
export interface RegexPool {
  /** `owner` (a key id, a client address) is whose job it is: owners share the threads fairly. */
  run(pattern: CompiledPattern, text: string, limits: ExtractLimits, owner: string): Promise<ExtractResult>;
  /** Start the warm workers now rather than on the first job. */
  warm(): void;
  /** Terminate every worker; later jobs are refused. */
  close(): Promise<void>;
}

interface Job {
  owner: string;
  message: RegexJobMessage;
  deadline: number;
  /** Queued before the pool's first worker was ready: its wait was a cold start, not contention. */
  coldStart: boolean;
  /** Fires when the job is still waiting for a worker at its deadline. */
  waitTimer: NodeJS.Timeout;
  resolve(result: ExtractResult): void;
  reject(err: Error): void;
}

interface Slot {
  worker: Worker;
  /** Jobs go out and replies come back on this channel, so a reply can be read synchronously. */
  port: MessagePort;
  ready: boolean;
  job?: Job;
  /** Fires when the job must be answered, then (if it was answered before its own `timeoutMs` ran out) when its thread is terminated. */
  timer?: NodeJS.Timeout;
  idleTimer?: NodeJS.Timeout;
  error?: Error;
}

// A worker holds a text of 1 MiB at most and a result bounded by REGEX_LIMITS (8 Mi characters,
// 200000 values): 128 MiB is room enough, and up to 16 threads stay within about 2.3 GB however they are used.
const RESOURCE_LIMITS = { maxOldGenerationSizeMb: 128, maxYoungGenerationSizeMb: 16 };

function spawnWorker(): { worker: Worker; port: MessagePort } {
  const { port1, port2 } = new MessageChannel();
  // The worker sits next to this file with the same extension: `.ts` under tsx, `.js` in dist.
  const worker = startModuleWorker(import.meta.url, 'regex-worker', { resourceLimits: RESOURCE_LIMITS, workerData: { port: port2 }, transferList: [port2], niceness: USER_WORK_NICENESS });
  return { worker, port: port1 };
}

/**
 * An elastic pool of worker threads for user regexes, shared fairly between owners. It keeps
 * `size` workers warm and, while jobs are running, `perOwner` more idle ones started, up to
 * `maxThreads`; extra workers idle for `idleMs` are stopped. An owner runs at most `perOwner`
 * jobs at once, and a free worker goes to the waiting owner with the fewest running, so one
 * owner's catastrophic patterns cannot hold every thread.
 *
 * A job running past `timeoutMs`, or past `deadlineMs` from its submission, fails at once with
 * 422 `regex_timeout`. Its thread is terminated (V8 interrupts the pattern) and replaced once the
 * job has run `timeoutMs`: a job answered earlier because it started late (at its deadline) keeps
 * its thread if it finishes within that. A thread counts against its owner's share and
 * `maxThreads` until its job is done or the thread is gone. (Workers keep no timer of their own:
 * a `node:vm` timeout starts a watchdog thread per call, which cost more CPU than a typical job.)
 * A job that could not start before
 * its deadline (waiting for the pool's very first start does not count) never ran: it fails with
 * 429 `rate_limited` and `Retry-After: 1`, as do jobs beyond `maxQueuePerOwner`, and beyond `maxQueue`
 * unless the caller has fewer waiting than the caller with the most (whose newest job then gives way).
 * The event loop is never blocked. Workers are unref'd so they never keep the process alive.
 *
 * @example
 *   const pool = createRegexPool({ size: 4, maxThreads: 8, perOwner: 3, timeoutMs: 500, deadlineMs: 800, maxQueue: 64, maxQueuePerOwner: 16, idleMs: 10_000 });
 *   const { matches } = await pool.run(compilePattern('a+', ''), 'caaat', { maxMatches: 10, maxOutputChars: 1e6, maxOutputValues: 1e6 }, 'key_1');
 *   await pool.close();
 */
export function createRegexPool(options: RegexPoolOptions): RegexPool {
  const slots = new Set<Slot>();
  /** Waiting jobs per owner, oldest first. */
  const waiting = new Map<string, Job[]>();
  const running = new Map<string, number>();
  let waitingCount = 0;
  /** Threads terminated but not yet gone: they count against `maxThreads`, and close() waits for them. */
  let dying = 0;
  const terminating = new Set<Promise<void>>();
  let nextId = 1;
  let closed = false;
  let warmedUp = false;

  const runningOf = (owner: string) => running.get(owner) ?? 0;
  const busy = () => new DevutilError('rate_limited', `No regex worker was free for this request within ${options.deadlineMs} ms (at most ${options.maxThreads} patterns run at once, ${options.perOwner} per caller), so it did not run. Retry shortly.`, { headers: { 'retry-after': '1' } });

  function spawn(): void {
    const slot: Slot = { ...spawnWorker(), ready: false };
    slot.worker.unref();
    slot.port.unref();
    slot.port.on('message', (reply: RegexWorkerReply) => onReply(slot, reply));
    slot.worker.on('error', (err) => {
      slot.error = err;
    });
    slot.worker.on('exit', () => onExit(slot));
    slots.add(slot);
  }

  /** Threads wanted now: the warm ones, or every busy one plus one per job that may start and `perOwner` spare. */
  function wanted(): number {
    let demand = options.perOwner;
    for (const slot of slots) if (slot.job) demand++;
    for (const [owner, jobs] of waiting) demand += Math.min(jobs.length, Math.max(0, options.perOwner - runningOf(owner)));
    return Math.max(options.size, demand);
  }

  function scale(): void {
    const target = wanted();
    while (!closed && slots.size < target && slots.size + dying < options.maxThreads) spawn();
  }

  /** Stop a slot's thread; it counts against the cap, and against `owner`'s share if given, until it is gone. */
  function stop(slot: Slot, owner?: string): void {
    slots.delete(slot);
    clearTimeout(slot.idleTimer);
    slot.port.close();
    dying++;
    const gone = () => {
      dying--;
      terminating.delete(done);
      if (owner !== undefined) release(owner);
      scale();
      pump();
    };
    const done: Promise<void> = slot.worker.terminate().then(gone, gone);
    terminating.add(done);
  }

  /** The next job to start: the oldest of the waiting owner with the fewest running, under its share. */
  function takeNext(): Job | undefined {
    let best: Job | undefined;
    let bestRunning = Infinity;
    for (const [owner, [oldest]] of waiting) {
      const count = runningOf(owner);
      if (count >= options.perOwner || count > bestRunning) continue;
      if (count < bestRunning || oldest!.message.id < best!.message.id) {
        best = oldest;
        bestRunning = count;
      }
    }
    return best && dequeue(best);
  }

  const queueFull = () => new DevutilError('rate_limited', 'Too many regular expressions are waiting to run; retry shortly.', { headers: { 'retry-after': '1' } });

  function dequeue(job: Job): Job | undefined {
    const jobs = waiting.get(job.owner);
    const index = jobs?.indexOf(job) ?? -1;
    if (index < 0) return undefined;
    jobs!.splice(index, 1);
    if (jobs!.length === 0) waiting.delete(job.owner);
    waitingCount--;
    clearTimeout(job.waitTimer);
    return job;
  }

  function pump(): void {
    for (const slot of slots) {
      if (!slot.ready || slot.job) continue;
      let job = takeNext();
      // A job that waited out a cold start gets at least a short run past its deadline; any other
      // never runs past it, so an answer comes within the deadline however the pool is contended.
      while (job && !job.coldStart && job.deadline - Date.now() <= 0) {
        job.reject(busy());
        job = takeNext();
      }
      if (!job) break;
      clearTimeout(slot.idleTimer);
      slot.job = job;
      running.set(job.owner, runningOf(job.owner) + 1);
      const now = Date.now();
      const left = Math.min(options.timeoutMs, job.deadline - now);
      const stopAt = now + options.timeoutMs;
      slot.timer = setTimeout(() => onTimeLimit(slot, stopAt), job.coldStart ? Math.max(left, 100) : left).unref();
      slot.port.postMessage(job.message);
    }
    scale();
  }

  function becameIdle(slot: Slot): void {
    clearTimeout(slot.idleTimer);
    if (slots.size <= options.size) return;
    slot.idleTimer = setTimeout(() => {
      if (slot.job || !slots.has(slot)) return;
      if (slots.size > wanted()) stop(slot);
      else becameIdle(slot);
    }, options.idleMs).unref();
  }

  function release(owner: string): void {
    const left = runningOf(owner) - 1;
    if (left > 0) running.set(owner, left);
    else running.delete(owner);
  }

  /** The slot's job, taken off it; `keepShare`: its owner's share stays taken (until the thread is gone). */
  function finish(slot: Slot, keepShare = false): Job | undefined {
    const job = slot.job;
    clearTimeout(slot.timer);
    slot.job = undefined;
    if (job && !keepShare) release(job.owner);
    return job;
  }

  const tooLong = () => new DevutilError('regex_timeout', `The regular expression ran too long (limit ${options.timeoutMs} ms, ${options.deadlineMs} ms per request) and was stopped.`);

  function onReply(slot: Slot, reply: RegexWorkerReply): void {
    if ('ready' in reply) slot.ready = warmedUp = true;
    else if (reply.ok) finish(slot)?.resolve(reply.result);
    else finish(slot)?.reject(invalidField('pattern', reply.message));
    pump();
    if (!slot.job) becameIdle(slot);
  }

  /** Whether a reply had already arrived (a busy event loop can run a timer before delivering it): it is handled. */
  function replied(slot: Slot): boolean {
    const waitingReply = receiveMessageOnPort(slot.port);
    if (waitingReply) onReply(slot, waitingReply.message as RegexWorkerReply);
    return waitingReply !== undefined;
  }

  /** The job's answer is due: 422 now; its thread is stopped at `stopAt` (its own time limit) unless it replies by then. */
  function onTimeLimit(slot: Slot, stopAt: number): void {
    if (replied(slot)) return;
    // Settled now: a reply arriving later releases the thread and the share, and answers nothing.
    slot.job?.reject(tooLong());
    const grace = stopAt - Date.now();
    if (grace > 0) slot.timer = setTimeout(() => stopRunaway(slot), grace).unref();
    else stopRunaway(slot);
  }

  /** The job ran its whole time limit: its thread is terminated, and holds its owner's share until it is gone. */
  function stopRunaway(slot: Slot): void {
    if (replied(slot)) return;
    const job = finish(slot, true);
    stop(slot, job?.owner);
    pump();
  }

  function onWaitedTooLong(job: Job): void {
    // Waiting for the pool's first start is not the caller's doing: keep waiting.
    if (!warmedUp) {
      job.waitTimer = setTimeout(() => onWaitedTooLong(job), 50).unref();
      return;
    }
    dequeue(job)?.reject(busy());
  }

  function onExit(slot: Slot): void {
    if (!slots.delete(slot)) return; // stopped on purpose
    clearTimeout(slot.idleTimer);
    const job = finish(slot);
    const outOfMemory = (slot.error as { code?: string } | undefined)?.code === 'ERR_WORKER_OUT_OF_MEMORY';
    if (outOfMemory) job?.reject(invalidField('pattern', 'needed too much memory on this text'));
    else job?.reject(new DevutilError('internal_error', undefined, { cause: slot.error }));
    // A worker that never became ready cannot load: fail waiting jobs instead of respawning forever.
    if (!slot.ready) return rejectWaiting(new DevutilError('internal_error', undefined, { cause: slot.error }));
    pump();
  }

  function rejectWaiting(err: Error): void {
    for (const jobs of [...waiting.values()]) for (const job of [...jobs]) dequeue(job)?.reject(err);
  }

  return {
    run(pattern, text, limits, owner) {
      if (closed) return Promise.reject(new DevutilError('internal_error', 'The regex pool is closed.'));
      const queued = waiting.get(owner)?.length ?? 0;
      if (queued >= options.maxQueuePerOwner) return Promise.reject(queueFull());
      if (waitingCount >= options.maxQueue) {
        // Full: a caller with fewer waiting takes the place of the newest job of the caller with the most,
        // so a few callers filling the queue cannot shut the others out.
        let longest: Job[] | undefined;
        for (const jobs of waiting.values()) if (!longest || jobs.length > longest.length) longest = jobs;
        if (!longest || longest.length <= queued + 1) return Promise.reject(queueFull());
        dequeue(longest[longest.length - 1]!)?.reject(queueFull());
      }
      return new Promise<ExtractResult>((resolve, reject) => {
        const job: Job = { owner, message: { id: nextId++, pattern, text, limits }, deadline: Date.now() + options.deadlineMs, coldStart: !warmedUp, resolve, reject, waitTimer: undefined as never };
        job.waitTimer = setTimeout(() => onWaitedTooLong(job), options.deadlineMs).unref();
        const jobs = waiting.get(owner);
        if (jobs) jobs.push(job);
        else waiting.set(owner, [job]);
        waitingCount++;
        pump();
      });
    },
    warm: scale,
    async close() {
      closed = true;
      rejectWaiting(new DevutilError('internal_error', 'The service is shutting down.'));
      const all = [...slots];
      slots.clear();
      for (const slot of all) {
        clearTimeout(slot.idleTimer);
        finish(slot)?.reject(new DevutilError('internal_error', 'The service is shutting down.'));
        slot.port.close();
      }
      await Promise.all([...all.map((slot) => slot.worker.terminate()), ...terminating]);
    },
  };
}
