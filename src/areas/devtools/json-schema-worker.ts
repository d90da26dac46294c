/**
 * Worker-thread entry of the schema pool: validates one request per message, so a `pattern`
 * that backtracks catastrophically only ever blocks this thread, which the pool replaces.
 */
import { parentPort } from 'node:worker_threads';
import { DevutilError } from '../../errors.js';
import { validateJsonSchema, type SchemaValidationInput } from './json-schema.js';

/** What the pool sends. */
export interface SchemaJobMessage {
  id: number;
  input: SchemaValidationInput;
}

const port = parentPort;
if (port) {
  port.on('message', (job: SchemaJobMessage) => {
    validateJsonSchema(job.input).then(
      (result) => port.postMessage({ id: job.id, ok: true, result }),
      (err: unknown) => {
        const e = err instanceof DevutilError ? err : new DevutilError('validation_error', 'The schema cannot be used.');
        port.postMessage({ id: job.id, ok: false, code: e.code, message: e.message, errors: e.errors });
      },
    );
  });
  port.postMessage({ ready: true });
}
