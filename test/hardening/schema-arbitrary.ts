import fc from 'fast-check';
import RandExpImport from 'randexp';

// randexp is CommonJS whose module.exports is the class itself (its typings say `default`).
const RandExp = ((RandExpImport as unknown as { default?: unknown }).default ?? RandExpImport) as typeof RandExpImport.default;

/** A JSON Schema node as it appears in /openapi.json (no `$ref`s: the document inlines everything). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- an OpenAPI document or schema of any shape
export type Schema = Record<string, any>;

/**
 * Upper bounds for numeric fields whose schema maximum is legitimate but expensive (argon2 with
 * 256 MiB, bcrypt cost 15, scrypt log_n 20, mock delays up to 30 s, 1000 mock-data rows): the
 * fuzzer's "valid" values stay below these so the file stays fast. Values just past the schema's
 * own maximum are still sent (they are refused before any work is done).
 */
export const COST_CAPS: Record<string, Record<string, number>> = {
  'POST /v1/auth/hash-password': { cost: 5, memory_kib: 1024, iterations: 2, parallelism: 2, log_n: 10, r: 8, p: 2 },
  'POST /v1/auth/encrypt': { log_n: 10, r: 8, p: 1 },
  'POST /v1/auth/decrypt': { log_n: 10, r: 8, p: 1 },
  'POST /v1/mocks': { delay_ms: 20 },
  'PATCH /v1/mocks/{mock_id}': { delay_ms: 20 },
  'POST /v1/mock-data': { rows: 50 },
  'POST /v1/array-ops': { size: 1000, depth: 50 },
  'POST /v1/auth/generate-keypair': { modulus_length: 2048 },
};

export interface GenOptions {
  /** Caps for this operation (property name → max), from {@link COST_CAPS}. */
  caps: Record<string, number>;
  /** Name of the property this schema sits under (for caps). */
  name?: string;
}

const FORMATS: Record<string, () => fc.Arbitrary<string>> = {
  'date-time': () => fc.date({ min: new Date('1970-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString()),
  email: () => fc.emailAddress(),
  uri: () => fc.webUrl(),
  uuid: () => fc.uuid(),
  ipv4: () => fc.ipV4(),
  ipv6: () => fc.ipV6(),
};

function types(schema: Schema): string[] {
  if (Array.isArray(schema.type)) return schema.type;
  if (typeof schema.type === 'string') return [schema.type];
  if (schema.properties || schema.required) return ['object'];
  if (schema.items) return ['array'];
  return [];
}

function stringFor(schema: Schema): fc.Arbitrary<string> {
  if (typeof schema.format === 'string' && FORMATS[schema.format]) return FORMATS[schema.format]();
  const min = schema.minLength ?? 0;
  const max = Math.max(min, Math.min(schema.maxLength ?? 40, min + 40));
  if (typeof schema.pattern === 'string') {
    try {
      new RandExp(schema.pattern).gen();
      return fc.integer({ min: 1 }).map((seed) => {
        const gen = new RandExp(schema.pattern);
        gen.max = 8;
        let state = seed;
        // Deterministic from fast-check's seed, so a failing case replays exactly.
        gen.randInt = (a: number, b: number) => {
          state = (state * 1103515245 + 12345) & 0x7fffffff;
          return a + (state % (b - a + 1));
        };
        return gen.gen().slice(0, schema.maxLength ?? 1000);
      });
    } catch {
      /* an ECMA-only pattern randexp cannot read: fall back to plain strings */
    }
  }
  return fc.string({ minLength: min, maxLength: max, unit: 'grapheme' }).filter((s) => s.length >= min);
}

function numberFor(schema: Schema, integer: boolean, cap: number | undefined): fc.Arbitrary<number> {
  const lo = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + (integer ? 1 : 1e-9) : -1e6);
  let hi = schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - (integer ? 1 : 1e-9) : 1e6);
  if (cap !== undefined) hi = Math.min(hi, Math.max(lo, cap));
  if (integer) {
    const a = Math.max(lo, Number.MIN_SAFE_INTEGER);
    const b = Math.min(hi, Number.MAX_SAFE_INTEGER);
    return fc.oneof(fc.integer({ min: a, max: b }), fc.constantFrom(a, b));
  }
  return fc.double({ min: lo, max: hi, noNaN: true, noDefaultInfinity: true });
}

/**
 * Valid-ish values for a schema: right types, within ranges (capped by {@link COST_CAPS}),
 * required properties present, some optional ones. Schemas it cannot read give any JSON value.
 *
 * @example
 *   fc.sample(arbitraryFor({ type: 'integer', minimum: 1, maximum: 3 }, { caps: {} }), 2) // e.g. [1, 3]
 */
export function arbitraryFor(schema: Schema | undefined, opts: GenOptions, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || typeof schema !== 'object') return fc.jsonValue({ maxDepth: 2 });
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) {
    const cap = opts.name ? opts.caps[opts.name] : undefined;
    const allowed = cap === undefined ? schema.enum : schema.enum.filter((v: unknown) => typeof v !== 'number' || v <= cap);
    return fc.constantFrom(...(allowed.length ? allowed : schema.enum));
  }
  const alts = schema.oneOf ?? schema.anyOf;
  if (Array.isArray(alts) && alts.length)
    return fc.oneof(...alts.map((s: Schema) => arbitraryFor({ ...schema, oneOf: undefined, anyOf: undefined, ...s }, opts, depth)));
  if (Array.isArray(schema.allOf) && schema.allOf.length) return arbitraryFor(Object.assign({}, ...schema.allOf), opts, depth);
  const ts = types(schema);
  if (ts.length === 0) return fc.jsonValue({ maxDepth: 2 });
  return fc.oneof(...ts.map((t) => arbitraryForType(t, schema, opts, depth)));
}

function arbitraryForType(t: string, schema: Schema, opts: GenOptions, depth: number): fc.Arbitrary<unknown> {
  const cap = opts.name ? opts.caps[opts.name] : undefined;
  switch (t) {
    case 'string':
      return stringFor(schema);
    case 'integer':
      return numberFor(schema, true, cap);
    case 'number':
      return numberFor(schema, false, cap);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const min = schema.minItems ?? 0;
      const max = Math.max(min, Math.min(schema.maxItems ?? 5, 5));
      const items = Array.isArray(schema.prefixItems)
        ? fc.tuple(...schema.prefixItems.map((s: Schema) => arbitraryFor(s, { caps: opts.caps }, depth + 1)))
        : null;
      if (items) return items;
      return fc.array(depth > 4 ? fc.constant(null) : arbitraryFor(schema.items, { caps: opts.caps }, depth + 1), {
        minLength: min,
        maxLength: max,
      });
    }
    case 'object':
      return objectFor(schema, opts, depth);
    default:
      return fc.jsonValue({ maxDepth: 1 });
  }
}

function objectFor(schema: Schema, opts: GenOptions, depth: number): fc.Arbitrary<unknown> {
  const props: Record<string, Schema> = schema.properties ?? {};
  const required: string[] = (schema.required ?? []).filter((k: string) => k in props || schema.additionalProperties !== false);
  const record: Record<string, fc.Arbitrary<unknown>> = {};
  for (const key of new Set([...Object.keys(props), ...required])) {
    record[key] = depth > 6 ? fc.constant(null) : arbitraryFor(props[key], { caps: opts.caps, name: key }, depth + 1);
  }
  const base = fc.record(record, { requiredKeys: required });
  const extra = schema.additionalProperties;
  if (extra && typeof extra === 'object' && Object.keys(props).length === 0) {
    const max = Math.min(schema.maxProperties ?? 4, 4);
    return fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }), arbitraryFor(extra, { caps: opts.caps }, depth + 1), { maxKeys: max });
  }
  return base;
}
