import type { Faker } from '@faker-js/faker';
import { checkRange, decimalsOption, type FieldOptions, type FieldType, intOption, numberOption, OptionError } from './field-type.js';

const DAY_MS = 86_400_000;
const dateBound = (description: string, def: string) => ({
  type: 'string',
  anyOf: [{ format: 'date' }, { format: 'date-time' }],
  default: def,
  description: `${description} (YYYY-MM-DD or RFC 3339 date-time; default ${def}).`,
});
const dateRange = { from: dateBound('Earliest instant', '2016-01-01'), to: dateBound('Latest instant', '2026-01-01') };

/** A random instant between `from` and `to`, which must be in order. */
function createInstant(faker: Faker, o: FieldOptions): () => Date {
  const from = Date.parse(o.from as string);
  const to = Date.parse(o.to as string);
  checkRange(from, to, ['from', 'to']);
  return () => faker.date.between({ from, to });
}

/** A decimal between min and max with `decimals` digits; refuses a range holding no such value. */
function createDecimal(faker: Faker, o: FieldOptions): () => number {
  const [min, max, decimals] = [o.min as number, o.max as number, o.decimals as number];
  checkRange(min, max);
  const scale = 10 ** decimals;
  if (Math.ceil(min * scale) > Math.floor(max * scale)) {
    throw new OptionError('decimals', `no value with ${decimals} decimals lies between min and max`);
  }
  return () => faker.number.float({ min, max, fractionDigits: decimals });
}

/** Numbers, booleans, dates and times. */
export const NUMBER_TYPES: FieldType[] = [
  {
    name: 'boolean',
    column: 'boolean',
    description: 'true or false.',
    options: { probability: { type: 'number', minimum: 0, maximum: 1, default: 0.5, description: 'Chance of true (default 0.5).' } },
    create: (f, o) => () => f.datatype.boolean({ probability: o.probability as number }),
  },
  {
    name: 'integer',
    column: 'integer',
    description: 'Integer between min and max inclusive.',
    options: { min: intOption('Lowest value (default 0).', 0), max: intOption('Highest value (default 1000).', 1000) },
    create: (f, o) => {
      checkRange(o.min as number, o.max as number);
      return () => f.number.int({ min: o.min as number, max: o.max as number });
    },
  },
  {
    name: 'number',
    column: 'real',
    description: 'Decimal number between min and max with `decimals` fraction digits.',
    options: {
      min: numberOption('Lowest value (default 0).', 0),
      max: numberOption('Highest value (default 1000).', 1000),
      decimals: decimalsOption(2),
    },
    create: createDecimal,
  },
  {
    name: 'price',
    column: 'real',
    description: 'Price as a number between min and max, `decimals` fraction digits (default 2).',
    options: {
      min: { type: 'number', minimum: 0, maximum: 1e12, default: 1, description: 'Lowest price (>= 0, default 1).' },
      max: { type: 'number', minimum: 0, maximum: 1e12, default: 1000, description: 'Highest price (default 1000).' },
      decimals: decimalsOption(2),
    },
    create: createDecimal,
  },
  {
    name: 'date',
    column: 'date',
    description: 'Calendar date YYYY-MM-DD (UTC) between from and to.',
    options: dateRange,
    create: (f, o) => {
      const next = createInstant(f, o);
      return () => next().toISOString().slice(0, 10);
    },
  },
  {
    name: 'datetime',
    column: 'datetime',
    description: 'ISO 8601 UTC instant with milliseconds between from and to.',
    options: dateRange,
    create: (f, o) => {
      const next = createInstant(f, o);
      return () => next().toISOString();
    },
  },
  {
    name: 'timestamp',
    column: 'integer',
    description: 'Unix time in seconds (integer) between from and to.',
    options: dateRange,
    create: (f, o) => {
      const next = createInstant(f, o);
      return () => Math.floor(next().getTime() / 1000);
    },
  },
  {
    name: 'time',
    column: 'time',
    description: 'Time of day HH:MM:SS.',
    create: (f) => () => new Date(f.number.int({ min: 0, max: DAY_MS / 1000 - 1 }) * 1000).toISOString().slice(11, 19),
  },
  { name: 'weekday', description: 'Weekday name in the locale.', create: (f) => () => f.date.weekday() },
  { name: 'month', description: 'Month name in the locale.', create: (f) => () => f.date.month() },
];
