// The typical small request bodies the benchmarks send, one definition each, so that throughput
// (devtools.mjs, crypto.mjs, format-tools.mjs) and instruction counts (instructions.mjs) measure
// the same requests.
import { createHmac } from 'node:crypto';

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
      properties: {
        name: { type: 'string', minLength: 1 },
        age: { type: 'integer', minimum: 0 },
        email: { type: 'string' },
        tags: { type: 'array', items: { type: 'string' } },
      },
      additionalProperties: false,
    },
  },
  numberCurrency: { number: 1234567.891, format_type: 'currency', locale: 'de_DE', currency: 'EUR' },
  // The JMESPath case's five records, sorted by a key: the typical small array-ops request.
  sortPeople: { operation: 'sort', arrays: [people], options: { key: 'age' } },
  // Four times as many (20 objects, 929 B): mostly JSON parsing and serializing.
  sortByKey: { operation: 'sort', arrays: [[...people, ...people, ...people, ...people]], options: { key: 'age' } },
  dedupNumbers: {
    operation: 'deduplicate',
    arrays: [
      [5, 3, 9, 1, 7, 3, 5, 0, 2, 8],
      [4, 6, 9, 1, 0, 2, 2, 7, 6, 5],
    ],
  },
  sha256: { data: 'x'.repeat(64), algorithm: 'sha256' },
};

/** The HS256 secret and payload of the JWT benchmarks (sign once, then verify the token). */
export const HS256 = { secret: 'bench-secret-bench-secret-bench-secret!', payload: { sub: 'user-42', role: 'admin' } };

/** A JWT of {@link HS256} signed here, so that an app without `jwt-generate` (the plain Fastify ceiling) can verify it too. */
export function hs256Token() {
  const part = (value) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const input = `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ ...HS256.payload, iat: Math.floor(Date.now() / 1000) })}`;
  return `${input}.${createHmac('sha256', HS256.secret).update(input).digest('base64url')}`;
}

/**
 * One typical request per benchmarked route, set up on a running service: each case gets the key
 * header `h` and a JSON POST helper `post`, and returns the path, headers and body (a POST when it has one).
 * bench/ab.mjs and bench/instructions.mjs measure these.
 */
export const ROUTE_CASES = {
  healthz: async () => ({ path: '/healthz' }),
  account: async ({ h }) => ({ path: '/v1/account', headers: h }),
  mock: async ({ post }) => ({ path: new URL((await post('/v1/mocks', { ttl_seconds: 172800, body: 'x'.repeat(240) })).url).pathname }),
  catch: async ({ post }) => ({
    path: `/v1/catch/${(await post('/v1/bins', {})).bin.bin_id}`,
    body: JSON.stringify({ event: 'x'.repeat(1000) }),
  }),
  jmespath: async ({ h }) => ({ path: '/v1/json-transform', headers: h, body: BODIES.jmespath }),
  number: async ({ h }) => ({ path: '/v1/number-format', headers: h, body: BODIES.numberCurrency }),
  sort: async ({ h }) => ({ path: '/v1/array-ops', headers: h, body: BODIES.sortByKey }),
  sort5: async ({ h }) => ({ path: '/v1/array-ops', headers: h, body: BODIES.sortPeople }),
  sha256: async ({ h }) => ({ path: '/v1/auth/hash', headers: h, body: BODIES.sha256 }),
  dedup: async ({ h }) => ({ path: '/v1/array-ops', headers: h, body: BODIES.dedupNumbers }),
  schema: async ({ h }) => ({ path: '/v1/json-schema-validate', headers: h, body: BODIES.schemaValidate }),
  hs256: async ({ h }) => ({ path: '/v1/auth/jwt-verify', headers: h, body: { token: hs256Token(), secret: HS256.secret } }),
};
