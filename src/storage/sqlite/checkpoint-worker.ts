/**
 * Worker-thread entry of the checkpointer (checkpointer.ts): its own connection to the database
 * copies committed WAL pages into the database file every `intervalMs`. A PASSIVE checkpoint
 * never waits for the writer and never blocks it.
 */
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';

export interface CheckpointWorkerData {
  filename: string;
  intervalMs: number;
}

const { filename, intervalMs } = workerData as CheckpointWorkerData;
const db = new Database(filename, { fileMustExist: true });
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
const timer = setInterval(() => {
  try {
    checkpoint.run();
  } catch {
    // The disk refused, or the file went away: the next tick tries again, and the writer's own
    // automatic checkpoint still bounds the WAL.
  }
}, intervalMs);

parentPort!.on('message', (message: unknown) => {
  if (message !== 'close') return;
  clearInterval(timer);
  db.close();
  parentPort!.close();
});
