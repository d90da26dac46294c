/**
 * Worker-thread entry of the regex pool: runs one {@link extractMatches} job per message, so a
 * catastrophic pattern only ever blocks this thread, which the pool terminates past its time limit
 * (V8 interrupts the pattern). The thread keeps no timer of its own: a `node:vm` timeout starts a
 * watchdog thread on every call, which costs more than the matching of a typical request.
 */
import { invalidField } from '../../errors.js';
import { serveJobs } from '../../workers/serve-jobs.js';
import { extractMatches, type ExtractLimits } from './regex-extract.js';
import type { CompiledPattern } from './regex-syntax.js';

/** One regex job: a pattern compiled on the event loop (its syntax errors answered there), the text and the bounds of the answer. */
export interface RegexJob {
  pattern: CompiledPattern;
  text: string;
  limits: ExtractLimits;
}

serveJobs({
  run: (job: RegexJob) => extractMatches(job.pattern, job.text, job.limits),
  // A pattern or text the engine cannot run on (a result past V8's longest string) is a 422 on the pattern.
  unexpected: (err) => invalidField('pattern', (err as Error).message),
});
