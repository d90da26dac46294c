import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/** The nice value of threads that run callers' work (patterns, schemas, hashes): behind the event loop's 0, ahead of idle's 19. */
export const USER_WORK_NICENESS = 10;

export interface ModuleWorkerOptions extends WorkerOptions {
  /**
   * Linux only: the thread takes this nice value before it loads a single module, so neither its
   * start (which under tsx compiles TypeScript for hundreds of milliseconds) nor its work can take
   * the cores from the event loop. Each Linux thread has its own nice value, which threads it
   * starts (tsx's module hooks) inherit; elsewhere setpriority would renice the whole process, so
   * the option is ignored.
   */
  niceness?: number;
}

/**
 * Start a worker thread running the module `name` next to `importMetaUrl` (the caller's
 * `import.meta.url`), with that file's own extension: `.js` from `dist`, `.ts` under tsx (tests,
 * `npm run dev`). Node 20 workers do not inherit tsx's loader hooks, so from source a tiny
 * bootstrap registers them before importing the TypeScript module. Job workers are started by
 * `createWorkerPool` (src/workers/pool.ts); this is for a thread of another kind.
 *
 * @example
 *   const worker = startModuleWorker(import.meta.url, 'checkpoint-worker', { workerData: { filename, intervalMs } });
 */
export function startModuleWorker(importMetaUrl: string, name: string, { niceness, ...options }: ModuleWorkerOptions = {}): Worker {
  options = { execArgv: inheritedExecArgv(), ...options };
  const ext = extname(fileURLToPath(importMetaUrl));
  const entry = new URL(`./${name}${ext}`, importMetaUrl);
  const renice = niceness !== undefined && process.platform === 'linux' ? reniceStatement(niceness) : '';
  if (ext !== '.ts' && !renice) return new Worker(entry, options);
  const load =
    ext === '.ts'
      ? `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((m) => { m.register(); return import(${JSON.stringify(entry.href)}); });`
      : `import(${JSON.stringify(entry.href)});`;
  return new Worker(renice + load, { ...options, eval: true });
}

/** A statement giving the thread that runs it the nice value `niceness` (/proc/thread-self names the thread); on failure it keeps its own. */
function reniceStatement(niceness: number): string {
  if (!Number.isInteger(niceness) || niceness < -20 || niceness > 19)
    throw new RangeError(`niceness ${niceness} is not an integer in -20..19`);
  return `try { require('node:os').setPriority(Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop()), ${niceness}); } catch {}\n`;
}

/**
 * The node options a worker starts with: left to Node (undefined), which hands the worker the
 * parent's options, V8 flags such as `--max-old-space-size` included; an explicit list holding a
 * V8 flag makes `new Worker` throw ERR_WORKER_INVALID_EXEC_ARGV. Only under `node --input-type=…
 * -e`, whose `--input-type` a file entry point refuses, is the list given, without it.
 */
function inheritedExecArgv(): string[] | undefined {
  if (!process.execArgv.some((arg) => arg.startsWith('--input-type'))) return undefined;
  return process.execArgv.filter((arg) => !arg.startsWith('--input-type'));
}
