import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { planMockData } from '../../src/areas/devtools/mock-data/generate.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';

const NAME = [{ name: 'n', type: 'name' }];

/** Each case: request body → the 422 `errors[]` entry it must produce (path and message pattern). */
const CASES: { title: string; body: unknown; path: string; message: RegExp }[] = [
  { title: 'rows 0', body: { fields: NAME, rows: 0 }, path: 'rows', message: />= 1/ },
  { title: 'rows 1001', body: { fields: NAME, rows: 1001 }, path: 'rows', message: /<= 1000/ },
  { title: 'rows 2.5', body: { fields: NAME, rows: 2.5 }, path: 'rows', message: /integer/ },
  { title: 'rows as a string', body: { fields: NAME, rows: '10' }, path: 'rows', message: /integer/ },
  { title: 'no fields', body: { rows: 1 }, path: 'fields', message: /required/ },
  { title: 'empty fields', body: { fields: [], rows: 1 }, path: 'fields', message: /fewer than 1/ },
  {
    title: 'unknown type (lists the valid ones)',
    body: { fields: [{ name: 'x', type: 'nope' }] },
    path: 'fields[0].type',
    message: /"sequence".*"price".*"regex"/,
  },
  { title: 'empty field name', body: { fields: [{ name: '', type: 'name' }] }, path: 'fields[0].name', message: /fewer than 1/ },
  {
    title: 'field name over 64 characters',
    body: { fields: [{ name: 'x'.repeat(65), type: 'name' }] },
    path: 'fields[0].name',
    message: /more than 64/,
  },
  {
    title: 'duplicate field names',
    body: {
      fields: [
        { name: 'a', type: 'name' },
        { name: 'a', type: 'email' },
      ],
    },
    path: 'fields[1].name',
    message: /unique/,
  },
  {
    title: 'price min > max',
    body: { fields: [{ name: 'p', type: 'price', options: { min: 10, max: 5 } }] },
    path: 'fields[0].options.max',
    message: /min \(10\)/,
  },
  {
    title: 'negative price',
    body: { fields: [{ name: 'p', type: 'price', options: { min: -1 } }] },
    path: 'fields[0].options.min',
    message: />= 0/,
  },
  {
    title: 'price decimals 11',
    body: { fields: [{ name: 'p', type: 'price', options: { decimals: 11 } }] },
    path: 'fields[0].options.decimals',
    message: /<= 10/,
  },
  {
    title: 'number range holding no value with the decimals',
    body: { fields: [{ name: 'p', type: 'number', options: { min: 1.001, max: 1.009, decimals: 2 } }] },
    path: 'fields[0].options.decimals',
    message: /no value/,
  },
  {
    title: 'integer min > max',
    body: { fields: [{ name: 'i', type: 'integer', options: { min: 3, max: 2 } }] },
    path: 'fields[0].options.max',
    message: /min/,
  },
  {
    title: 'integer min as a string',
    body: { fields: [{ name: 'i', type: 'integer', options: { min: '3' } }] },
    path: 'fields[0].options.min',
    message: /integer/,
  },
  {
    title: 'date from after to',
    body: { fields: [{ name: 'd', type: 'date', options: { from: '2024-01-02', to: '2024-01-01' } }] },
    path: 'fields[0].options.to',
    message: /from/,
  },
  {
    title: 'date from not a date',
    body: { fields: [{ name: 'd', type: 'datetime', options: { from: 'yesterday' } }] },
    path: 'fields[0].options.from',
    message: /date/,
  },
  {
    title: 'regex without pattern',
    body: { fields: [{ name: 'r', type: 'regex' }] },
    path: 'fields[0].options.pattern',
    message: /required/,
  },
  {
    title: 'regex with an invalid pattern',
    body: { fields: [{ name: 'r', type: 'regex', options: { pattern: '(a' } }] },
    path: 'fields[0].options.pattern',
    message: /^is not a valid regular expression: Unterminated group$/,
  },
  {
    title: 'regex with a class nothing belongs to',
    body: { fields: [{ name: 'r', type: 'regex', options: { pattern: 'id-[^\\s\\S]' } }] },
    path: 'fields[0].options.pattern',
    message: /no character to draw from/,
  },
  {
    title: 'regex with a negated class that excludes all of printable ASCII',
    body: { fields: [{ name: 'r', type: 'regex', options: { pattern: '[^ -~]' } }] },
    path: 'fields[0].options.pattern',
    message: /negated classes draw from printable ASCII/,
  },
  {
    title: 'regex a{1000000}',
    body: { fields: [{ name: 'r', type: 'regex', options: { pattern: 'a{1000000}' } }] },
    path: 'fields[0].options.pattern',
    message: /up to 1000000 characters; the limit is 1000/,
  },
  {
    title: 'regex nested repetition too long',
    body: { fields: [{ name: 'r', type: 'regex', options: { pattern: '((ab){40}){40}' } }] },
    path: 'fields[0].options.pattern',
    message: /3200 characters/,
  },
  {
    title: 'regex lookahead',
    body: { fields: [{ name: 'r', type: 'regex', options: { pattern: '(?=a)a' } }] },
    path: 'fields[0].options.pattern',
    message: /lookahead/,
  },
  {
    title: 'regex lookbehind',
    body: { fields: [{ name: 'r', type: 'regex', options: { pattern: '(?<=a)b' } }] },
    path: 'fields[0].options.pattern',
    message: /^lookaheads and lookbehinds are not supported$/,
  },
  {
    title: 'regex with a Unicode property escape (it would be the text "p{L}" without the u flag)',
    body: { fields: [{ name: 'r', type: 'regex', options: { pattern: '\\p{L}{3}' } }] },
    path: 'fields[0].options.pattern',
    message: /^uses a Unicode property escape \(\\p\{…\}\), which patterns here do not support/,
  },
  {
    title: 'regex lookbehind',
    body: { fields: [{ name: 'r', type: 'regex', options: { pattern: '(?<=a)b' } }] },
    path: 'fields[0].options.pattern',
    message: /not support/,
  },
  {
    title: 'regex max_repeat 101',
    body: { fields: [{ name: 'r', type: 'regex', options: { pattern: 'a+', max_repeat: 101 } }] },
    path: 'fields[0].options.max_repeat',
    message: /<= 100/,
  },
  {
    title: 'enum without values',
    body: { fields: [{ name: 'e', type: 'enum', options: {} }] },
    path: 'fields[0].options.values',
    message: /required/,
  },
  {
    title: 'enum with empty values',
    body: { fields: [{ name: 'e', type: 'enum', options: { values: [] } }] },
    path: 'fields[0].options.values',
    message: /fewer than 1/,
  },
  {
    title: 'constant without value',
    body: { fields: [{ name: 'c', type: 'constant' }] },
    path: 'fields[0].options.value',
    message: /required/,
  },
  {
    title: 'unknown option',
    body: { fields: [{ name: 'n', type: 'name', options: { colour: 'red' } }] },
    path: 'fields[0].options.colour',
    message: /not an option/,
  },
  {
    title: 'options not an object',
    body: { fields: [{ name: 'n', type: 'name', options: [1] }] },
    path: 'fields[0].options',
    message: /object/,
  },
  {
    title: 'null_ratio 1.5',
    body: { fields: [{ name: 'n', type: 'name', options: { nullable: true, null_ratio: 1.5 } }] },
    path: 'fields[0].options.null_ratio',
    message: /<= 1/,
  },
  { title: 'unknown locale', body: { fields: NAME, locale: 'xx_YY' }, path: 'locale', message: /not a supported locale/ },
  { title: 'language-only locale', body: { fields: NAME, locale: 'de' }, path: 'locale', message: /not a supported locale/ },
  { title: 'unknown output format', body: { fields: NAME, output_format: 'yaml' }, path: 'output_format', message: /"json"/ },
  { title: 'seed not an integer', body: { fields: NAME, seed: 1.5 }, path: 'seed', message: /integer/ },
  { title: 'empty table_name', body: { fields: NAME, table_name: '' }, path: 'table_name', message: /fewer than 1/ },
  { title: 'unknown top-level field', body: { fields: NAME, count: 3 }, path: 'count', message: /not a known field/ },
];

describe('POST /v1/mock-data refuses bad input with 422', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  for (const c of CASES) {
    it(c.title, async () => {
      const res = await t.app.inject({ method: 'POST', url: '/v1/mock-data', headers: t.auth, payload: c.body as object });
      assert.equal(res.statusCode, 422, res.body);
      const body = res.json();
      assert.equal(body.code, 'validation_error');
      const entry = body.errors.find((e: { path: string }) => e.path === c.path);
      assert.ok(entry, `no error on ${c.path}: ${res.body}`);
      assert.match(entry.message, c.message);
    });
  }

  it('a type whose data a locale lacks (az_AZ has no name prefixes) is a 422 on that field, not a 500', async () => {
    for (const [locale, type] of [
      ['az_AZ', 'prefix'],
      ['az_AZ', 'state'],
      ['en_HK', 'zip_code'],
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/mock-data',
        headers: t.auth,
        payload: { fields: [{ name: 'x', type }], locale },
      });
      assert.equal(res.statusCode, 422, `${locale} ${type}: ${res.body}`);
      assert.deepEqual(
        res.json().errors.map((e: { path: string }) => e.path),
        ['fields[0]'],
      );
      assert.match(res.json().detail, /cannot be generated with these options in this locale \(The locale data for/);
    }
  });

  it('every type with its default options in every locale answers 200 or 422, never a 5xx', async () => {
    const types = (await t.app.inject({ method: 'GET', url: '/v1/mock-data/types', headers: t.auth })).json().types as { name: string }[];
    const locales = (
      await t.app.inject({ method: 'POST', url: '/v1/mock-data', headers: t.auth, payload: { fields: NAME, locale: 'en_XX' } })
    )
      .json()
      .detail.match(/[a-z]{2,3}_[A-Z]{2}/g) as string[];
    assert.ok(types.length >= 50 && locales.length >= 20, `${types.length} types, ${locales.length} locales`);
    for (const locale of locales) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/mock-data',
        headers: t.auth,
        payload: { fields: types.map((x, i) => ({ name: `f${i}`, type: x.name })), locale, rows: 1 },
      });
      assert.ok(res.statusCode < 500, `${locale}: ${res.body.slice(0, 300)}`);
      for (const type of types) {
        const one = await t.app.inject({
          method: 'POST',
          url: '/v1/mock-data',
          headers: t.auth,
          payload: { fields: [{ name: 'x', type: type.name }], locale, rows: 2, seed: 3 },
        });
        assert.ok(one.statusCode === 200 || one.statusCode === 422, `${locale} ${type.name}: ${one.statusCode} ${one.body.slice(0, 200)}`);
      }
    }
  });

  it('a regex whose nested repetitions could take unbounded steps to draw ((((()*)*)*)*)*) is a 422, answered at once', async () => {
    const started = Date.now();
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/mock-data',
      headers: t.auth,
      payload: { fields: [{ name: 'r', type: 'regex', options: { pattern: '((((()*)*)*)*)*', max_repeat: 100 } }], rows: 1 },
    });
    assert.equal(res.statusCode, 422, res.body);
    assert.equal(res.json().errors[0].path, 'fields[0].options.pattern');
    assert.match(res.json().errors[0].message, /nests repetitions/);
    assert.ok(Date.now() - started < 1000);
    const fine = await t.app.inject({
      method: 'POST',
      url: '/v1/mock-data',
      headers: t.auth,
      payload: { fields: [{ name: 'r', type: 'regex', options: { pattern: '(ab|cd)*-[A-Z]{3}' } }], rows: 3, seed: 1 },
    });
    assert.equal(fine.statusCode, 200);
  });

  it('a date bound that parses to no instant (a leap second) is a 422 on the field', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/mock-data',
      headers: t.auth,
      payload: { fields: [{ name: 'x', type: 'datetime', options: { from: '2016-12-31T23:59:60Z' } }] },
    });
    assert.equal(res.statusCode, 422, res.body);
    assert.match(res.json().detail, /Invalid from date/);
  });

  it('every bad field is listed, with a bad locale, one entry each (not only the first found)', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/mock-data',
      headers: t.auth,
      payload: {
        rows: 5,
        locale: 'xx_XX',
        fields: [
          { name: 'b', type: 'price', options: { decimals: 11 } },
          { name: 'c', type: 'enum', options: {} },
          { name: 'ok', type: 'name' },
          { name: 'b', type: 'email' },
          { name: 'd', type: 'integer', options: { min: 5, max: 1 } },
        ],
      },
    });
    assert.equal(res.statusCode, 422);
    assert.deepEqual(
      res.json().errors.map((e: { path: string }) => e.path),
      ['locale', 'fields[0].options.decimals', 'fields[1].options.values', 'fields[3].name', 'fields[4].options.max'],
    );
    assert.match(res.json().detail, /^Invalid request: locale .*; fields\[0\]\.options\.decimals .*; fields\[4\]\.options\.max /);
    // One problem alone keeps its own detail.
    const one = await t.app.inject({ method: 'POST', url: '/v1/mock-data', headers: t.auth, payload: { fields: NAME, locale: 'en_XX' } });
    assert.deepEqual(
      one.json().errors.map((e: { path: string }) => e.path),
      ['locale'],
    );
    assert.match(one.json().detail, /^Unknown locale "en_XX"/);
  });

  it("a duplicate field name is a 422 whose detail starts with the second one's path", async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/mock-data',
      headers: t.auth,
      payload: {
        fields: [
          { name: 'id', type: 'uuid' },
          { name: 'id', type: 'integer' },
        ],
        rows: 2,
      },
    });
    assert.equal(res.statusCode, 422, res.body);
    assert.deepEqual(res.json(), {
      detail: 'fields[1].name "id" is a duplicate: each field name must be unique.',
      code: 'validation_error',
      errors: [{ path: 'fields[1].name', message: 'must be unique' }],
    });
  });

  it('the unknown-locale detail lists the supported locales', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/mock-data', headers: t.auth, payload: { fields: NAME, locale: 'en_XX' } });
    assert.match(res.json().detail, /Supported: .*de_DE.*en_US.*fr_FR.*ja_JP/);
  });

  it('accepts ll-CC as well as ll_CC, and maps language-only faker locales (ja_JP, fr_FR)', async () => {
    for (const locale of ['en-US', 'ja_JP', 'fr_FR', 'pt_BR', 'de_CH']) {
      const res = await t.app.inject({ method: 'POST', url: '/v1/mock-data', headers: t.auth, payload: { fields: NAME, locale, rows: 1 } });
      assert.equal(res.statusCode, 200, `${locale}: ${res.body}`);
    }
  });

  it('a refused call costs no credit', async () => {
    const key = await t.newKey('free');
    const headers = { 'x-api-key': key.secret };
    await t.app.inject({ method: 'POST', url: '/v1/mock-data', headers, payload: { fields: NAME, rows: 0 } });
    const account = await t.app.inject({ method: 'GET', url: '/v1/account', headers });
    assert.equal(account.json().credits.used, 0);
  });

  it('refuses output larger than 10 million characters instead of building it', async () => {
    const fields = Array.from({ length: 50 }, (_, i) => ({ name: `p${i}`, type: 'regex', options: { pattern: 'x{1000}' } }));
    const res = await t.app.inject({ method: 'POST', url: '/v1/mock-data', headers: t.auth, payload: { fields, rows: 1000 } });
    assert.equal(res.statusCode, 422);
    assert.match(res.json().detail, /exceed 10000000 characters/);
    // Known before anything is drawn (each value is at least 1000 characters): no worker runs for seconds first.
    assert.throws(() => planMockData({ fields, rows: 1000 }), /exceed 10000000 characters/);
    assert.equal(planMockData({ fields, rows: 200 }).cost > 0, true, '10 million characters exactly is allowed');
  });
});

describe('POST /v1/mock-data bounds output built from large constants', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  it('a 100 kB constant object repeated over 1000 rows is refused, not built', async () => {
    const value = { blob: Array.from({ length: 10_000 }, (_, i) => `item-${i}`) };
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/mock-data',
      headers: t.auth,
      payload: { fields: [{ name: 'c', type: 'constant', options: { value } }], rows: 1000 },
    });
    assert.equal(res.statusCode, 422);
    assert.match(res.json().detail, /exceed 10000000 characters/);
    // Refused when planned: a constant's (and an enum's shortest) value counts for every row.
    assert.throws(
      () => planMockData({ fields: [{ name: 'c', type: 'constant', options: { value } }], rows: 1000 }),
      /exceed 10000000 characters/,
    );
    assert.throws(
      () => planMockData({ fields: [{ name: 'e', type: 'enum', options: { values: [value, { ...value, x: 1 }] } }], rows: 1000 }),
      /exceed 10000000 characters/,
    );
    assert.equal(
      planMockData({ fields: [{ name: 'e', type: 'enum', options: { values: [value, 1] } }], rows: 1000 }).cost > 0,
      true,
      'a short value among them: decided while drawing',
    );
  });
});
