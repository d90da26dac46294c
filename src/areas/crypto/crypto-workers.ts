import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { startModuleWorker, USER_WORK_NICENESS } from '../../worker-module.js';
import type { WORKER_TASKS, WorkerReply, WorkerRequest, WorkerTaskName } from './crypto-worker-tasks.js';


const POOL_SIZE = Math.max(1, Math.min(2, availableParallelism() - 1));

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
 * thread is scheduled promptly.
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

interface Pending {
  resolve(value: unknown): void;
  reject(err: Error): void;
}

interface PoolWorker {
  worker: Worker;
  pending: Map<number, Pending>;
}

const pool: PoolWorker[] = [];
let nextId = 1;

function startWorker(): PoolWorker {
  const worker = startModuleWorker(import.meta.url, 'crypto-worker-tasks', { niceness: USER_WORK_NICENESS });
  const entry: PoolWorker = { worker, pending: new Map() };
  worker.unref();
  worker.on('message', (reply: WorkerReply) => {
    const waiting = entry.pending.get(reply.id);
    entry.pending.delete(reply.id);
    if (entry.pending.size === 0) worker.unref();
    if (!waiting) return;
    if (reply.ok) waiting.resolve(reply.value);
    else waiting.reject(new Error(reply.message));
  });
  const fail = (err: Error) => {
    pool.splice(pool.indexOf(entry), 1);
    for (const waiting of entry.pending.values()) waiting.reject(err);
    entry.pending.clear();
  };
  worker.on('error', fail);
  worker.on('exit', (code) => {
    if (pool.includes(entry)) fail(new Error(`crypto worker exited with code ${code}`));
  });
  return entry;
}

// Least busy worker, starting another while the pool is below its size.
function pickWorker(): PoolWorker {
  const idle = pool.find((w) => w.pending.size === 0);
  if (idle) return idle;
  if (pool.length < POOL_SIZE) {
    const started = startWorker();
    pool.push(started);
    return started;
  }
  return pool.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
}

/**
 * Run a CPU-bound task from {@link WORKER_TASKS} on a small pool of worker threads, started on
 * first use.
 *
 * @example
 *   const strength = await runInWorker('password-strength', 'hunter2', []);
 */
export function runInWorker<T extends WorkerTaskName>(
  task: T,
  ...args: Parameters<(typeof WORKER_TASKS)[T]>
): Promise<ReturnType<(typeof WORKER_TASKS)[T]>> {
  return runCpuBound(() => postToWorker(task, args)) as Promise<ReturnType<(typeof WORKER_TASKS)[T]>>;
}

function postToWorker(task: WorkerTaskName, args: unknown[]): Promise<unknown> {
  const target = pickWorker();
  const id = nextId++;
  return new Promise((resolve, reject) => {
    target.pending.set(id, { resolve, reject });
    // Referenced only while it has work, so an idle pool never keeps the process alive.
    target.worker.ref();
    target.worker.postMessage({ id, task, args } satisfies WorkerRequest);
  });
}
