/**
 * Worker-thread entry of the regex pool: runs one {@link extractMatches} job per message, so a
 * catastrophic pattern only ever blocks this thread. Each job runs under a `node:vm` timeout,
 * which interrupts the pattern and leaves the thread ready for the next job; the pool terminates
 * the thread only if that fails.
 */
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { createContext, Script } from 'node:vm';
import { workerData, type MessagePort } from 'node:worker_threads';
import { extractMatches, type ExtractLimits, type ExtractResult } from './regex-extract.js';
import type { CompiledPattern } from './regex-syntax.js';

/** What the pool sends. */
export interface RegexJobMessage {
  id: number;
  pattern: CompiledPattern;
  text: string;
  limits: ExtractLimits;
  /** The job is interrupted after this long. */
  timeoutMs: number;
}

/** What the worker answers: `ready` once, then one reply per job. */
export type RegexWorkerReply =
  | { ready: true }
  | { id: number; ok: true; result: ExtractResult }
  | { id: number; ok: false; timedOut: true }
  | { id: number; ok: false; message: string };

/** CPU priority of a thread running user patterns: below the event loop's (0), above idle (19). */
const REGEX_NICE = 10;

/**
 * Run this thread below the event loop's priority, so threads spinning on catastrophic patterns
 * cannot slow the service's other answers. Only on Linux, where each thread has its own nice
 * value (/proc/thread-self names it); elsewhere setpriority would renice the whole process.
 */
function lowerThreadPriority(): void {
  try {
    setPriority(Number(readlinkSync('/proc/thread-self').split('/').pop()), REGEX_NICE);
  } catch {
    // Not Linux or no /proc: the thread keeps the normal priority.
  }
}

/** `extractMatches` on `job`, interrupted after `job.timeoutMs` (vm's watchdog stops any JavaScript of the thread, regex included). */
function runJob(job: RegexJobMessage): RegexWorkerReply {
  context.job = job;
  try {
    return { id: job.id, ok: true, result: script.runInContext(context, { timeout: job.timeoutMs }) as ExtractResult };
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') return { id: job.id, ok: false, timedOut: true };
    return { id: job.id, ok: false, message: (err as Error).message };
  } finally {
    context.job = undefined;
  }
}

const context = createContext({ job: undefined as RegexJobMessage | undefined, extractMatches });
const script = new Script('extractMatches(job.pattern, job.text, job.limits)');

// The pool hands each worker its own channel (so it can read a late reply synchronously).
const port = (workerData as { port?: MessagePort } | null)?.port;
if (port) {
  lowerThreadPriority();
  port.on('message', (job: RegexJobMessage) => port.postMessage(runJob(job)));
  port.postMessage({ ready: true } satisfies RegexWorkerReply);
}
