import type { Faker } from '@faker-js/faker';

/** Faker's reference date, fixed so seeded output never depends on when it is generated. */
export const REFERENCE_DATE = '2026-01-01T00:00:00.000Z';
/** Generated text beyond this many characters is refused rather than built. */
export const MAX_OUTPUT_CHARS = 10_000_000;

/** JSON Schema of one option (a plain object, as ajv and OpenAPI read it). */
export type OptionSchema = Record<string, unknown>;

/** Validated options of one field, defaults applied. */
export type FieldOptions = Record<string, unknown>;

/**
 * Produces the value of one field for row `row` (0-based). `cost` is what one value costs relative
 * to a typical Faker call (1 when absent): a regex field says how many steps its pattern may take.
 * `minChars`: the fewest characters any value takes (0 when absent), so a request whose output
 * must pass the bound is refused before anything is drawn.
 */
export type ValueGenerator = ((row: number) => unknown) & { cost?: number; minChars?: number };

/**
 * What a field's values are, for the SQL column type of `CREATE TABLE`: `date` is YYYY-MM-DD,
 * `datetime` an ISO 8601 UTC instant, `time` HH:MM:SS; `text` for everything else.
 */
export type ColumnKind = 'integer' | 'real' | 'boolean' | 'date' | 'datetime' | 'time' | 'text';

/**
 * One mock-data field type: a row of the type table. `create` receives the validated options and
 * the request's seeded Faker and returns the generator; it throws {@link OptionError} for
 * option combinations a schema cannot express (min > max, a bad regex).
 */
export interface FieldType {
  name: string;
  description: string;
  /** Option name → JSON Schema (with `default` where one applies). */
  options?: Record<string, OptionSchema>;
  required?: string[];
  /** Kind of its values (`text` when absent), or a function of the options for types whose values the caller gives. */
  column?: ColumnKind | ((options: FieldOptions) => ColumnKind);
  create(faker: Faker, options: FieldOptions): ValueGenerator;
}

/** A bad option value, reported as `fields[i].options.<option>`. */
export class OptionError extends Error {
  constructor(
    readonly option: string,
    message: string,
  ) {
    super(message);
    this.name = 'OptionError';
  }
}

/**
 * Build a type row whose value does not depend on options (most faker methods).
 *
 * @example
 *   simpleType('city', 'City name in the locale', (f) => f.location.city())
 */
export function simpleType(name: string, description: string, generate: (faker: Faker) => unknown, column?: ColumnKind): FieldType {
  return { name, description, ...(column ? { column } : {}), create: (faker) => () => generate(faker) };
}

/**
 * The column kind that holds every one of `values` (nulls aside): all integers, all numbers, all
 * booleans, else text (objects and arrays are written as their JSON text).
 *
 * @example
 *   columnOfValues([1, 2, null]) // 'integer'
 *   columnOfValues([1, 'a']) // 'text'
 */
export function columnOfValues(values: unknown[]): ColumnKind {
  const present = values.filter((v) => v !== null);
  if (present.length === 0) return 'text';
  if (present.every((v) => Number.isInteger(v))) return 'integer';
  if (present.every((v) => typeof v === 'number')) return 'real';
  if (present.every((v) => typeof v === 'boolean')) return 'boolean';
  return 'text';
}

/**
 * A value as text formats write it: strings as they are, objects and arrays (from `enum` and
 * `constant`), numbers and booleans as their JSON text.
 *
 * @example
 *   toText({ a: 1 }) // '{"a":1}'
 */
export function toText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** Throw an {@link OptionError} on `max` when `min > max`. */
export function checkRange(min: number, max: number, names = ['min', 'max']): void {
  if (min > max) throw new OptionError(names[1], `must be greater than or equal to ${names[0]} (${min})`);
}

/** Option schemas shared by numeric types, e.g. `intOption('First value (default 1).', 1)`. */
export const intOption = (description: string, def?: number): OptionSchema => ({
  type: 'integer',
  minimum: -1e12,
  maximum: 1e12,
  description,
  ...(def === undefined ? {} : { default: def }),
});

export const numberOption = (description: string, def?: number): OptionSchema => ({
  type: 'number',
  minimum: -1e12,
  maximum: 1e12,
  description,
  ...(def === undefined ? {} : { default: def }),
});

export const decimalsOption = (def: number): OptionSchema => ({
  type: 'integer',
  minimum: 0,
  maximum: 10,
  default: def,
  description: `Fraction digits (0..10, default ${def}).`,
});

/** Approximate output size of a value; objects (from enum/constant) count their JSON text. */
export function measureValue(value: unknown): number {
  if (typeof value === 'string') return value.length;
  return value !== null && typeof value === 'object' ? JSON.stringify(value).length : 8;
}
