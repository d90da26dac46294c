import { DevutilError } from '../../errors.js';
import type { DraftRow } from './json-schema-drafts.js';
import { FILE_HOST } from './json-schema-prepare.js';

/**
 * A 422 about the request's schema (or `schemas`, or `data`), with one `errors[]` entry.
 *
 * @example
 *   schemaError('schema', 'is not a valid draft 7 schema')
 */
export function schemaError(path: string, message: string): DevutilError {
  return new DevutilError('validation_error', `${path} ${message}.`, { errors: [{ path, message }] });
}

interface MetaOutput {
  errors?: Array<{ absoluteKeywordLocation?: string; instanceLocation?: string }>;
}

/** Compile failure → what the caller did wrong, as rows: first matching test wins. */
const COMPILE_ERRORS: Array<{
  test: (err: Error) => boolean;
  describe: (err: Error, row: DraftRow, unusable: Map<string, string>) => DevutilError;
}> = [
  {
    test: (err) => err.name === 'InvalidSchemaError',
    describe: (err, row) => {
      const first = (err as Error & { output?: MetaOutput }).output?.errors?.[0];
      // The place in the request's schema, as a JSON pointer fragment (its URI is the schema's $id, or a placeholder).
      const pointer = first?.instanceLocation?.slice(first.instanceLocation.indexOf('#'));
      const where = pointer && pointer !== '#' && pointer.startsWith('#') ? ` at ${pointer}` : '';
      const rule = first?.absoluteKeywordLocation ? ` (meta-schema rule ${first.absoluteKeywordLocation})` : '';
      return schemaError('schema', `is not a valid draft ${row.draft} schema${where}${rule}`);
    },
  },
  {
    test: (err) => err.name === 'RetrievalError' || err.name === 'UnsupportedUriSchemeError',
    describe: (err, _row, unusable) => {
      const uri = (/'([^']+)'/.exec(err.message)?.[1] ?? 'a referenced document').replace(FILE_HOST, 'file://');
      const reason = unusable.get(uri.replace(/#.*$/, ''));
      if (reason !== undefined) return schemaError(`schemas.${uri}`, `is referenced but cannot be used: ${reason}`);
      return schemaError('schema', `has a $ref to ${uri}, which is not in schemas (remote documents are never fetched)`);
    },
  },
  {
    test: (err) => /is undefined and does not have property|Unable to resolve|No schema found|does not exist|not found/i.test(err.message),
    describe: (err) => schemaError('schema', `has a $ref that cannot be resolved: ${err.message}`),
  },
  {
    test: (err) => /unknown dialect|Unable to determine a dialect/i.test(err.message),
    describe: (err) => schemaError('schema', `has a $schema that is neither a supported draft nor in schemas: ${err.message}`),
  },
  {
    test: (err) => /^Unrecognized vocabulary: /.test(err.message),
    describe: (err) => {
      const uri = /^Unrecognized vocabulary: (.*?)\.(?: You can define|$)/.exec(err.message)?.[1] ?? 'one';
      return schemaError(
        'schema',
        `requires a vocabulary this validator does not know (${uri}); mark it false in $vocabulary to make it optional`,
      );
    },
  },
  {
    test: (err) => err instanceof RangeError,
    describe: () => schemaError('schema', 'nests or refers to itself too deeply to compile'),
  },
];

/**
 * Map any error thrown while registering or compiling a schema to a 422; never a 5xx.
 *
 * @example
 *   describeCompileError(new Error("Encountered unknown dialect 'x'"), row) // → 422 about $schema
 */
export function describeCompileError(err: unknown, row: DraftRow, unusable = new Map<string, string>()): DevutilError {
  if (err instanceof DevutilError) return err;
  const e = err instanceof Error ? err : new Error(String(err));
  const match = COMPILE_ERRORS.find((rule) => rule.test(e));
  return match ? match.describe(e, row, unusable) : schemaError('schema', `cannot be compiled: ${e.message}`);
}
