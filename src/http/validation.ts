import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsImport from 'ajv-formats';
import type { FastifyInstance } from 'fastify';
import { onePerField, type FieldError } from '../errors.js';
import { withCodePointLength } from './code-point-length.js';

const addFormats = addFormatsImport as unknown as (ajv: Ajv) => Ajv;

function makeAjv(coerce: boolean): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    coerceTypes: coerce ? 'array' : false,
    useDefaults: true,
    removeAdditional: false,
    strict: false,
  });
  addFormats(ajv);
  return withCodePointLength(ajv);
}

/** What a failed `pattern` says in words instead of the regular expression, by pattern. */
const PATTERN_WORDS = new Map<string, string>();

/**
 * A schema's `pattern` whose failure reads as `words` ("must be an HTTP method such as GET") rather
 * than `must match pattern "^[!#$%&'*+.^_\`|~0-9A-Za-z-]+$"`.
 *
 * @example
 *   const path = { type: 'string', ...wordedPattern('^/[^?#\\s]*$', 'must start with / and hold no ?, # or whitespace') };
 */
export function wordedPattern(pattern: string, words: string): { pattern: string } {
  const known = PATTERN_WORDS.get(pattern);
  if (known !== undefined && known !== words) throw new Error(`pattern ${pattern} already has other words: ${known}`);
  PATTERN_WORDS.set(pattern, words);
  return { pattern };
}

/** An HTTP method name (RFC 9110 token), upper-cased by the routes that take one; `withConnect: false` refuses CONNECT in any case. */
export function httpMethodPattern(withConnect: boolean): { pattern: string } {
  return withConnect
    ? wordedPattern("^[!#$%&'*+.^_`|~0-9A-Za-z-]+$", 'must be an HTTP method name, such as GET, POST or PURGE')
    : wordedPattern(
        "^(?![Cc][Oo][Nn][Nn][Ee][Cc][Tt]$)[!#$%&'*+.^_`|~0-9A-Za-z-]+$",
        'must be an HTTP method name, such as GET, POST or PURGE, other than CONNECT',
      );
}

/** A whole number as text: digits with an optional minus (no `+`, spaces, exponent, hex or fraction). */
const INTEGER_TEXT = /^-?\d+$/;

/**
 * A query/params/headers validator that first refuses integer fields whose text is not plainly an
 * integer: ajv's coercion reads `1e1`, `0x10`, `+5`, ` 5` and `1.0` as numbers (CONTRACT §2.3:
 * anything but an integer → 422).
 */
function withIntegerText(
  schema: { properties?: Record<string, { type?: unknown } | undefined> },
  validate: ValidateFunction,
): ValidateFunction {
  const names = Object.entries(schema.properties ?? {})
    .filter(([, s]) => s?.type === 'integer')
    .map(([name]) => name);
  if (names.length === 0) return validate;
  const checked = ((data: Record<string, unknown> | null | undefined) => {
    const errors: ErrorObject[] = [];
    for (const name of names) {
      const value = data?.[name];
      if (typeof value === 'string' && !INTEGER_TEXT.test(value)) {
        errors.push({
          instancePath: `/${name}`,
          schemaPath: `#/properties/${name}/type`,
          keyword: 'type',
          params: { type: 'integer' },
          message: 'must be integer',
        });
      }
    }
    const valid = errors.length === 0 && validate(data);
    checked.errors = errors.length > 0 ? errors : validate.errors;
    return valid;
  }) as ValidateFunction;
  return checked;
}

/**
 * Request validation: JSON bodies are validated strictly ("60" is not an integer), while query
 * strings, params and headers, which are always text, are coerced to the declared types.
 *
 * @example
 *   registerValidators(app);
 */
export function registerValidators(app: FastifyInstance): void {
  const strict = makeAjv(false);
  const coercing = makeAjv(true);
  app.setValidatorCompiler(({ schema, httpPart }) =>
    httpPart === 'body' ? strict.compile(schema) : withIntegerText(schema as object, coercing.compile(schema)),
  );
}

/**
 * ajv's errors with each failed `anyOf`/`oneOf` stated once: its message becomes the alternatives
 * its branches failed on at the same place ("must match pattern … or must be integer"), and the
 * branches' own errors are dropped (they are alternatives, not separate faults).
 */
function withAlternativesMerged(errors: ErrorObject[]): ErrorObject[] {
  const choices = errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf');
  if (choices.length === 0) return errors;
  const branchOf = (e: ErrorObject) => choices.find((c) => c !== e && e.schemaPath.startsWith(`${c.schemaPath}/`));
  const merged: ErrorObject[] = [];
  for (const e of errors) {
    if (branchOf(e)) continue;
    if (!choices.includes(e)) {
      merged.push(e);
      continue;
    }
    // `maxLength: 0` is how a schema allows "or an empty string": say so in words.
    const say = (b: ErrorObject) =>
      b.keyword === 'maxLength' && (b.params as { limit: number }).limit === 0
        ? 'must be empty'
        : b.keyword === 'pattern'
          ? (PATTERN_WORDS.get((b.params as { pattern: string }).pattern) ?? b.message ?? 'is invalid')
          : (b.message ?? 'is invalid');
    const alternatives = [...new Set(errors.filter((b) => branchOf(b) === e && b.instancePath === e.instancePath).map(say))];
    merged.push(alternatives.length > 0 ? { ...e, message: alternatives.join(' or ') } : e);
  }
  return merged;
}

/** ajv errors → `errors[]` entries with the field path as users write it (`fields[0].type`), one per field. */
export function toFieldErrors(errors: ErrorObject[], part: string): FieldError[] {
  return onePerField(
    withAlternativesMerged(errors).map((e) => {
      const segments = e.instancePath
        .split('/')
        .slice(1)
        .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
      if (e.keyword === 'required') segments.push(String((e.params as { missingProperty: string }).missingProperty));
      if (e.keyword === 'additionalProperties') segments.push(String((e.params as { additionalProperty: string }).additionalProperty));
      const path = segments.reduce((acc, s) => (/^\d+$/.test(s) ? `${acc}[${s}]` : acc ? `${acc}.${s}` : s), '') || part;
      let message = e.message ?? 'is invalid';
      if (e.keyword === 'required') message = 'is required';
      else if (e.keyword === 'additionalProperties') message = 'is not a known field';
      else if (e.keyword === 'pattern') message = PATTERN_WORDS.get((e.params as { pattern: string }).pattern) ?? message;
      else if (e.keyword === 'enum')
        message = `must be one of ${(e.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
      return { path, message };
    }),
  );
}
