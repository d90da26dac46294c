/**
 * Worker-thread entry of the regex pool: runs one {@link extractMatches} job per message, so a
 * catastrophic pattern only ever blocks this thread, which the pool terminates and replaces.
 */
import { workerData, type MessagePort } from 'node:worker_threads';
import { extractMatches, type ExtractLimits } from './regex-extract.js';
import type { CompiledPattern } from './regex-syntax.js';

/** What the pool sends. */
export interface RegexJobMessage {
  id: number;
  pattern: CompiledPattern;
  text: string;
  limits: ExtractLimits;
}

// The pool hands each worker its own channel (so it can read a late reply synchronously).
const port = (workerData as { port?: MessagePort } | null)?.port;
if (port) {
  port.on('message', (job: RegexJobMessage) => {
    try {
      port.postMessage({ id: job.id, ok: true, result: extractMatches(job.pattern, job.text, job.limits) });
    } catch (err) {
      port.postMessage({ id: job.id, ok: false, message: (err as Error).message });
    }
  });
  port.postMessage({ ready: true });
}
