import { valueDepth } from '../../lib/json-depth.js';
import { estimateJsonChars } from '../../lib/json-size.js';
import type * as Compiler from './json-schema-compile.js';
import { DEFAULT_DRAFT, draftOfDialect, draftRow, type Draft, type DraftRow } from './json-schema-drafts.js';
import { describeFailures, type SchemaFailure } from './json-schema-messages.js';
import { createCompileCache } from './json-schema-cache.js';
import { schemaError } from './json-schema-compile-errors.js';
import { measureDepth } from './json-schema-prepare.js';
import { recentJson } from './recent-json.js';

// The validator (hyperjump with its drafts and formats) loads with the first compilation, not at
// start: one import for every caller, however many arrive before it is done.
let compiler: Promise<typeof Compiler> | undefined;
const loadCompiler = () => (compiler ??= import('./json-schema-compile.js'));

/** Limits (documented on the route). */
export const SCHEMA_LIMITS = {
  /** Serialized size of `schema` plus `schemas`. */
  maxBytes: 1024 * 1024,
  /** Nesting depth of each schema document. */
  maxDepth: 100,
  /** Documents in `schemas`. */
  maxDocuments: 100,
  /** Data and schemas both under this many bytes of JSON (and no user regex) validate in-process. */
  inProcessBytes: 16 * 1024,
  /** Failures listed in `errors`. */
  maxErrors: 1000,
  /** Compiled validators kept (LRU), and the total size of the schema text they were compiled from. */
  cacheEntries: 500,
  cacheBytes: 32 * 1024 * 1024,
} as const;

/** Data nested deeper than this may itself run a validation out of stack; shallower data cannot. */
const DEEP_DATA = 200;

export interface SchemaValidationInput {
  data: unknown;
  schema: unknown;
  /** Overrides a standard `$schema`; default: the `$schema`'s draft, else 2020-12. */
  draft?: Draft;
  /** Other documents `$ref` may point to, by absolute URI. */
  schemas?: Record<string, unknown>;
  /** Assert `format` under 2019-09/2020-12 too (drafts 4-7 always assert it). */
  assertFormat?: boolean;
}

export interface SchemaValidationResult {
  valid: boolean;
  errors: SchemaFailure[];
}

const cache = createCompileCache<Compiler.Compiled>({ entries: SCHEMA_LIMITS.cacheEntries, bytes: SCHEMA_LIMITS.cacheBytes });

/**
 * How many schemas were compiled and how many compiled validators are cached (for tests and metrics).
 *
 * @example
 *   schemaCacheStats() // → { compiles: 12, cached: 12 }
 */
export function schemaCacheStats(): { compiles: number; cached: number } {
  return cache.stats();
}

function checkLimits(schema: unknown, schemas: Array<[string, unknown]>, bytes: number): void {
  if (bytes > SCHEMA_LIMITS.maxBytes) throw schemaError('schema', `with schemas must be at most ${SCHEMA_LIMITS.maxBytes} bytes of JSON`);
  if (schemas.length > SCHEMA_LIMITS.maxDocuments)
    throw schemaError('schemas', `must hold at most ${SCHEMA_LIMITS.maxDocuments} documents`);
  if (measureDepth(schema) > SCHEMA_LIMITS.maxDepth)
    throw schemaError('schema', `must not nest deeper than ${SCHEMA_LIMITS.maxDepth} levels`);
  for (const [uri, doc] of schemas) {
    if (!/^[a-z][a-z0-9+.-]*:/i.test(uri)) throw schemaError(`schemas.${uri}`, 'key must be an absolute URI');
    if (measureDepth(doc) > SCHEMA_LIMITS.maxDepth)
      throw schemaError(`schemas.${uri}`, `must not nest deeper than ${SCHEMA_LIMITS.maxDepth} levels`);
  }
}

/** A reference keyword as it shows in a schema's JSON text. */
const REFERENCE_KEY = /"\$(?:ref|dynamicRef|recursiveRef)"/;

/** Whether any object in `value` has a `pattern` or `patternProperties` key (iterative walk). */
function hasRegexKeyword(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v === null || typeof v !== 'object') continue;
    if (!Array.isArray(v) && (Object.hasOwn(v, 'pattern') || Object.hasOwn(v, 'patternProperties'))) return true;
    for (const item of Object.values(v)) if (item !== null && typeof item === 'object') stack.push(item);
  }
  return false;
}

/** With an explicit `draft`, a standard `$schema` naming another draft is replaced (a custom meta-schema is kept). */
function applyDraft(schema: unknown, row: DraftRow, explicit: boolean): unknown {
  if (!explicit || schema === null || typeof schema !== 'object' || Array.isArray(schema)) return schema;
  const current = (schema as Record<string, unknown>).$schema;
  if (current === undefined || !draftOfDialect(current) || draftOfDialect(current) === row) return schema;
  return Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, k === '$schema' ? row.dialect : v]));
}

/** A request read once: its draft, its schema text (the cache key) and where it should run. */
export interface PreparedValidation {
  input: SchemaValidationInput;
  row: DraftRow;
  root: unknown;
  schemas: Array<[string, unknown]>;
  /** JSON text of everything that shapes a compilation (draft, format assertion, root schema, `schemas`): the cache key. */
  text: string;
  /**
   * Where to run: on a worker thread (stopped after a time limit) when the schemas hold regexes
   * taken from the request (`pattern`, `patternProperties`: catastrophic backtracking), references
   * (a graph can multiply the work), or when data or schemas are large enough for validation to
   * take long; in-process otherwise.
   */
  isolation: 'regex' | 'large' | 'none';
}

/**
 * Read a validation request: the draft (`draft`, else the `$schema`'s, else 2020-12), the schema
 * text (oversized text is refused here, before it becomes a cache key) and where it should run.
 *
 * @example
 *   prepareValidation({ data: 'a', schema: { pattern: '(a+)+$' } }).isolation // → 'regex'
 *   prepareValidation({ data: 1, schema: { type: 'integer' } }).isolation // → 'none'
 */
export function prepareValidation(input: SchemaValidationInput): PreparedValidation {
  const schemas = Object.entries(input.schemas ?? {}).map(([uri, doc]): [string, unknown] => [uri.replace(/#$/, ''), doc]);
  const declared = draftOfDialect((input.schema as { $schema?: unknown } | null)?.$schema);
  const row = input.draft ? draftRow(input.draft) : (declared ?? draftRow(DEFAULT_DRAFT));
  const root = applyDraft(input.schema, row, input.draft !== undefined);
  // A schema repeated from a recent request is found by comparison, without serializing it again;
  // the same text then hits the compile cache at once (its hash is kept with the string).
  const key = [row.draft, input.assertFormat === true, root, schemas];
  let known = recentSchemas.find(key);
  if (known === undefined) {
    known = readSchemaText(key, root, schemas);
    if (known.text.length <= SCHEMA_LIMITS.inProcessBytes) recentSchemas.remember(key, known);
  }
  const small = SCHEMA_LIMITS.inProcessBytes;
  const isolation = known.isolation === 'none' && estimateJsonChars(input.data, small) > small ? 'large' : known.isolation;
  return { input, row, root, schemas, text: known.text, isolation };
}

/** A request's schemas as text (the cache key), and where they make a validation run, the data aside. */
type SchemaText = Pick<PreparedValidation, 'text' | 'isolation'>;

/** The schemas of the last few requests with small ones, by their JSON values. */
const recentSchemas = recentJson<SchemaText>(8);

/** `key`: the draft, format assertion, root schema and documents: everything that shapes a compilation. */
function readSchemaText(key: unknown[], root: unknown, schemas: Array<[string, unknown]>): SchemaText {
  const text = JSON.stringify(key);
  // The limit is in UTF-8 bytes, as documented (700000 'é' are 1.4 MB in 700000 characters): a
  // UTF-16 unit takes at most 3 bytes, so only text longer than a third of the limit is measured.
  const bytes = text.length * 3 > SCHEMA_LIMITS.maxBytes ? Buffer.byteLength(text, 'utf8') : text.length;
  if (bytes > SCHEMA_LIMITS.maxBytes) checkLimits(root, schemas, bytes);
  // A `pattern` or `patternProperties` key shows in the text as `"pattern`: only then walk the schemas.
  // References make the schema a graph: a chain of `anyOf`s over the same `$ref` doubles the work
  // at each link (30 links ran a minute, then out of memory), so it runs where it can be stopped too.
  // Large data runs on a worker too (prepareValidation).
  const isolation =
    text.includes('"pattern') && hasRegexKeyword([root, schemas])
      ? 'regex'
      : text.length > SCHEMA_LIMITS.inProcessBytes || REFERENCE_KEY.test(text)
        ? 'large'
        : 'none';
  return { text, isolation };
}

/**
 * The two phases of a validation: compile (or take from the cache) now, and return the
 * synchronous evaluation, so a worker can time the evaluation alone. A schema that
 * is invalid, or a `$ref` that cannot be resolved from the request, throws `validation_error`.
 *
 * @example
 *   const run = await compileValidation(prepareValidation({ data: 1, schema: { type: 'string' } }));
 *   run().valid // → false
 */
export async function compileValidation(prepared: PreparedValidation): Promise<() => SchemaValidationResult> {
  const { input, row, root, schemas, text } = prepared;
  const { compileSchema, runValidator } = await loadCompiler();
  // The other limits depend only on the text, which a cached compilation has already passed.
  const c = await cache.get(text, async () => {
    checkLimits(root, schemas, text.length);
    return compileSchema(root, row, schemas);
  });
  return () => {
    let output: ReturnType<typeof runValidator>;
    try {
      output = runValidator(c.validator, input.data, input.assertFormat === true);
    } catch (err) {
      // The stack ran out: deep data, or (data well within the stack) a $ref chain that recurses without reading deeper into it.
      if (err instanceof RangeError) {
        throw valueDepth(input.data, DEEP_DATA) > DEEP_DATA
          ? schemaError('data', 'nests too deeply for this schema')
          : schemaError('schema', 'recurses without end: a $ref cycle that never reads deeper into the data');
      }
      throw err;
    }
    if (output.valid) return { valid: true, errors: [] };
    const units = (output.errors ?? []).slice(0, SCHEMA_LIMITS.maxErrors);
    return { valid: false, errors: describeFailures(units, { data: input.data, ...c }) };
  };
}

/**
 * Validate JSON against a JSON Schema (drafts 4, 6, 7, 2019-09, 2020-12) in this thread, without
 * any network or file access; compiled validators are cached.
 *
 * @example
 *   await validateJsonSchema(prepareValidation({ data: { age: 'x' }, schema: { properties: { age: { type: 'integer' } } } }))
 *   // → { valid: false, errors: [{ error: 'value at ["age"] must be integer', path: ['age'], schemaPath: '#/properties/age/type' }] }
 */
export async function validateJsonSchema(prepared: PreparedValidation): Promise<SchemaValidationResult> {
  return (await compileValidation(prepared))();
}
