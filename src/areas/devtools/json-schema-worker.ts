/**
 * Worker-thread entry of the schema pool: validates one request per message, so a `pattern`
 * that backtracks catastrophically only ever blocks this thread, which the pool replaces.
 */
import { parentPort } from 'node:worker_threads';
import { DevutilError } from '../../errors.js';
import { DRAFT_NAMES } from './json-schema-drafts.js';
import { compileValidation, prepareValidation, type SchemaValidationInput } from './json-schema.js';

/** What the pool sends. */
export interface SchemaJobMessage {
  id: number;
  input: SchemaValidationInput;
}

function describeError(err: unknown): { code: DevutilError['code']; message: string; errors?: DevutilError['errors'] } {
  const e = err instanceof DevutilError ? err : new DevutilError('validation_error', 'The schema cannot be used.');
  return { code: e.code, message: e.message, errors: e.errors };
}

/** Compile, tell the pool (which then starts the evaluation clock), evaluate, answer. */
async function runJob(port: NonNullable<typeof parentPort>, job: SchemaJobMessage): Promise<void> {
  let evaluate: Awaited<ReturnType<typeof compileValidation>>;
  try {
    evaluate = await compileValidation(prepareValidation(job.input));
  } catch (err) {
    port.postMessage({ id: job.id, ok: false, ...describeError(err) });
    return;
  }
  port.postMessage({ id: job.id, compiled: true });
  try {
    port.postMessage({ id: job.id, ok: true, result: evaluate() });
  } catch (err) {
    port.postMessage({ id: job.id, ok: false, ...describeError(err) });
  }
}

const port = parentPort;
if (port) {
  port.on('message', (job: SchemaJobMessage) => void runJob(port, job));
  // Compile each draft's meta-schema once before taking jobs: the first compile is the slow one.
  void Promise.allSettled(DRAFT_NAMES.map(async (draft) => compileValidation(prepareValidation({ data: null, schema: { type: 'null' }, draft })))).then(() =>
    port.postMessage({ ready: true }),
  );
}
