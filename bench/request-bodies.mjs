// The typical small request bodies the benchmarks send, one definition each, so that throughput
// (devtools.mjs, crypto.mjs, format-tools.mjs) and instruction counts (instructions.mjs) measure
// the same requests.

export const people = [
  { name: 'Ada', age: 36, city: 'London' },
  { name: 'Grace', age: 45, city: 'New York' },
  { name: 'Linus', age: 21, city: 'Helsinki' },
  { name: 'Margaret', age: 33, city: 'Boston' },
  { name: 'Dennis', age: 17, city: 'Berkeley' },
];

export const BODIES = {
  jmespath: { data: { people }, expression: 'people[?age > `20`].{n: name, c: city} | sort_by(@, &n)' },
  schemaValidate: {
    data: { name: 'Ada', age: 36, email: 'ada@example.com', tags: ['math', 'code'] },
    schema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      required: ['name', 'age'],
      properties: { name: { type: 'string', minLength: 1 }, age: { type: 'integer', minimum: 0 }, email: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } },
      additionalProperties: false,
    },
  },
  numberCurrency: { number: 1234567.891, format_type: 'currency', locale: 'de_DE', currency: 'EUR' },
  sortByKey: { operation: 'sort', arrays: [[...people, ...people, ...people, ...people]], options: { key: 'age' } },
  dedupNumbers: { operation: 'deduplicate', arrays: [[5, 3, 9, 1, 7, 3, 5, 0, 2, 8], [4, 6, 9, 1, 0, 2, 2, 7, 6, 5]] },
  sha256: { data: 'x'.repeat(64), algorithm: 'sha256' },
};

/** The HS256 secret and payload of the JWT benchmarks (sign once, then verify the token). */
export const HS256 = { secret: 'bench-secret-bench-secret-bench-secret!', payload: { sub: 'user-42', role: 'admin' } };
