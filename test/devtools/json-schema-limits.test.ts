import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createCompileCache } from '../../src/areas/devtools/json-schema-cache.js';
import { SCHEMA_LIMITS, schemaCacheStats } from '../../src/areas/devtools/json-schema.js';
import { JSON_BODY_LIMIT } from '../../src/http/json-body.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';

describe('POST /v1/json-schema-validate: limits, compile cache, draft from $schema', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  const check = (payload: unknown) =>
    t.app.inject({ method: 'POST', url: '/v1/json-schema-validate', headers: t.auth, payload: payload as object });

  it('the limits are the documented ones, and the largest schema fits in a request body', () => {
    assert.equal(SCHEMA_LIMITS.maxBytes, 1024 * 1024);
    assert.equal(SCHEMA_LIMITS.maxDocuments, 100);
    assert.equal(SCHEMA_LIMITS.cacheEntries, 500);
    assert.equal(SCHEMA_LIMITS.cacheBytes, 32 * 1024 * 1024);
    assert.ok(SCHEMA_LIMITS.maxBytes + 1000 < JSON_BODY_LIMIT);
  });

  describe('size of schema plus schemas (1 MiB of JSON)', () => {
    // The size measured is the JSON text of [draft, assert_format, schema, schemas] (the cache key):
    // a description string is padded so that text is exactly at the limit, or one character over.
    const overhead = JSON.stringify(['2020-12', false, { description: '' }, []]).length;
    const padded = (extra: number) => ({ description: 'x'.repeat(SCHEMA_LIMITS.maxBytes - overhead + extra) });
    const tooLarge = {
      detail: `schema with schemas must be at most ${SCHEMA_LIMITS.maxBytes} bytes of JSON.`,
      code: 'validation_error',
      errors: [{ path: 'schema', message: `with schemas must be at most ${SCHEMA_LIMITS.maxBytes} bytes of JSON` }],
    };

    it('a schema exactly at the limit is accepted and validates', async () => {
      const res = await check({ data: 1, schema: padded(0) });
      assert.equal(res.statusCode, 200, res.body.slice(0, 300));
      assert.deepEqual(res.json(), { valid: true, errors: [] });
    });

    it('one character over the limit is a 422 validation_error at path "schema"', async () => {
      const res = await check({ data: 1, schema: padded(1) });
      assert.equal(res.statusCode, 422);
      assert.deepEqual(res.json(), tooLarge);
    });

    it('the size is in UTF-8 bytes: 1 MiB of two-byte characters (half as many) is over it, one byte under is not', async () => {
      // The padding's characters each take 2 bytes: the text is at the limit in bytes with half as many characters.
      const bytesOver = (extra: number) => ({ description: 'é'.repeat((SCHEMA_LIMITS.maxBytes - overhead + extra) / 2) });
      const at = await check({ data: 1, schema: bytesOver(0) });
      assert.equal(at.statusCode, 200, at.body.slice(0, 300));
      const over = await check({ data: 1, schema: bytesOver(2) });
      assert.equal(over.statusCode, 422);
      assert.deepEqual(over.json(), tooLarge);
    });

    it('schema and schemas count together: two half-size documents are refused the same way', async () => {
      const half = { description: 'y'.repeat(SCHEMA_LIMITS.maxBytes / 2) };
      const res = await check({ data: 1, schema: half, schemas: { 'https://example.com/half.json': half } });
      assert.equal(res.statusCode, 422);
      assert.deepEqual(res.json(), tooLarge);
    });
  });

  describe('number of schemas documents (at most 100)', () => {
    const docs = (n: number) =>
      Object.fromEntries(Array.from({ length: n }, (_, i) => [`https://example.com/doc${i}.json`, { type: 'integer', minimum: i }]));
    const tooMany = {
      detail: `schemas must hold at most ${SCHEMA_LIMITS.maxDocuments} documents.`,
      code: 'validation_error',
      errors: [{ path: 'schemas', message: `must hold at most ${SCHEMA_LIMITS.maxDocuments} documents` }],
    };

    it('exactly 100 documents are accepted, in-process and (with a $ref) on a worker', async () => {
      const plain = await check({ data: 1, schema: { type: 'integer' }, schemas: docs(SCHEMA_LIMITS.maxDocuments) });
      assert.equal(plain.statusCode, 200, plain.body);
      assert.deepEqual(plain.json(), { valid: true, errors: [] });
      const last = `https://example.com/doc${SCHEMA_LIMITS.maxDocuments - 1}.json`;
      const ref = await check({ data: 1, schema: { $ref: last }, schemas: docs(SCHEMA_LIMITS.maxDocuments) });
      assert.equal(ref.statusCode, 200, ref.body);
      const failure = { error: 'value must be >= 99', path: [], schema_path: `${last}#/minimum` };
      assert.deepEqual(ref.json(), { valid: false, ...failure, errors: [failure] });
    });

    it('101 documents are a 422 validation_error at path "schemas", in-process and on a worker', async () => {
      for (const schema of [{ type: 'integer' }, { $ref: 'https://example.com/doc0.json' }]) {
        const res = await check({ data: 1, schema, schemas: docs(SCHEMA_LIMITS.maxDocuments + 1) });
        assert.equal(res.statusCode, 422, JSON.stringify(schema));
        assert.deepEqual(res.json(), tooMany);
      }
    });
  });

  describe('compiled-schema cache (LRU of 500 entries)', () => {
    // Small schemas without $ref or pattern validate in-process, so they go through the cache
    // that schemaCacheStats() reports on (the workers' caches are not observable).
    const probe = async (i: number) => {
      const res = await check({ data: i, schema: { $comment: 'cache-bound probe', type: 'integer', minimum: i } });
      assert.deepEqual(res.json(), { valid: true, errors: [] }, `probe ${i}`);
      return schemaCacheStats();
    };

    it('holds at most 500 entries and evicts the least recently used one', async () => {
      const bound = SCHEMA_LIMITS.cacheEntries;
      const start = schemaCacheStats().compiles;
      for (let i = 0; i < bound; i++) {
        const { cached } = await probe(i);
        assert.ok(cached <= bound, `${cached} entries after probe ${i}`);
      }
      assert.deepEqual(schemaCacheStats(), { compiles: start + bound, cached: bound });
      // probe 0 is a hit (no compile) and becomes the most recently used: probe 1 is now the oldest.
      assert.deepEqual(await probe(0), { compiles: start + bound, cached: bound });
      // One new schema: compiled, and the oldest (probe 1) evicted to stay at the bound.
      assert.deepEqual(await probe(bound), { compiles: start + bound + 1, cached: bound });
      // probe 0 survived the eviction; probe 1 did not and compiles again.
      assert.deepEqual(await probe(0), { compiles: start + bound + 1, cached: bound });
      assert.deepEqual(await probe(1), { compiles: start + bound + 2, cached: bound });
      assert.deepEqual(await probe(bound - 1), { compiles: start + bound + 2, cached: bound });
    });

    it('a schema refused by the limits is not cached (every retry runs the checks again)', async () => {
      const payload = { data: 1, schema: { type: 'integer', $comment: 'refused' }, schemas: docs101() };
      const before = schemaCacheStats();
      for (let i = 0; i < 2; i++) assert.equal((await check(payload)).statusCode, 422);
      const now = schemaCacheStats();
      assert.equal(now.compiles, before.compiles + 2);
      // Nothing evicted either: room is made only when a compilation succeeds.
      assert.equal(now.cached, before.cached);
    });

    // The 32 MiB bound on key text cannot be reached through HTTP: only schemas of at most 16 KiB
    // use the in-process cache (500 × 16 KiB < 32 MiB), larger ones use the workers' caches.
    it('the byte bound (module API): total key length over the bound evicts the oldest entries', async () => {
      const cache = createCompileCache<string>({ entries: 10, bytes: 10 });
      let compiles = 0;
      const get = (key: string) => cache.get(key, async () => `${key}#${++compiles}`);
      assert.equal(await get('aaaa'), 'aaaa#1');
      assert.equal(await get('bbbb'), 'bbbb#2');
      assert.deepEqual(cache.stats(), { compiles: 2, cached: 2 });
      assert.equal(await get('cccc'), 'cccc#3'); // 12 > 10 bytes: 'aaaa' goes
      assert.deepEqual(cache.stats(), { compiles: 3, cached: 2 });
      assert.equal(await get('bbbb'), 'bbbb#2'); // still cached
      assert.equal(await get('aaaa'), 'aaaa#4'); // compiled again
      assert.equal(await get('x'.repeat(11)), 'xxxxxxxxxxx#5'); // a key over the bound alone is not kept
      assert.deepEqual(cache.stats(), { compiles: 5, cached: 0 });
    });

    it('a hit on the newest entry leaves the order as it is; a hit on another makes it the newest (module API)', async () => {
      const cache = createCompileCache<string>({ entries: 2, bytes: 1000 });
      let compiles = 0;
      const get = (key: string) => cache.get(key, async () => `${key}#${++compiles}`);
      await get('a');
      await get('b');
      assert.equal(await get('b'), 'b#2'); // the newest already
      assert.equal(await get('a'), 'a#1'); // now the newest: 'b' is the oldest
      assert.equal(await get('a'), 'a#1');
      assert.equal(await get('c'), 'c#3'); // evicts 'b'
      assert.equal(await get('a'), 'a#1'); // the newest again: 'c' is the oldest
      assert.equal(await get('b'), 'b#4'); // evicts 'c'
      assert.equal(await get('c'), 'c#5');
      assert.deepEqual(cache.stats(), { compiles: 5, cached: 2 });
    });

    it('a compilation that fails in a full cache evicts nothing (module API)', async () => {
      const cache = createCompileCache<string>({ entries: 2, bytes: 1000 });
      let compiles = 0;
      const get = (key: string) => cache.get(key, async () => `${key}#${++compiles}`);
      await get('a');
      await get('b');
      await assert.rejects(
        async () =>
          cache.get('bad', async () => {
            throw new Error('not a schema');
          }),
        /not a schema/,
      );
      assert.deepEqual(cache.stats(), { compiles: 3, cached: 2 });
      assert.equal(await get('a'), 'a#1');
      assert.equal(await get('b'), 'b#2');
    });
  });

  describe('draft chosen by $schema alone (no draft field)', () => {
    const D2019 = 'https://json-schema.org/draft/2019-09/schema';
    const D2020 = 'https://json-schema.org/draft/2020-12/schema';

    it('prefixItems is applied under 2020-12 and ignored (unknown keyword) under 2019-09', async () => {
      const prefixItems = [{ type: 'integer' }];
      const failure = { error: 'value at [0] must be integer', path: [0], schema_path: '#/prefixItems/0/type' };
      const r2020 = await check({ data: ['x'], schema: { $schema: D2020, prefixItems } });
      assert.equal(r2020.statusCode, 200);
      assert.deepEqual(r2020.json(), { valid: false, ...failure, errors: [failure] });
      const r2019 = await check({ data: ['x'], schema: { $schema: D2019, prefixItems } });
      assert.equal(r2019.statusCode, 200);
      assert.deepEqual(r2019.json(), { valid: true, errors: [] });
    });

    it('items as an array is a tuple under 2019-09 (with additionalItems) and an invalid schema under 2020-12', async () => {
      const items = [{ type: 'integer' }];
      const tuple = { error: 'value at [0] must be integer', path: [0], schema_path: '#/items/0/type' };
      assert.deepEqual((await check({ data: ['x'], schema: { $schema: D2019, items } })).json(), {
        valid: false,
        ...tuple,
        errors: [tuple],
      });
      assert.deepEqual((await check({ data: [1, 'anything'], schema: { $schema: D2019, items } })).json(), { valid: true, errors: [] });
      const extra = { error: 'value at [1] is not allowed by additionalItems', path: [1], schema_path: '#/additionalItems' };
      assert.deepEqual((await check({ data: [1, 2], schema: { $schema: D2019, items, additionalItems: false } })).json(), {
        valid: false,
        ...extra,
        errors: [extra],
      });

      const message =
        'is not a valid draft 2020-12 schema at #/items (meta-schema rule https://json-schema.org/draft/2020-12/meta/core#/type)';
      for (const schema of [{ $schema: D2020, items }, { items }]) {
        const res = await check({ data: ['x'], schema });
        assert.equal(res.statusCode, 422, JSON.stringify(schema));
        assert.deepEqual(res.json(), { detail: `schema ${message}.`, code: 'validation_error', errors: [{ path: 'schema', message }] });
      }
    });
  });
});

function docs101(): Record<string, unknown> {
  return Object.fromEntries(Array.from({ length: SCHEMA_LIMITS.maxDocuments + 1 }, (_, i) => [`https://example.com/r${i}.json`, {}]));
}

describe('json-schema-validate: vocabularies', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  it('a required vocabulary the validator does not know is a 422 that says how to make it optional; optional, it validates', async () => {
    const check = (payload: object) => t.app.inject({ method: 'POST', url: '/v1/json-schema-validate', headers: t.auth, payload });
    const $schema = 'https://json-schema.org/draft/2020-12/schema';
    const core = 'https://json-schema.org/draft/2020-12/vocab/core';
    const required = await check({ data: 1, schema: { $schema, $vocabulary: { [core]: true, 'https://example.com/vocab/x': true } } });
    assert.equal(required.statusCode, 422);
    assert.deepEqual(required.json().errors, [
      {
        path: 'schema',
        message:
          'requires a vocabulary this validator does not know (https://example.com/vocab/x); mark it false in $vocabulary to make it optional',
      },
    ]);
    const optional = await check({ data: 1, schema: { $schema, $vocabulary: { [core]: true, 'https://example.com/vocab/x': false } } });
    assert.deepEqual(optional.json(), { valid: true, errors: [] });
  });
});
