import { columnOfValues, measureValue, type FieldType } from './field-type.js';
import { REGEX_TYPE } from './regex-field.js';

/**
 * What repeating a caller's value costs against a typical Faker call: its text is measured and
 * written out once per row (about one call's time per 500 characters of JSON).
 */
function valueCost(value: unknown): number {
  const size = typeof value === 'string' ? value.length : (JSON.stringify(value) ?? '').length;
  return 1 + size / 500;
}

/** Types whose values the caller supplies or describes. */
export const SPECIAL_TYPES: FieldType[] = [
  {
    name: 'enum',
    description: 'One of options.values, chosen uniformly.',
    options: { values: { type: 'array', minItems: 1, maxItems: 1000, description: 'Candidate values, any JSON (required).' } },
    required: ['values'],
    column: (o) => columnOfValues(o.values as unknown[]),
    create: (f, o) => {
      const values = o.values as unknown[];
      return Object.assign(() => f.helpers.arrayElement(values), {
        cost: Math.max(...values.map(valueCost)),
        minChars: Math.min(...values.map(measureValue)),
      });
    },
  },
  {
    name: 'constant',
    description: 'Always options.value (any JSON).',
    options: { value: { description: 'The value (required).' } },
    required: ['value'],
    column: (o) => columnOfValues([o.value]),
    create: (_f, o) => Object.assign(() => o.value, { cost: valueCost(o.value), minChars: measureValue(o.value) }),
  },
  REGEX_TYPE,
];
