/**
 * Worker-thread entry of the regex pool: runs one {@link extractMatches} job per message, so a
 * catastrophic pattern only ever blocks this thread. The pool answers a job that runs past its
 * time limit and terminates this thread (V8 interrupts the pattern), starting another in its place.
 * The thread itself keeps no timer: a `node:vm` timeout starts a watchdog thread on every call,
 * which cost more than the matching of a typical request (about 150 µs of CPU for each).
 */
import { workerData, type MessagePort } from 'node:worker_threads';
import { extractMatches, type ExtractLimits, type ExtractResult } from './regex-extract.js';
import type { CompiledPattern } from './regex-syntax.js';

/** What the pool sends. */
export interface RegexJobMessage {
  id: number;
  pattern: CompiledPattern;
  text: string;
  limits: ExtractLimits;
}

/** What the worker answers: `ready` once, then one reply per job. */
export type RegexWorkerReply =
  | { ready: true }
  | { id: number; ok: true; result: ExtractResult }
  | { id: number; ok: false; message: string };

/** `extractMatches` on `job`; a pattern or text it cannot run on is a message for a 422. */
function runJob(job: RegexJobMessage): RegexWorkerReply {
  try {
    return { id: job.id, ok: true, result: extractMatches(job.pattern, job.text, job.limits) };
  } catch (err) {
    return { id: job.id, ok: false, message: (err as Error).message };
  }
}

// The pool hands each worker its own channel (so it can read a late reply synchronously).
const port = (workerData as { port?: MessagePort } | null)?.port;
if (port) {
  port.on('message', (job: RegexJobMessage) => port.postMessage(runJob(job)));
  port.postMessage({ ready: true } satisfies RegexWorkerReply);
}
