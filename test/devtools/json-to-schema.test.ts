import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { buildTestApp, type TestApp } from '../helpers/app.js';

const DRAFT4 = 'http://json-schema.org/draft-04/schema#';

describe('POST /v1/json-to-schema', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  const infer = async (data: unknown) => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/json-to-schema', headers: t.auth, payload: { data } });
    assert.equal(res.statusCode, 200, res.body);
    return res.json().schema as Record<string, unknown>;
  };

  it('infers types, properties, required and nested items from one object', async () => {
    const schema = await infer({
      id: 7,
      price: 9.5,
      name: 'Ada',
      active: true,
      note: null,
      tags: ['a', 'b'],
      address: { city: 'Paris', zip: '75001' },
    });
    assert.deepEqual(schema, {
      $schema: DRAFT4,
      type: 'object',
      properties: {
        id: { type: 'integer' },
        price: { type: 'number' },
        name: { type: 'string' },
        active: { type: 'boolean' },
        note: { type: 'null' },
        tags: { type: 'array', items: { type: 'string' } },
        address: { type: 'object', properties: { city: { type: 'string' }, zip: { type: 'string' } }, required: ['city', 'zip'] },
      },
      required: ['id', 'price', 'name', 'active', 'note', 'tags', 'address'],
    });
  });

  it('merges an array of objects: required = keys in every sample, nulls as a type array, integer+fraction = number', async () => {
    const schema = await infer([
      { id: 1, email: null, score: 3 },
      { id: 2, email: 'a@example.com', score: 3.5, extra: { n: 1 } },
      { id: 3, email: 'b@example.com', score: 4, extra: { n: 2, m: 'x' } },
    ]);
    assert.deepEqual(schema, {
      $schema: DRAFT4,
      type: 'object',
      properties: {
        id: { type: 'integer' },
        email: { type: ['string', 'null'] },
        score: { type: 'number' },
        extra: { type: 'object', properties: { n: { type: 'integer' }, m: { type: 'string' } }, required: ['n'] },
      },
      required: ['id', 'email', 'score'],
    });
  });

  it('merges array elements into items, objects inside arrays included', async () => {
    const schema = await infer({ rows: [{ a: 1 }, { a: 2, b: [1, null] }], mixed: [1, 'x'], empty: [] });
    assert.deepEqual(schema.properties, {
      rows: {
        type: 'array',
        items: {
          type: 'object',
          properties: { a: { type: 'integer' }, b: { type: 'array', items: { type: ['integer', 'null'] } } },
          required: ['a'],
        },
      },
      mixed: { type: 'array', items: { type: ['string', 'integer'] } },
      empty: { type: 'array' },
    });
  });

  it('a top-level array that is not all objects is itself the sample; scalars get their type', async () => {
    assert.deepEqual(await infer([1, 2.5]), { $schema: DRAFT4, type: 'array', items: { type: 'number' } });
    assert.deepEqual(await infer('x'), { $schema: DRAFT4, type: 'string' });
    assert.deepEqual(await infer(null), { $schema: DRAFT4, type: 'null' });
    assert.deepEqual(await infer({}), { $schema: DRAFT4, type: 'object', properties: {} });
  });

  it('__proto__ and constructor keys are ordinary property names', async () => {
    const schema = await infer(JSON.parse('{"__proto__": {"x": 1}, "constructor": "c"}'));
    const properties = schema.properties as Record<string, unknown>;
    assert.deepEqual(Object.keys(properties), ['__proto__', 'constructor']);
    assert.deepEqual(properties['__proto__'], { type: 'object', properties: { x: { type: 'integer' } }, required: ['x'] });
    assert.deepEqual(schema.required, ['__proto__', 'constructor']);
  });

  it('deeply nested data (depth 900) is inferred without a 5xx', async () => {
    const schema = await infer(JSON.parse('{"a":'.repeat(900) + '1' + '}'.repeat(900)));
    let node = schema;
    for (let i = 0; i < 900; i++) node = (node.properties as Record<string, Record<string, unknown>>).a!;
    assert.deepEqual(node, { type: 'integer' });
  });

  it('a missing data field is a 422', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/json-to-schema', headers: t.auth, payload: {} });
    assert.equal(res.statusCode, 422);
    assert.equal(res.json().code, 'validation_error');
  });

  it('round trip: every sample validates against the schema inferred from it (via /v1/json-schema-validate)', async () => {
    const sampleSets: unknown[][] = [
      [
        { id: 1, tags: ['a'], meta: { x: 1.5 } },
        { id: 2, tags: [], meta: null },
        { id: 3, name: 'z', tags: ['b', 'c'] },
      ],
      [{ a: [{ b: 1 }, { b: 2.5, c: null }] }, { a: [] }, { a: [{ b: 0, c: 'x' }], d: { e: [1, [2, 3]] } }],
      [JSON.parse('{"__proto__": 1, "constructor": {"toString": "x"}}'), JSON.parse('{"__proto__": null}')],
    ];
    for (const samples of sampleSets) {
      const schema = await infer(samples);
      for (const data of samples) {
        const res = await t.app.inject({ method: 'POST', url: '/v1/json-schema-validate', headers: t.auth, payload: { data, schema } });
        assert.equal(res.statusCode, 200, res.body);
        assert.deepEqual(res.json(), { valid: true, errors: [] }, JSON.stringify({ data, schema }));
      }
    }
    for (const data of [{ deep: { deeper: [1, 2, { x: 'y' }] } }, [1, 'a', null], 3.25, true]) {
      const schema = await infer(data);
      const res = await t.app.inject({ method: 'POST', url: '/v1/json-schema-validate', headers: t.auth, payload: { data, schema } });
      assert.deepEqual(res.json(), { valid: true, errors: [] }, JSON.stringify({ data, schema }));
    }
  });

  it('round trip on 150 generated sample sets (fast-check): every sample validates', async () => {
    const sampleSet = fc.oneof(
      fc.array(fc.dictionary(fc.string({ maxLength: 4 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 5 }), { minLength: 1, maxLength: 4 }),
      fc.jsonValue({ maxDepth: 4 }),
    );
    await fc.assert(
      fc.asyncProperty(sampleSet, async (data) => {
        const schema = await infer(data);
        const samples =
          Array.isArray(data) && data.length > 0 && data.every((d) => d !== null && typeof d === 'object' && !Array.isArray(d))
            ? data
            : [data];
        for (const sample of samples) {
          const res = await t.app.inject({
            method: 'POST',
            url: '/v1/json-schema-validate',
            headers: t.auth,
            payload: { data: sample, schema },
          });
          assert.deepEqual(res.json(), { valid: true, errors: [] }, JSON.stringify({ sample, schema }));
        }
      }),
      { numRuns: 150, seed: 20261122 },
    );
  });
});
