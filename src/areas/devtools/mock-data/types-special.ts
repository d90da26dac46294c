import { type FieldType } from './field-type.js';
import { REGEX_TYPE } from './regex-field.js';

/** Types whose values the caller supplies or describes. */
export const SPECIAL_TYPES: FieldType[] = [
  {
    name: 'enum',
    description: 'One of options.values, chosen uniformly.',
    options: { values: { type: 'array', minItems: 1, maxItems: 1000, description: 'Candidate values, any JSON (required).' } },
    required: ['values'],
    create: (f, o) => () => f.helpers.arrayElement(o.values as unknown[]),
  },
  {
    name: 'constant',
    description: 'Always options.value (any JSON).',
    options: { value: { description: 'The value (required).' } },
    required: ['value'],
    create: (_f, o) => () => o.value,
  },
  REGEX_TYPE,
];
