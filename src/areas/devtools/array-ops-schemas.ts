import { ARRAY_OPERATIONS, MAX_ELEMENTS, type ArrayOperation, type ArrayOpsOptions } from './array-ops.js';

/** Route description: the decisions CONTRACT §3.8 leaves open. */
const ARRAY_OPS_DESCRIPTION = [
  'Ten operations on JSON arrays. Unary operations (sort, deduplicate, chunk, flatten, compact, reverse, sample) work on the ',
  'concatenation of `arrays`. `union` = deduplicated concatenation in first-seen order; `intersect` = distinct values of the ',
  "first array present in every other array, in the first array's order; `diff` = values of the first array (duplicates kept) ",
  'absent from all others. intersect and diff need at least 2 arrays (422 otherwise).\n\n',
  'Equality is deep: objects are equal when their keys and values are, whatever the key order; 1 and 1.0 are equal.\n\n',
  '**sort**: stable; null < boolean < number < string < array < object; false < true; strings by Unicode code point; arrays ',
  'element by element; objects by their canonical JSON (keys sorted). `options.key` sorts by a property: an own property named ',
  'exactly `key` wins, else a dotted path (`address.city`; numeric segments index arrays); elements lacking it come last, ',
  'also when `reverse` is true. `options.reverse: true` gives descending order for any sort.\n\n',
  '**chunk**: `options.size` (>= 1) is required; `count` is the number of chunks. **flatten**: `options.depth` (default 1, -1 = ',
  'fully). **compact** removes null, "", 0 and false. **sample**: `options.size` distinct positions (default 1; all elements when ',
  'larger), in random order; `options.seed` makes it repeatable.\n\n',
  `At most ${MAX_ELEMENTS} elements across \`arrays\`, and in a flatten result (422 beyond). Options an operation does not use are ignored.`,
].join('');

/** Request body of `POST /v1/array-ops`. */
export interface ArrayOpsBody {
  operation: ArrayOperation;
  arrays: unknown[][];
  options?: ArrayOpsOptions;
}

const arrayOpsBody = {
  type: 'object',
  required: ['operation', 'arrays'],
  additionalProperties: false,
  properties: {
    operation: { type: 'string', enum: [...ARRAY_OPERATIONS] },
    arrays: {
      type: 'array',
      minItems: 1,
      maxItems: MAX_ELEMENTS,
      items: { type: 'array', maxItems: MAX_ELEMENTS },
      description: 'Array of arrays.',
    },
    options: {
      type: 'object',
      additionalProperties: false,
      properties: {
        key: { type: 'string', minLength: 1, maxLength: 256, description: 'Sort key (dotted path allowed).' },
        reverse: { type: 'boolean', default: false },
        size: { type: 'integer', minimum: 1, maximum: MAX_ELEMENTS, description: 'Chunk size / sample size.' },
        depth: { type: 'integer', minimum: -1, maximum: 1000, description: 'Flatten depth, default 1; -1 = fully.' },
        seed: { type: 'integer', minimum: -9007199254740991, maximum: 9007199254740991, description: 'Seed for sample.' },
      },
    },
  },
  examples: [
    {
      operation: 'sort',
      arrays: [
        [
          { name: 'b', age: 30 },
          { name: 'a', age: 25 },
        ],
      ],
      options: { key: 'age', reverse: true },
    },
    {
      operation: 'intersect',
      arrays: [
        [1, 2, 3],
        [2, 3, 4],
      ],
    },
  ],
} as const;

const arrayOpsResponse = {
  type: 'object',
  required: ['result', 'operation', 'count'],
  properties: {
    // Untyped: any JSON values, serialized whole.
    result: { description: 'Array: the operation result (chunk: array of arrays).' },
    operation: { type: 'string' },
    count: { type: 'integer', description: 'Items in result (chunks for chunk).' },
  },
  examples: [
    {
      result: [
        { name: 'b', age: 30 },
        { name: 'a', age: 25 },
      ],
      operation: 'sort',
      count: 2,
    },
  ],
} as const;

/** `POST /v1/array-ops`. */
export const arrayOpsSchema = {
  operationId: 'applyArrayOperation',
  summary: 'Sort, deduplicate, intersect, diff, union, chunk, flatten, compact, reverse or sample arrays',
  description: ARRAY_OPS_DESCRIPTION,
  body: arrayOpsBody,
  response: { 200: arrayOpsResponse },
};
