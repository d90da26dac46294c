import fc from 'fast-check';
import { bodyArbitrary, NASTY_STRINGS, type FuzzBody } from './mutations.js';
import { arbitraryFor, COST_CAPS, type Schema } from './schema-arbitrary.js';

/** One operation of /openapi.json. */
export interface Operation {
  method: string;
  path: string;
  op: Schema;
}

/** One generated request, ready for `app.inject()`. */
export interface FuzzRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
  label: string;
}

/** Path parameter values that name real things (filled in by the test after it creates them). */
export type IdPool = Record<string, string[]>;

const QUERY_DAMAGE = ['abc', '', '1.5', '-1', '1e3', '0x10', ' 1', '99999999999999999999', 'true', '[]', '%', '%zz', '\u0000'];

/** Percent-encode the UTF-8 bytes of `s` (lone surrogates become U+FFFD instead of throwing). */
export function percentEncode(s: string): string {
  return [...Buffer.from(s, 'utf8')]
    .map((b) => (/[A-Za-z0-9_.~-]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).padStart(2, '0')}`))
    .join('');
}

function queryValue(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function queryArbitrary(params: Schema[], caps: Record<string, number>): fc.Arbitrary<{ label: string; pairs: [string, string][] }> {
  const entries = params.map((p) => {
    const pair = arbitraryFor(p.schema, { caps, name: p.name }).map((v) => [p.name, queryValue(v)] as [string, string]);
    return p.required ? pair : fc.option(pair, { nil: undefined, freq: 2 });
  });
  const valid = fc.tuple(...entries).map((xs) => xs.filter((x): x is [string, string] => x !== undefined));
  const names = params.map((p) => p.name as string);
  const name = names.length ? fc.constantFrom(...names) : fc.constant('q');
  const replace = (pairs: [string, string][], k: string, v: string): [string, string][] => [...pairs.filter(([n]) => n !== k), [k, v]];
  return fc.oneof(
    { weight: 4, arbitrary: valid.map((pairs) => ({ label: 'valid', pairs })) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(valid, name, fc.constantFrom(...QUERY_DAMAGE))
        .map(([p, k, v]) => ({ label: `bad ${k}`, pairs: replace(p, k, v) })),
    },
    { weight: 1, arbitrary: fc.tuple(valid, name).map(([p, k]) => ({ label: `missing ${k}`, pairs: p.filter(([n]) => n !== k) })) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(valid, name)
        .map(([p, k]) => ({ label: `repeated ${k}`, pairs: [...p, [k, '1'], [k, '2']] as [string, string][] })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(valid, name, fc.constantFrom(...NASTY_STRINGS))
        .map(([p, k, v]) => ({ label: `unicode ${k}`, pairs: replace(p, k, v) })),
    },
    { weight: 1, arbitrary: fc.tuple(valid, name).map(([p, k]) => ({ label: `huge ${k}`, pairs: replace(p, k, 'a'.repeat(100_000)) })) },
    {
      weight: 1,
      arbitrary: valid.map((p) => ({
        label: 'prototype keys',
        pairs: [...p, ['__proto__', 'x'], ['constructor', 'x'], ['__proto__[polluted]', 'yes'], ['prototype', '1']] as [string, string][],
      })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(valid, fc.string({ minLength: 1, maxLength: 10 }))
        .map(([p, k]) => ({ label: 'extra param', pairs: [...p, [k, 'x']] as [string, string][] })),
    },
  );
}

function pathValue(name: string, pool: IdPool): fc.Arbitrary<string> {
  const real = pool[name] ?? [];
  const fake = fc.oneof(
    fc.constantFrom(...NASTY_STRINGS.filter((s) => s !== '')),
    fc.string({ minLength: 1, maxLength: 40 }),
    fc.constant('x'.repeat(2000)),
  );
  return (real.length ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...real) }, { weight: 1, arbitrary: fake }) : fake).map(
    percentEncode,
  );
}

/**
 * Requests for one operation: path parameters from the pool (or damaged), query from the
 * parameter schemas, body from the request body schema, and sometimes a missing or wrong key.
 *
 * @example
 *   fc.sample(requestArbitrary({ method: 'get', path: '/healthz', op: {} }, {}, {}), 1)[0].url // '/healthz'
 */
export function requestArbitrary(
  operation: Operation,
  pool: IdPool,
  auth: Record<string, string>,
  safe?: (b: unknown) => unknown,
): fc.Arbitrary<FuzzRequest> {
  const { method, path, op } = operation;
  const caps = COST_CAPS[`${method.toUpperCase()} ${path}`] ?? {};
  const params: Schema[] = op.parameters ?? [];
  const pathNames = params.filter((p) => p.in === 'path').map((p) => p.name as string);
  const pathArb = fc
    .tuple(...pathNames.map((n) => pathValue(n, pool)))
    .map((vals) => pathNames.reduce((u, n, i) => u.replace(`{${n}}`, vals[i]), path));
  const query = queryArbitrary(
    params.filter((p) => p.in === 'query'),
    caps,
  );
  const media = op.requestBody?.content?.['application/json'];
  const bodySchema = media?.schema;
  const documented = [
    ...Object.values<Schema>(media?.examples ?? {}).map((e) => e.value),
    ...(media?.example !== undefined ? [media.example] : []),
  ];
  const body: fc.Arbitrary<FuzzBody> = bodySchema
    ? bodyArbitrary(bodySchema, caps, safe, documented)
    : fc.constantFrom<FuzzBody>({ label: 'no body' }, { label: 'stray body', payload: '{"a":1}', contentType: 'application/json' });
  const keyChoice = fc.oneof(
    { weight: 12, arbitrary: fc.constant(auth) },
    {
      weight: 1,
      arbitrary: fc.constantFrom<Record<string, string>>({}, { 'x-api-key': 'dk_wrong' }, { 'x-api-key': '' }, { 'x-admin-token': 'nope' }),
    },
  );
  return fc.tuple(pathArb, query, body, keyChoice).map(([url, q, b, headers]) => {
    const qs = q.pairs.map(([k, v]) => `${percentEncode(k)}=${percentEncode(v)}`).join('&');
    const h: Record<string, string> = { ...headers };
    if (b.contentType !== undefined) h['content-type'] = b.contentType;
    return {
      method: method.toUpperCase(),
      url: qs ? `${url}?${qs}` : url,
      headers: h,
      payload: b.payload,
      label: `query ${q.label}; body ${b.label}`,
    };
  });
}
