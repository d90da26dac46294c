import fc from 'fast-check';
import { arbitraryFor, type Schema } from './schema-arbitrary.js';

/** One request body as sent on the wire, with what the fuzzer did to it. */
export interface FuzzBody {
  label: string;
  payload?: string | Buffer;
  contentType?: string;
}

/** Strings that have broken parsers, loggers, SQL and header writers before. */
export const NASTY_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\uD800',
  '\uDFFF',
  'x\uDBFFy',
  '\u202Eevil\u202C',
  '\u200F\u200E',
  '\uFEFF',
  '😀👍🏽',
  'e\u0301\u0301\u0301',
  '\r\nX-Injected: 1',
  '../../../etc/passwd',
  '<script>alert(1)</script>',
  "'; DROP TABLE keys; --",
  '${jndi:ldap://127.0.0.1/a}',
  '%00%ff',
  '\\',
  '"',
  '{{7*7}}',
  '__proto__',
  'constructor',
  'NaN',
  '-0',
  '1e999',
];

const WRONG_TYPES: unknown[] = [null, true, false, 0, -1, 1.5, -0.0001, 1e308, 'text', '', [], [1, 'a'], {}, { a: 1 }];
const CONTENT_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  'application/json; charset=utf-16',
  'application/vnd.api+json',
  'APPLICATION/JSON',
  'application/jsonx',
  'application/json, text/plain',
];
const BAD_JSON: (string | Buffer)[] = [
  '{',
  '{"a":}',
  'nul',
  '{"a":1,}',
  "{'a':1}",
  'NaN',
  '[1,2',
  '\uFEFF{}',
  '{"a":"\\uZZZZ"}',
  '"\\ud800"',
  '0x10',
  '{}{}',
  Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
];

/** Own properties `__proto__`, `constructor` and `prototype`, as JSON.parse makes them. */
export const PROTO_KEYS = JSON.parse(
  '{"__proto__":{"polluted":"yes","isAdmin":true},"constructor":{"prototype":{"polluted":"yes"}},"prototype":{"polluted":"yes"}}',
);

/** `[[[...]]]` or `{"a":{"a":...}}` nested exactly `depth` levels. */
export function nested(depth: number, kind: 'array' | 'object'): string {
  return kind === 'array' ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth - 1) + '{}' + '}'.repeat(depth - 1);
}

function boundaryValues(schema: Schema | undefined): unknown[] {
  if (!schema) return [];
  const out: unknown[] = [];
  if (typeof schema.minimum === 'number') out.push(schema.minimum - 1, schema.minimum, schema.minimum - 0.5);
  if (typeof schema.maximum === 'number') out.push(schema.maximum + 1, schema.maximum + 0.5);
  if (typeof schema.minLength === 'number' && schema.minLength > 0) out.push('x'.repeat(schema.minLength - 1));
  if (typeof schema.maxLength === 'number' && schema.maxLength <= 2_200_000)
    out.push('y'.repeat(schema.maxLength + 1), 'ü'.repeat(schema.maxLength + 1));
  if (typeof schema.maxItems === 'number' && schema.maxItems <= 1000) out.push(Array.from({ length: schema.maxItems + 1 }, () => 'a'));
  if (typeof schema.minItems === 'number' && schema.minItems > 0) out.push([]);
  if (Array.isArray(schema.enum)) out.push('not-in-enum', String(schema.enum[0]).toUpperCase() + ' ');
  if (typeof schema.maxProperties === 'number' && schema.maxProperties <= 1000) {
    out.push(Object.fromEntries(Array.from({ length: schema.maxProperties + 1 }, (_, i) => [`k${i}`, 'v'])));
  }
  out.push(2 ** 53, -(2 ** 53), '', 0);
  return out;
}

/** Numeric fields named in the cost caps are lowered to the cap (examples may use production costs). */
function clampCaps(value: unknown, caps: Record<string, number>): unknown {
  if (!value || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => clampCaps(v, caps));
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [k, typeof v === 'number' && k in caps ? Math.min(v, caps[k]) : clampCaps(v, caps)]),
  );
}

/** Replace, add or delete one top-level property of an object body. */
function edit(value: unknown, key: string, next: unknown | typeof DELETE): unknown {
  const obj = value && typeof value === 'object' && !Array.isArray(value) ? { ...(value as object) } : {};
  if (next === DELETE) delete (obj as Record<string, unknown>)[key];
  else Object.defineProperty(obj, key, { value: next, enumerable: true, writable: true, configurable: true });
  return obj;
}
const DELETE = Symbol('delete');

const json = (label: string, value: unknown): FuzzBody => ({ label, payload: JSON.stringify(value), contentType: 'application/json' });

/**
 * Bodies for a JSON request schema: mostly valid-ish, the rest one of many kinds of damage.
 *
 * @example
 *   fc.sample(bodyArbitrary({ type: 'object', properties: { n: { type: 'integer' } } }, {}), 1)[0].label // e.g. 'boundary n'
 */
export function bodyArbitrary(
  schema: Schema,
  caps: Record<string, number>,
  safe: (body: unknown) => unknown = (b) => b,
  documented: unknown[] = [],
): fc.Arbitrary<FuzzBody> {
  const props: Record<string, Schema> = schema.properties ?? {};
  const keys = Object.keys(props);
  const required: string[] = schema.required ?? [];
  // The documented examples pass the cross-field rules random values rarely meet, so damage to them reaches deeper code.
  const examples: unknown[] = [...documented, ...(Array.isArray(schema.examples) ? schema.examples : [])].map((e) => clampCaps(e, caps));
  const generated = arbitraryFor(schema, { caps });
  const valid = (
    examples.length
      ? fc.oneof({ weight: 2, arbitrary: fc.constantFrom(...examples).map((e) => structuredClone(e)) }, { weight: 1, arbitrary: generated })
      : generated
  ).map(safe);
  const key = keys.length ? fc.constantFrom(...keys) : fc.constant('field');
  const nastyString = fc.oneof(fc.constantFrom(...NASTY_STRINGS), fc.string({ unit: 'binary', maxLength: 30 }));
  const huge = fc.constantFrom('a'.repeat(100_000), '\u202E😀'.repeat(25_000), '\u0000'.repeat(100_000), '\uD800'.repeat(30_000));
  const withJson = (label: string, arb: fc.Arbitrary<unknown>) => arb.map((v) => json(label, safe(v)));
  return fc.oneof(
    { weight: 6, arbitrary: valid.map((v) => json('valid', v)) },
    {
      weight: 3,
      arbitrary: withJson(
        'boundary',
        fc.tuple(valid, key).chain(([v, k]) => {
          const b = boundaryValues(props[k]);
          return b.length ? fc.constantFrom(...b).map((x) => edit(v, k, x)) : fc.constant(v);
        }),
      ),
    },
    {
      weight: 2,
      arbitrary: withJson(
        'wrong type',
        fc.tuple(valid, key, fc.constantFrom(...WRONG_TYPES)).map(([v, k, x]) => edit(v, k, x)),
      ),
    },
    { weight: 1, arbitrary: fc.constantFrom(...WRONG_TYPES).map((x) => json('wrong root type', x)) },
    {
      weight: 1,
      arbitrary: withJson(
        'missing required',
        fc.tuple(valid, required.length ? fc.constantFrom(...required) : key).map(([v, k]) => edit(v, k, DELETE)),
      ),
    },
    {
      weight: 1,
      arbitrary: withJson(
        'extra field',
        fc.tuple(valid, fc.string({ minLength: 1, maxLength: 20 }), fc.jsonValue({ maxDepth: 2 })).map(([v, k, x]) => edit(v, k, x)),
      ),
    },
    {
      weight: 2,
      arbitrary: withJson(
        'unicode',
        fc.tuple(valid, key, nastyString).map(([v, k, x]) => edit(v, k, x)),
      ),
    },
    {
      weight: 1,
      arbitrary: withJson(
        'huge string',
        fc.tuple(valid, key, huge).map(([v, k, x]) => edit(v, k, x)),
      ),
    },
    {
      weight: 2,
      arbitrary: withJson(
        'prototype keys',
        fc.tuple(valid, key).map(([v, k]) => ({ ...PROTO_KEYS, ...(edit(v, k, { ...PROTO_KEYS }) as object) })),
      ),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom(999, 1000, 1001), fc.constantFrom('array', 'object') as fc.Arbitrary<'array' | 'object'>, key)
        .map(([d, kind, k]) => ({
          label: `nesting ${d + 1} under ${k}`,
          payload: `{${JSON.stringify(k)}:${nested(d, kind)}}`,
          contentType: 'application/json',
        })),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(1000, 1001)
        .map((d) => ({ label: `root nesting ${d}`, payload: nested(d, 'array'), contentType: 'application/json' })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(valid, fc.constantFrom(...CONTENT_TYPES))
        .map(([v, ct]) => ({ label: `content-type ${ct}`, payload: JSON.stringify(v), contentType: ct })),
    },
    { weight: 1, arbitrary: valid.map((v) => ({ label: 'no content-type', payload: JSON.stringify(v) })) },
    {
      weight: 1,
      arbitrary: fc.constantFrom<FuzzBody>(
        { label: 'empty json', payload: '', contentType: 'application/json' },
        { label: 'no body' },
        { label: 'whitespace', payload: ' \n', contentType: 'application/json' },
      ),
    },
    { weight: 1, arbitrary: fc.constantFrom(...BAD_JSON).map((p) => ({ label: 'bad json', payload: p, contentType: 'application/json' })) },
  );
}
