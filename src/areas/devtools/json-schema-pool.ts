import type { Worker } from 'node:worker_threads';
import { DevutilError, type ErrorCode, type FieldError } from '../../errors.js';
import { startModuleWorker } from '../../worker-module.js';
import type { SchemaValidationInput, SchemaValidationResult } from './json-schema.js';
import type { SchemaJobMessage } from './json-schema-worker.js';

export interface SchemaPoolOptions {
  /** Workers kept (started on first use). */
  size: number;
  /** Longest the evaluation of one validation may run on a worker before the worker is terminated. */
  timeoutMs: number;
  /** Longest compiling its schema may take (bounded by the schema limits; generous for cold caches). */
  compileTimeoutMs: number;
  /** Jobs waiting beyond this are refused with 429. */
  maxQueue: number;
}

/** Runs validations that could take long off the event loop. */
export interface SchemaPool {
  /** Validate on a worker; past the timeout, fail with `timeoutCode` (422). */
  run(input: SchemaValidationInput, timeoutCode: 'regex_timeout' | 'validation_error'): Promise<SchemaValidationResult>;
  close(): Promise<void>;
}

type Reply =
  | { ready: true }
  | { id: number; compiled: true }
  | { id: number; ok: true; result: SchemaValidationResult }
  | { id: number; ok: false; code: ErrorCode; message: string; errors?: FieldError[] };

interface Job {
  message: SchemaJobMessage;
  timeoutCode: 'regex_timeout' | 'validation_error';
  resolve(result: SchemaValidationResult): void;
  reject(err: Error): void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  job?: Job;
  timer?: NodeJS.Timeout;
}

const RESOURCE_LIMITS = { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 32 };

function spawnWorker(): Worker {
  return startModuleWorker(import.meta.url, 'json-schema-worker', { resourceLimits: RESOURCE_LIMITS });
}

/**
 * A small pool of worker threads for JSON Schema validations that run user regexes (`pattern`,
 * `patternProperties`) or large inputs. An evaluation running past `timeoutMs` (a compile past
 * `compileTimeoutMs`) has its worker
 * terminated and replaced and fails with 422 (`regex_timeout` or `validation_error`, as the
 * caller says); the event loop is never blocked.
 *
 * @example
 *   const pool = createSchemaPool({ size: 2, timeoutMs: 1000, compileTimeoutMs: 10000, maxQueue: 64 });
 *   await pool.run({ data: 'abc', schema: { pattern: '^a' } }, 'regex_timeout'); // → { valid: true, errors: [] }
 */
export function createSchemaPool(options: SchemaPoolOptions): SchemaPool {
  const slots = new Set<Slot>();
  const queue: Job[] = [];
  let nextId = 1;
  let closed = false;

  function spawn(): void {
    const slot: Slot = { worker: spawnWorker(), ready: false };
    slot.worker.unref();
    slot.worker.on('message', (reply: Reply) => onReply(slot, reply));
    slot.worker.on('error', () => undefined); // followed by 'exit', handled there
    slot.worker.on('exit', () => onExit(slot));
    slots.add(slot);
  }

  function finish(slot: Slot): Job | undefined {
    const job = slot.job;
    clearTimeout(slot.timer);
    slot.job = undefined;
    return job;
  }

  function pump(): void {
    while (!closed && slots.size < options.size) spawn();
    for (const slot of slots) {
      if (queue.length === 0) return;
      if (!slot.ready || slot.job) continue;
      slot.job = queue.shift()!;
      slot.timer = setTimeout(() => onTimeout(slot, 'compile'), options.compileTimeoutMs).unref();
      slot.worker.postMessage(slot.job.message);
    }
  }

  function onReply(slot: Slot, reply: Reply): void {
    if ('ready' in reply) slot.ready = true;
    else if ('compiled' in reply) {
      // the clock that guards against slow regexes covers the evaluation only
      clearTimeout(slot.timer);
      slot.timer = setTimeout(() => onTimeout(slot, 'evaluate'), options.timeoutMs).unref();
      return;
    } else if (reply.ok) finish(slot)?.resolve(reply.result);
    else finish(slot)?.reject(new DevutilError(reply.code, reply.message, { errors: reply.errors }));
    pump();
  }

  function onTimeout(slot: Slot, phase: 'compile' | 'evaluate'): void {
    const job = finish(slot);
    slots.delete(slot);
    void slot.worker.terminate();
    if (phase === 'compile') {
      job?.reject(new DevutilError('validation_error', `Compiling the schema took longer than ${options.compileTimeoutMs} ms and was stopped.`, {
        errors: [{ path: 'schema', message: 'takes too long to compile' }],
      }));
    } else if (job?.timeoutCode === 'regex_timeout') {
      job.reject(new DevutilError('regex_timeout', `Validation ran longer than ${options.timeoutMs} ms (a pattern in the schema backtracks too much on this data) and was stopped.`));
    } else {
      job?.reject(new DevutilError('validation_error', `Validation ran longer than ${options.timeoutMs} ms and was stopped.`, {
        errors: [{ path: 'schema', message: `takes longer than ${options.timeoutMs} ms to validate this data` }],
      }));
    }
    pump();
  }

  function onExit(slot: Slot): void {
    if (!slots.delete(slot)) return; // terminated on purpose
    finish(slot)?.reject(new DevutilError('validation_error', 'Validation needed too much memory and was stopped.', {
      errors: [{ path: 'schema', message: 'needs too much memory on this data' }],
    }));
    if (slot.ready) pump(); // a worker that never became ready cannot load: do not respawn in a loop
    else for (const job of queue.splice(0)) job.reject(new DevutilError('internal_error', 'The schema worker cannot start.'));
  }

  return {
    run(input, timeoutCode) {
      if (closed) return Promise.reject(new DevutilError('internal_error', 'The schema pool is closed.'));
      if (queue.length >= options.maxQueue) {
        return Promise.reject(new DevutilError('rate_limited', 'Too many pattern validations are waiting; retry shortly.', { headers: { 'retry-after': '1' } }));
      }
      return new Promise((resolve, reject) => {
        queue.push({ message: { id: nextId++, input }, timeoutCode, resolve, reject });
        pump();
      });
    },
    async close() {
      closed = true;
      for (const job of queue.splice(0)) job.reject(new DevutilError('internal_error', 'The service is shutting down.'));
      const all = [...slots];
      slots.clear();
      for (const slot of all) finish(slot)?.reject(new DevutilError('internal_error', 'The service is shutting down.'));
      await Promise.all(all.map((slot) => slot.worker.terminate()));
    },
  };
}
