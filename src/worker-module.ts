import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * Start a worker thread running the module `name` next to `importMetaUrl` (the caller's
 * `import.meta.url`), with that file's own extension: `.js` from `dist`, `.ts` under tsx (tests,
 * `npm run dev`). Node 20 workers do not inherit tsx's loader hooks, so from source a tiny
 * bootstrap registers them before importing the TypeScript module.
 *
 * @example
 *   const worker = startModuleWorker(import.meta.url, 'regex-worker', { workerData: { port } });
 */
export function startModuleWorker(importMetaUrl: string, name: string, options: WorkerOptions = {}): Worker {
  options = { execArgv: inheritedExecArgv(), ...options };
  const ext = extname(fileURLToPath(importMetaUrl));
  const entry = new URL(`./${name}${ext}`, importMetaUrl);
  if (ext !== '.ts') return new Worker(entry, options);
  const tsx = JSON.stringify(import.meta.resolve('tsx/esm/api'));
  const code = `import(${tsx}).then((m) => { m.register(); return import(${JSON.stringify(entry.href)}); });`;
  return new Worker(code, { ...options, eval: true });
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
