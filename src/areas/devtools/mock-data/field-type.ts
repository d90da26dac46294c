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
  create(faker: Faker, options: FieldOptions): ValueGenerator;
}

/** A bad option value, reported as `fields[i].options.<option>`. */
export class OptionError extends Error {
  constructor(readonly option: string, message: string) {
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
export function simpleType(name: string, description: string, generate: (faker: Faker) => unknown): FieldType {
  return { name, description, create: (faker) => () => generate(faker) };
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
