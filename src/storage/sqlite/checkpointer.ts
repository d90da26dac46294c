import { once } from 'node:events';
import { startModuleWorker } from '../../workers/start-worker.js';
import type { CheckpointWorkerData } from './checkpoint-worker.js';

/** How often the worker copies committed pages into the database file. */
export const CHECKPOINT_INTERVAL_MS = 50;

export interface Checkpointer {
  /** Stop the worker and close its connection; call it before the store's own connection closes. */
  close(): Promise<void>;
}

/**
 * Checkpoint the WAL from a worker thread. A checkpoint copies the pages commits wrote into the
 * WAL to the database file and fsyncs both files. Left to SQLite alone it runs inside a commit,
 * on the event loop, whenever the WAL passes `wal_autocheckpoint` pages. With the worker's PASSIVE
 * checkpoint every {@link CHECKPOINT_INTERVAL_MS}, the event loop's automatic checkpoint (kept as
 * the bound on the WAL's size, and what lets the next commit start the WAL file over) finds only
 * the last few milliseconds of pages left to copy.
 *
 * @example
 *   const checkpointer = startCheckpointer('./data/devutil.db');
 *   await checkpointer.close();
 */
export function startCheckpointer(filename: string, intervalMs = CHECKPOINT_INTERVAL_MS): Checkpointer {
  const worker = startModuleWorker(import.meta.url, 'checkpoint-worker', {
    workerData: { filename, intervalMs } satisfies CheckpointWorkerData,
  });
  // It never keeps the process alive.
  worker.unref();
  let exited = false;
  worker.once('exit', () => (exited = true));
  // A worker that fails leaves checkpoints to SQLite's automatic one, as without it.
  worker.on('error', () => undefined);
  return {
    async close() {
      if (exited) return;
      const done = once(worker, 'exit');
      // Referenced while it closes, so a process with nothing else to do waits for it.
      worker.ref();
      worker.postMessage('close');
      await done;
    },
  };
}
