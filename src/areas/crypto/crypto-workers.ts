import { availableParallelism } from 'node:os';
import { createWorkerPool } from '../../workers/pool.js';
import type { WORKER_TASKS, WorkerRequest, WorkerTaskName } from './crypto-worker-tasks.js';

/**
 * How many CPU-bound crypto jobs (argon2, bcrypt, scrypt, RSA key generation, the strength
 * estimator) run at once: no more than the cores, and always leaving one libuv thread-pool
 * thread free so file-system work and DNS lookups never queue behind password hashes.
 */
// UV_THREADPOOL_SIZE is libuv's own setting (default 4), read as libuv reads it.
const THREAD_POOL_SIZE = Number.parseInt(process.env.UV_THREADPOOL_SIZE ?? '', 10) || 4;
export const CPU_SLOTS = Math.max(1, Math.min(availableParallelism(), THREAD_POOL_SIZE - 1));
let busySlots = 0;
const waiting: (() => void)[] = [];

/**
 * Run a CPU-bound asynchronous job (one that already runs off the main thread) once a slot is
 * free; excess jobs wait in order. Keeps the cores from being oversubscribed, so the event loop
 * thread is scheduled promptly. argon2 and bcrypt (@node-rs, native async tasks), scrypt and key
 * generation (node:crypto) already run on the libuv thread pool, so they take a slot here and no
 * worker thread.
 *
 * @example
 *   const hashed = await runCpuBound(() => argon2.hash(password));
 */
export async function runCpuBound<T>(job: () => Promise<T>): Promise<T> {
  if (busySlots >= CPU_SLOTS) await new Promise<void>((resolve) => waiting.push(resolve));
  else busySlots++;
  try {
    return await job();
  } finally {
    // Hand the slot straight to the next waiter, or free it.
    const next = waiting.shift();
    if (next) next();
    else busySlots--;
  }
}

/** Threads of the task pool: at most two, and one core left to the event loop. */
const POOL_SIZE = Math.max(1, Math.min(2, availableParallelism() - 1));

/** Tasks of {@link WORKER_TASKS} run on worker threads; one per app, closed with it (the crypto routes' onClose). */
export interface CryptoWorkers {
  /** Run `task` on a worker thread (threads start on first use) once {@link runCpuBound} gives it a slot. */
  run<T extends WorkerTaskName>(task: T, ...args: Parameters<(typeof WORKER_TASKS)[T]>): Promise<ReturnType<(typeof WORKER_TASKS)[T]>>;
  /** Stop the threads; a task still queued or running fails (the service is shutting down). */
  close(): Promise<void>;
}

/**
 * The crypto worker pool (src/workers/pool.ts) of one app. The slots of {@link runCpuBound} stay
 * per process, as the libuv thread pool they guard is.
 *
 * @example
 *   const workers = createCryptoWorkers();
 *   const strength = await workers.run('password-strength', 'hunter2', []);
 *   await workers.close();
 */
export function createCryptoWorkers(): CryptoWorkers {
  const pool = createWorkerPool<WorkerRequest, unknown>({
    name: 'crypto',
    worker: { from: import.meta.url, module: 'crypto-worker-tasks' },
    maxThreads: POOL_SIZE,
    // runCpuBound lets at most CPU_SLOTS jobs in at once.
    maxQueue: CPU_SLOTS,
    // No time limit: every task is bounded by its input (the estimator reads 128 characters), and
    // stopping one on a slow machine would only turn its answer into a 500.
  });
  function run<T extends WorkerTaskName>(task: T, ...args: Parameters<(typeof WORKER_TASKS)[T]>) {
    return runCpuBound(() => pool.run({ task, args })) as Promise<ReturnType<(typeof WORKER_TASKS)[T]>>;
  }
  return { run, close: () => pool.close() };
}
