import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { DevutilError, invalidField } from '../../errors.js';
import { startModuleWorker } from '../../worker-module.js';
import type { ExtractLimits, ExtractResult } from './regex-extract.js';
import type { CompiledPattern } from './regex-syntax.js';
import type { RegexJobMessage } from './regex-worker.js';

export interface RegexPoolOptions {
  /** Workers kept warm. */
  size: number;
  /** Longest a job may run on a worker before the worker is terminated. */
  timeoutMs: number;
  /** Longest a job may take from submission to answer, waiting for a worker included. */
  deadlineMs: number;
  /** Jobs waiting for a worker beyond this are refused with 429. */
  maxQueue: number;
}

/** Runs regex jobs off the event loop. */
export interface RegexPool {
  run(pattern: CompiledPattern, text: string, limits: ExtractLimits): Promise<ExtractResult>;
  /** Start the workers now rather than on the first job. */
  warm(): void;
  /** Terminate every worker; later jobs are refused. */
  close(): Promise<void>;
}

interface Job {
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
  timer?: NodeJS.Timeout;
  error?: Error;
}

type WorkerReply = { ready: true } | { id: number; ok: true; result: ExtractResult } | { id: number; ok: false; message: string };

// The worker sits next to this file with the same extension: `.ts` under tsx, `.js` in dist.
const RESOURCE_LIMITS = { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 32 };

function spawnWorker(): { worker: Worker; port: MessagePort } {
  const { port1, port2 } = new MessageChannel();
  const worker = startModuleWorker(import.meta.url, 'regex-worker', { resourceLimits: RESOURCE_LIMITS, workerData: { port: port2 }, transferList: [port2] });
  return { worker, port: port1 };
}

/**
 * A small pool of worker threads for user regexes. A job running past `timeoutMs` has its
 * worker terminated and replaced, and fails with 422 `regex_timeout`, as does a job that could
 * not finish within `deadlineMs` of its submission because workers were busy with other jobs
 * (waiting for the pool's very first start does not count). The event loop is never blocked.
 * Workers are unref'd so they never keep the process alive.
 *
 * @example
 *   const pool = createRegexPool({ size: 2, timeoutMs: 500, deadlineMs: 900, maxQueue: 64 });
 *   const { matches } = await pool.run(compilePattern('a+', ''), 'caaat', { maxMatches: 10, maxOutputChars: 1e6 });
 *   await pool.close();
 */
export function createRegexPool(options: RegexPoolOptions): RegexPool {
  const slots = new Set<Slot>();
  const queue: Job[] = [];
  let nextId = 1;
  let closed = false;
  let warmedUp = false;

  function spawn(): void {
    const slot: Slot = { ...spawnWorker(), ready: false };
    slot.worker.unref();
    slot.port.unref();
    slot.port.on('message', (reply: WorkerReply) => onReply(slot, reply));
    slot.worker.on('error', (err) => {
      slot.error = err;
    });
    slot.worker.on('exit', () => onExit(slot));
    slots.add(slot);
  }

  function fill(): void {
    while (!closed && slots.size < options.size) spawn();
  }

  const contended = () => new DevutilError('regex_timeout', `No regex worker became free within ${options.deadlineMs} ms: other patterns are using them. Retry shortly.`);

  function pump(): void {
    for (const slot of slots) {
      if (queue.length === 0) return;
      if (!slot.ready || slot.job) continue;
      const job = queue.shift() as Job;
      clearTimeout(job.waitTimer);
      // A job that waited out a cold start gets at least a short run past its deadline; any other
      // never runs past it, so an answer comes within the deadline however the pool is contended.
      const left = Math.min(options.timeoutMs, job.deadline - Date.now());
      if (left <= 0 && !job.coldStart) {
        job.reject(contended());
        continue;
      }
      slot.job = job;
      const runFor = job.coldStart ? Math.max(left, 100) : left;
      slot.timer = setTimeout(() => onTimeout(slot), runFor).unref();
      slot.port.postMessage(job.message);
    }
  }

  function finish(slot: Slot): Job | undefined {
    const job = slot.job;
    clearTimeout(slot.timer);
    slot.job = undefined;
    return job;
  }

  function onReply(slot: Slot, reply: WorkerReply): void {
    if ('ready' in reply) slot.ready = warmedUp = true;
    else if (reply.ok) finish(slot)?.resolve(reply.result);
    else finish(slot)?.reject(invalidField('pattern', reply.message));
    pump();
  }

  function onTimeout(slot: Slot): void {
    // A busy event loop can run this timer before delivering a reply that is already waiting.
    const waiting = receiveMessageOnPort(slot.port);
    if (waiting) return onReply(slot, waiting.message as WorkerReply);
    const job = finish(slot);
    slots.delete(slot);
    fill(); // start the replacement before the old thread is torn down
    slot.port.close();
    void slot.worker.terminate();
    job?.reject(new DevutilError('regex_timeout', `The regular expression ran too long (limit ${options.timeoutMs} ms, ${options.deadlineMs} ms per request) and was stopped.`));
    pump();
  }

  function onWaitedTooLong(job: Job): void {
    const index = queue.indexOf(job);
    if (index < 0) return;
    // Waiting for the pool's first start is not the caller's doing: keep waiting. Later, workers
    // are only missing because other patterns had theirs stopped, which counts as contention.
    if (!warmedUp) {
      job.waitTimer = setTimeout(() => onWaitedTooLong(job), 50).unref();
      return;
    }
    queue.splice(index, 1);
    job.reject(contended());
  }

  function onExit(slot: Slot): void {
    if (!slots.delete(slot)) return; // terminated on purpose
    const job = finish(slot);
    const outOfMemory = (slot.error as { code?: string } | undefined)?.code === 'ERR_WORKER_OUT_OF_MEMORY';
    if (outOfMemory) job?.reject(invalidField('pattern', 'needed too much memory on this text'));
    else job?.reject(new DevutilError('internal_error', undefined, { cause: slot.error }));
    // A worker that never became ready cannot load: fail waiting jobs instead of respawning forever.
    if (!slot.ready) {
      for (const waiting of queue.splice(0)) {
        clearTimeout(waiting.waitTimer);
        waiting.reject(new DevutilError('internal_error', undefined, { cause: slot.error }));
      }
      return;
    }
    fill();
    pump();
  }

  return {
    run(pattern, text, limits) {
      if (closed) return Promise.reject(new DevutilError('internal_error', 'The regex pool is closed.'));
      if (queue.length >= options.maxQueue) {
        return Promise.reject(new DevutilError('rate_limited', 'Too many regular expressions are waiting to run; retry shortly.', { headers: { 'retry-after': '1' } }));
      }
      fill();
      return new Promise<ExtractResult>((resolve, reject) => {
        const job: Job = { message: { id: nextId++, pattern, text, limits }, deadline: Date.now() + options.deadlineMs, coldStart: !warmedUp, resolve, reject, waitTimer: undefined as never };
        job.waitTimer = setTimeout(() => onWaitedTooLong(job), options.deadlineMs).unref();
        queue.push(job);
        pump();
      });
    },
    warm: fill,
    async close() {
      closed = true;
      for (const job of queue.splice(0)) {
        clearTimeout(job.waitTimer);
        job.reject(new DevutilError('internal_error', 'The service is shutting down.'));
      }
      const all = [...slots];
      slots.clear();
      for (const slot of all) finish(slot)?.reject(new DevutilError('internal_error', 'The service is shutting down.'));
      for (const slot of all) slot.port.close();
      await Promise.all(all.map((slot) => slot.worker.terminate()));
    },
  };
}
