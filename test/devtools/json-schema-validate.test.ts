import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { schemaCacheStats } from '../../src/areas/devtools/json-schema.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';

describe('POST /v1/json-schema-validate: answers and bad input', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  const check = (payload: unknown) =>
    t.app.inject({ method: 'POST', url: '/v1/json-schema-validate', headers: t.auth, payload: payload as object });

  it('answers the first calls, arriving together, each as alone (the validator loads once for all)', async () => {
    const cases = [
      [
        { data: 1, schema: { type: 'integer' } },
        { valid: true, errors: [] },
      ],
      [
        { data: 'x', schema: { type: 'integer' } },
        {
          valid: false,
          error: 'value must be integer',
          path: [],
          schema_path: '#/type',
          errors: [{ error: 'value must be integer', path: [], schema_path: '#/type' }],
        },
      ],
      [
        { data: 'not-an-email', schema: { format: 'email' }, assert_format: true },
        {
          valid: false,
          error: 'value must be a valid email',
          path: [],
          schema_path: '#/format',
          errors: [{ error: 'value must be a valid email', path: [], schema_path: '#/format' }],
        },
      ],
      [
        { data: 'a@b.example', schema: { $schema: 'http://json-schema.org/draft-04/schema#', format: 'email' } },
        { valid: true, errors: [] },
      ],
    ] as const;
    const answers = await Promise.all([...cases, ...cases].map(([payload]) => check(payload)));
    assert.deepEqual(
      answers.map((res) => [res.statusCode, res.json()]),
      [...cases, ...cases].map(([, expected]) => [200, expected]),
    );
  });

  it('valid data answers valid true with no errors', async () => {
    const res = await check({ data: { age: 3 }, schema: { properties: { age: { type: 'integer' } } } });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { valid: true, errors: [] });
  });

  it('a nested failure gives the full path (indices as integers) and the schema path', async () => {
    const schema = {
      type: 'object',
      properties: { user: { type: 'object', properties: { tags: { type: 'array', items: { type: 'string' } } } } },
    };
    const res = await check({ data: { user: { tags: ['a', 2] } }, schema });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), {
      valid: false,
      error: 'value at ["user","tags",1] must be string',
      path: ['user', 'tags', 1],
      schema_path: '#/properties/user/properties/tags/items/type',
      errors: [
        {
          error: 'value at ["user","tags",1] must be string',
          path: ['user', 'tags', 1],
          schema_path: '#/properties/user/properties/tags/items/type',
        },
      ],
    });
  });

  it('every failure is listed; a root failure has path []', async () => {
    const schema = { type: 'object', required: ['name'], properties: { age: { minimum: 0 } }, additionalProperties: false };
    const res = await check({ data: { age: -1, extra: true }, schema });
    const body = res.json();
    assert.equal(body.valid, false);
    assert.deepEqual(
      body.errors.map((e: { path: unknown; schema_path: string }) => [e.path, e.schema_path]),
      [
        [[], '#/required'],
        [['age'], '#/properties/age/minimum'],
        [['extra'], '#/additionalProperties'],
      ],
    );
    assert.equal(body.error, 'value must have required property "name"');
    assert.equal(body.errors[1].error, 'value at ["age"] must be >= 0');
    assert.match(body.errors[2].error, /not allowed by additionalProperties/);
  });

  it('a schema that is not a valid schema is a 422', async () => {
    for (const schema of [{ type: 'strin' }, { minimum: 'a' }, { required: 'name' }, { properties: { a: 5 } }]) {
      const res = await check({ data: {}, schema });
      assert.equal(res.statusCode, 422, JSON.stringify(schema));
      assert.equal(res.json().code, 'validation_error');
      assert.match(res.json().detail, /not a valid draft 2020-12 schema/);
    }
  });

  it('a schema that is not an object or boolean is a 422', async () => {
    const res = await check({ data: {}, schema: 'string' });
    assert.equal(res.statusCode, 422);
    assert.equal(res.json().errors[0].path, 'schema');
  });

  it('a $ref to an unknown URI is a 422 and nothing is fetched (a loopback server sees no request)', async () => {
    let hits = 0;
    const server = createServer((_req, res) => {
      hits++;
      res.setHeader('content-type', 'application/schema+json');
      res.end('{"type":"integer"}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/schema.json`;
    try {
      const res = await check({ data: 1, schema: { $ref: url } });
      assert.equal(res.statusCode, 422);
      assert.equal(res.json().code, 'validation_error');
      assert.match(res.json().detail, /not in schemas \(remote documents are never fetched\)/);
      const meta = await check({ data: 1, schema: { $schema: url.replace('schema.json', 'meta.json') } });
      assert.equal(meta.statusCode, 422);
      assert.equal(hits, 0);
    } finally {
      server.close();
    }
  });

  it('a file: $ref is a 422 and the file is never read', async () => {
    const res = await check({ data: 'x', schema: { $ref: 'file:///etc/passwd' } });
    assert.equal(res.statusCode, 422);
    assert.equal(res.json().code, 'validation_error');
    assert.match(res.json().detail, /\$ref to file:\/\/\/etc\/passwd, which is not in schemas/);
  });

  it('a $ref to a missing local definition is a 422', async () => {
    const res = await check({ data: 1, schema: { $ref: '#/$defs/nothing' } });
    assert.equal(res.statusCode, 422);
    assert.match(res.json().detail, /cannot be resolved|not in schemas/);
  });

  it('schemas supply other documents; a failure inside one has an absolute schema_path', async () => {
    const res = await check({
      data: { home: { zip: 75001 } },
      schema: { properties: { home: { $ref: 'https://example.com/address.json' } } },
      schemas: { 'https://example.com/address.json': { type: 'object', properties: { zip: { type: 'string' } } } },
    });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json().path, ['home', 'zip']);
    assert.equal(res.json().schema_path, 'https://example.com/address.json#/properties/zip/type');
  });

  it('drafts 4-7: a root $ref reaches the definitions beside it (generated schemas), and its other siblings stay ignored', async () => {
    for (const [draft, dialect] of [
      ['4', 'http://json-schema.org/draft-04/schema#'],
      ['6', 'http://json-schema.org/draft-06/schema#'],
      ['7', 'http://json-schema.org/draft-07/schema#'],
    ]) {
      const schema = { $schema: dialect, $ref: '#/definitions/Foo', type: 'array', definitions: { Foo: { type: 'string' } } };
      const bad = await check({ data: 1, schema });
      assert.equal(bad.statusCode, 200, `draft ${draft}: ${bad.body}`);
      assert.deepEqual(bad.json(), {
        valid: false,
        error: 'value must be string',
        path: [],
        schema_path: '#/definitions/Foo/type',
        errors: [{ error: 'value must be string', path: [], schema_path: '#/definitions/Foo/type' }],
      });
      // "type": "array" beside $ref is ignored by these drafts: a string is valid.
      assert.deepEqual((await check({ data: 'x', schema })).json(), { valid: true, errors: [] }, `draft ${draft}`);
      // Selected by `draft`, and nested below the root, the same.
      const nested = { properties: { a: { $ref: '#/properties/a/definitions/N', definitions: { N: { minimum: 5 } } } } };
      assert.equal(
        (await check({ draft, data: { a: 1 }, schema: nested })).json().schema_path,
        '#/properties/a/definitions/N/minimum',
        `draft ${draft}`,
      );
      assert.equal((await check({ draft, data: { a: 6 }, schema: nested })).json().valid, true, `draft ${draft}`);
    }
  });

  it('format "time" accepts a leap second only at 23:59:60 UTC (RFC 3339 §5.6), as date-time does', async () => {
    const valid = ['23:59:60Z', '23:59:60+00:00', '15:59:60-08:00', '01:29:60+01:30', '23:29:60+23:30', '08:30:06.283185Z', '00:00:00z'];
    const invalid = ['22:59:60Z', '23:59:60+01:00', '23:58:60Z', '24:00:00Z', '08:30:06', '8:30:06Z', '12:00:00+24:00', '23:59:61Z'];
    for (const [data, want] of [...valid.map((v) => [v, true] as const), ...invalid.map((v) => [v, false] as const)]) {
      const res = await check({ draft: '7', data, schema: { format: 'time' } });
      assert.equal(res.json().valid, want, data);
    }
  });

  it('hostname, idn-hostname and idn-email decide as the library does, without console output (the library logged each refusal)', async () => {
    const cases: Array<[string, string, boolean]> = [
      ['idn-hostname', 'ÖBB.at', true],
      ['idn-hostname', 'xn--4ca', true],
      ['idn-hostname', '\u05d0\u0031', true],
      ['idn-hostname', 'xn--abc', false],
      ['idn-hostname', '-a', false],
      ['idn-hostname', 'xn--zz', false],
      ['idn-hostname', 'a'.repeat(64), false],
      ['idn-hostname', '\u0300a', false],
      ['idn-hostname', 'ab--c', false],
      ['idn-hostname', 'a.b.', false],
      ['idn-hostname', '', false],
      ['hostname', 'example.com', true],
      ['hostname', 'xn--4ca', true],
      ['hostname', 'ÖBB.at', false],
      ['hostname', 'xn--zz', false],
      ['hostname', '-a', false],
      ['idn-email', 'ü@ÖBB.at', true],
      ['idn-email', '"a@b"@example.com', true],
      ['idn-email', 'a@[127.0.0.1]', true],
      ['idn-email', 'a@[x:b@c]', true],
      ['idn-email', 'a@b..c', false],
      ['idn-email', '.a@b.c', false],
      ['idn-email', 'a@-b.com', false],
      ['idn-email', 'a@xn--zz', false],
      ['idn-email', 'a@', false],
      ['idn-email', 'no-at-sign', false],
    ];
    const written: unknown[] = [];
    const log = console.log;
    console.log = (...args: unknown[]) => void written.push(args);
    try {
      for (const [format, data, want] of cases) {
        const res = await check({ draft: '7', data, schema: { format } });
        assert.equal(res.json().valid, want, `${format} ${JSON.stringify(data)}`);
      }
    } finally {
      console.log = log;
    }
    assert.deepEqual(written, []);
  });

  it('idn-email answers at once on long non-ASCII text (the library\'s pattern backtracked for seconds on 29 "ü")', async () => {
    for (const data of ['ü'.repeat(40), `${'ü'.repeat(5000)}@`, `${'ü'.repeat(5000)}@${'ü'.repeat(5000)}!`]) {
      const started = Date.now();
      const res = await check({ draft: '7', data, schema: { format: 'idn-email' } });
      assert.equal(res.json().valid, false);
      assert.ok(Date.now() - started < 1000, `${Date.now() - started} ms`);
    }
  });

  it('a chain of anyOf over references (exponential work) is stopped with a 422, and the server keeps answering', async () => {
    const n = 30;
    const defs = Object.fromEntries(
      Array.from({ length: n }, (_, i) => [`a${i}`, { anyOf: [{ $ref: `#/$defs/a${i + 1}` }, { $ref: `#/$defs/a${i + 1}` }] }]),
    );
    const started = Date.now();
    const res = await check({ data: 1, schema: { $ref: '#/$defs/a0', $defs: { ...defs, [`a${n}`]: false } } });
    assert.equal(res.statusCode, 422, res.body.slice(0, 300));
    assert.equal(res.json().code, 'validation_error');
    assert.ok(Date.now() - started < 5000, `${Date.now() - started} ms`);
    assert.equal((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode, 200);
    // An ordinary schema with references still validates (on the worker).
    const ok = await check({ data: { a: 'x' }, schema: { $defs: { s: { type: 'string' } }, properties: { a: { $ref: '#/$defs/s' } } } });
    assert.deepEqual(ok.json(), { valid: true, errors: [] });
  });

  it('draft "5" is a 422 listing the drafts', async () => {
    const res = await check({ data: 1, schema: {}, draft: '5' });
    assert.equal(res.statusCode, 422);
    assert.equal(res.json().errors[0].path, 'draft');
    assert.match(res.json().errors[0].message, /"4", "6", "7", "2019-09", "2020-12"/);
  });

  it('$schema picks the draft, and draft overrides it', async () => {
    const draft4 = { $schema: 'http://json-schema.org/draft-04/schema#', maximum: 5, exclusiveMaximum: true };
    assert.equal((await check({ data: 5, schema: draft4 })).json().valid, false);
    assert.equal((await check({ data: 4, schema: draft4 })).json().valid, true);
    // boolean exclusiveMaximum is not a 2020-12 schema
    assert.equal((await check({ data: 5, schema: draft4, draft: '2020-12' })).statusCode, 422);
    assert.equal((await check({ data: 5, schema: { maximum: 5, exclusiveMaximum: true }, draft: '4' })).json().valid, false);
  });

  it('format is asserted by drafts 4-7, annotation-only in 2019-09/2020-12 unless assert_format', async () => {
    const schema = { format: 'email' };
    assert.equal((await check({ data: 'nope', schema, draft: '7' })).json().valid, false);
    assert.equal((await check({ data: 'nope', schema, draft: '4' })).json().valid, false);
    assert.equal((await check({ data: 'nope', schema })).json().valid, true);
    assert.equal((await check({ data: 'nope', schema, draft: '2019-09' })).json().valid, true);
    const asserted = await check({ data: 'nope', schema, assert_format: true });
    assert.equal(asserted.json().valid, false);
    assert.equal(asserted.json().error, 'value must be a valid email');
    assert.equal((await check({ data: 'a@example.com', schema, assert_format: true })).json().valid, true);
  });

  it('assert_format asserts every known format under every draft, also those a draft does not define (uuid, date under draft 4)', async () => {
    const cases: [string, string, string][] = [
      ['uuid', '1234', '123e4567-e89b-12d3-a456-426614174000'],
      ['date', '2020-02-30', '2020-02-29'],
      ['time', '25:00:00Z', '23:59:59Z'],
      ['uri-reference', '\\\\WINDOWS\\fileshare', '/a/b?c'],
      ['json-pointer', 'a/b', '/a/b'],
      ['regex', '(', '^a+$'],
      ['duration', 'P', 'P1D'],
      ['email', 'nope', 'a@example.com'],
    ];
    for (const draft of ['4', '6', '7', '2019-09', '2020-12']) {
      for (const [format, bad, good] of cases) {
        const schema = { type: 'string', format };
        const refused = (await check({ data: bad, schema, draft, assert_format: true })).json();
        assert.equal(refused.valid, false, `${format} ${JSON.stringify(bad)} under draft ${draft}`);
        assert.equal(refused.error, `value must be a valid ${format}`);
        assert.equal(
          (await check({ data: good, schema, draft, assert_format: true })).json().valid,
          true,
          `${format} ${good} under draft ${draft}`,
        );
      }
    }
    // Without the flag, a draft asserts only the formats it defines itself (draft 4 has no uuid), as the suite requires.
    assert.equal((await check({ data: '1234', schema: { format: 'uuid' }, draft: '4' })).json().valid, true);
    assert.equal((await check({ data: '1234', schema: { format: 'uuid' }, draft: '7' })).json().valid, true);
    assert.equal((await check({ data: '2020-02-30', schema: { format: 'date' }, draft: '7' })).json().valid, false);
    // An unknown format name passes, with the flag or without.
    assert.equal((await check({ data: 'x', schema: { format: 'no-such-format' }, draft: '4', assert_format: true })).json().valid, true);
  });

  it('a $ref cycle that never reads deeper into the data is a 422 on the schema, not on the data', async () => {
    for (const schema of [
      { $defs: { a: { $ref: '#/$defs/b' }, b: { $ref: '#/$defs/a' } }, $ref: '#/$defs/a' },
      { $defs: { a: { allOf: [{ $ref: '#/$defs/a' }] } }, $ref: '#/$defs/a' },
    ]) {
      const res = await check({ data: 1, schema });
      assert.equal(res.statusCode, 422, res.body);
      assert.deepEqual(res.json().errors, [
        { path: 'schema', message: 'recurses without end: a $ref cycle that never reads deeper into the data' },
      ]);
    }
    // Recursion that follows the data down is fine, 999 levels deep.
    const deep = JSON.parse(`${'['.repeat(999)}${']'.repeat(999)}`);
    const nested = await check({
      data: deep,
      schema: { $defs: { n: { type: 'array', items: { $ref: '#/$defs/n' } } }, $ref: '#/$defs/n' },
    });
    assert.deepEqual(nested.json(), { valid: true, errors: [] });
  });

  it('__proto__ and constructor keys in data and schema are ordinary keys', async () => {
    const schema = JSON.parse(
      '{"required": ["__proto__", "constructor"], "properties": {"__proto__": {"type": "integer"}, "constructor": {"type": "integer"}}}',
    );
    const missing = await check({ data: {}, schema });
    assert.equal(missing.json().valid, false);
    assert.equal(missing.json().error, 'value must have required properties "__proto__", "constructor"');
    const ok = await check({ data: JSON.parse('{"__proto__": 1, "constructor": 2}'), schema });
    assert.deepEqual(ok.json(), { valid: true, errors: [] });
    const wrong = await check({ data: JSON.parse('{"__proto__": "x", "constructor": 2}'), schema });
    assert.deepEqual(wrong.json().path, ['__proto__']);
    assert.equal(wrong.json().schema_path, '#/properties/__proto__/type');
  });

  it('deeply nested data (depth 900) against a recursive schema answers without a 5xx', async () => {
    const schema = { type: 'array', items: { $ref: '#' } };
    const deep = JSON.parse('['.repeat(900) + ']'.repeat(900));
    const res = await check({ data: deep, schema });
    assert.ok(res.statusCode === 200 || res.statusCode === 422, res.body);
    if (res.statusCode === 200) assert.equal(res.json().valid, true);
    const bad = JSON.parse('['.repeat(900) + '1' + ']'.repeat(900));
    const res2 = await check({ data: bad, schema });
    assert.ok(res2.statusCode === 200 || res2.statusCode === 422, res2.body);
    if (res2.statusCode === 200) assert.equal(res2.json().path.length, 900);
  });

  it('a schema nested deeper than 100 levels is a 422', async () => {
    const schema = JSON.parse('{"items":'.repeat(120) + '{}' + '}'.repeat(120));
    const res = await check({ data: [], schema });
    assert.equal(res.statusCode, 422);
    assert.match(res.json().detail, /deeper than 100 levels/);
  });

  it('a repeated schema is compiled once (cache)', async () => {
    const schema = { type: 'object', properties: { cacheProbe: { type: 'string', minLength: 3 } } };
    await check({ data: { cacheProbe: 'abc' }, schema });
    const before = schemaCacheStats().compiles;
    for (let i = 0; i < 5; i++) {
      const res = await check({ data: { cacheProbe: i % 2 ? 'abcd' : 'a' }, schema });
      assert.equal(res.json().valid, i % 2 === 1);
    }
    assert.equal(schemaCacheStats().compiles, before);
  });

  it('a schema found again among recent ones keeps its draft, format assertion and documents apart', async () => {
    // Same schema object, different settings: each is its own compilation with its own answer.
    const schema = { properties: { recentProbe: { format: 'email' } } };
    const data = { recentProbe: 'not an email' };
    for (let i = 0; i < 2; i++) {
      assert.equal((await check({ data, schema })).json().valid, true);
      assert.equal((await check({ data, schema, assert_format: true })).json().valid, false);
      assert.equal((await check({ data, schema, draft: '7' })).json().valid, false);
    }
    // The same keys in another order are another text, compiled once more, with the same answer.
    const reordered = { properties: { recentProbe: { minLength: 20, type: 'string' } } };
    const ordered = { properties: { recentProbe: { type: 'string', minLength: 20 } } };
    const before = schemaCacheStats().compiles;
    for (const s of [ordered, reordered, ordered, reordered]) assert.equal((await check({ data, schema: s })).json().valid, false);
    assert.equal(schemaCacheStats().compiles, before + 2);
    // A document under `schemas` changed (same root schema): the new document is the one used.
    const root = { $ref: 'https://example.test/recent.json' };
    for (const [type, valid] of [
      ['string', true],
      ['integer', false],
      ['string', true],
    ] as const) {
      const res = await check({ data: 'x', schema: root, schemas: { 'https://example.test/recent.json': { type } } });
      assert.equal(res.statusCode, 200);
      assert.equal(res.json().valid, valid, type);
    }
  });

  it('concurrent requests whose schemas share an $id each get their own answer', async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        check({
          data: i % 2 ? 'text' : 5,
          schema: { $id: 'https://example.com/same.json', type: i % 2 ? 'string' : 'integer', minLength: 0, maximum: 100 + i },
        }),
      ),
    );
    for (const res of results) assert.deepEqual(res.json(), { valid: true, errors: [] });
  });

  it('a schema with a pattern validates on a worker with the same answers', async () => {
    const schema = {
      properties: { code: { type: 'string', pattern: '^[A-Z]{3}-\\d+$' } },
      patternProperties: { '^x-': { type: 'integer' } },
    };
    assert.deepEqual((await check({ data: { code: 'ABC-12', 'x-n': 1 }, schema })).json(), { valid: true, errors: [] });
    const bad = (await check({ data: { code: 'abc', 'x-n': 'one' }, schema })).json();
    assert.equal(bad.valid, false);
    assert.deepEqual(
      bad.errors.map((e: { path: unknown }) => e.path),
      [['code'], ['x-n']],
    );
    assert.equal(bad.errors[0].error, 'value at ["code"] must match the pattern "^[A-Z]{3}-\\\\d+$"');
    assert.equal((await check({ data: 'x', schema: { pattern: '(' } })).statusCode, 422);
  });

  it('a catastrophically backtracking pattern answers 422 regex_timeout while other requests are served', async () => {
    const started = Date.now();
    const slow = check({ data: 'a'.repeat(40) + '!', schema: { type: 'string', pattern: '^(a+)+$' } });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const quickStart = Date.now();
    const quick = await check({ data: 1, schema: { type: 'integer' } });
    assert.equal(quick.statusCode, 200);
    assert.ok(Date.now() - quickStart < 500, 'the event loop is not blocked');
    const res = await slow;
    assert.equal(res.statusCode, 422);
    assert.equal(res.json().code, 'regex_timeout');
    assert.ok(Date.now() - started < 3000);
    // the replaced worker still serves
    assert.deepEqual((await check({ data: 'aaa', schema: { pattern: '^a+$' } })).json(), { valid: true, errors: [] });
  });

  it('large data validates on a worker with exact paths', async () => {
    const data = Array.from({ length: 5000 }, (_, i) => ({ id: i === 4321 ? 'x' : i, name: `n${i}` }));
    const res = await check({ data, schema: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' } } } } });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json().path, [4321, 'id']);
    assert.equal(res.json().errors.length, 1);
  });

  it('a validation that would run for long is stopped with 422 validation_error', async () => {
    const anyOf = Array.from({ length: 2000 }, (_, i) => ({ required: [`k${i}`] }));
    const data = Array.from({ length: 100_000 }, () => ({}));
    const started = Date.now();
    const res = await check({ data, schema: { type: 'array', items: { anyOf } } });
    assert.equal(res.statusCode, 422);
    assert.equal(res.json().code, 'validation_error');
    assert.match(res.json().detail, /ran longer than 1000 ms/);
    assert.ok(Date.now() - started < 15_000);
  });
});
