/**
 * Worker-thread entry of the schema pool: validates one request per message, so a `pattern`
 * that backtracks catastrophically only ever blocks this thread, which the pool replaces.
 */
import { DevutilError } from '../../errors.js';
import { serveJobs } from '../../workers/serve-jobs.js';
import { DRAFT_NAMES } from './json-schema-drafts.js';
import { compileValidation, prepareValidation, type SchemaValidationInput } from './json-schema.js';

serveJobs({
  // Compile, tell the pool (which then starts the evaluation clock), evaluate.
  async run(input: SchemaValidationInput, enterPhase) {
    const evaluate = await compileValidation(prepareValidation(input));
    enterPhase('evaluate');
    return evaluate();
  },
  unexpected: () => new DevutilError('validation_error', 'The schema cannot be used.'),
  // Compile each draft's meta-schema once before taking jobs: the first compile is the slow one.
  warmUp: () =>
    Promise.allSettled(
      DRAFT_NAMES.map(async (draft) => compileValidation(prepareValidation({ data: null, schema: { type: 'null' }, draft }))),
    ),
});
