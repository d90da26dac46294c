import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildTestApp, type TestApp } from '../helpers/app.js';

/** Known answers: request → exact `result`. */
const CASES: { title: string; operation: string; arrays: unknown[][]; options?: Record<string, unknown>; result: unknown[] }[] = [
  {
    title: 'sort numbers across arrays',
    operation: 'sort',
    arrays: [
      [3, -1.5],
      [10, 2],
    ],
    result: [-1.5, 2, 3, 10],
  },
  {
    title: 'sort mixed types: null < boolean < number < string < array < object',
    operation: 'sort',
    arrays: [[{ a: 1 }, 'b', [2], 3, true, null, false, 'a', [1, 5], [1], -7]],
    result: [null, false, true, -7, 3, 'a', 'b', [1], [1, 5], [2], { a: 1 }],
  },
  {
    title: 'strings sort by code point, not UTF-16 unit or locale',
    operation: 'sort',
    arrays: [['b', 'é', '😀', '\uFFFD', 'a', 'B', '']],
    result: ['', 'B', 'a', 'b', 'é', '\uFFFD', '😀'],
  },
  { title: 'reverse sort', operation: 'sort', arrays: [[1, 'x', null, 3]], options: { reverse: true }, result: ['x', 3, 1, null] },
  {
    title: 'sort by key, stable for equal keys',
    operation: 'sort',
    arrays: [
      [
        { n: 'c', age: 30 },
        { n: 'a', age: 25 },
        { n: 'b', age: 30 },
        { n: 'd', age: 20 },
      ],
    ],
    options: { key: 'age' },
    result: [
      { n: 'd', age: 20 },
      { n: 'a', age: 25 },
      { n: 'c', age: 30 },
      { n: 'b', age: 30 },
    ],
  },
  {
    title: 'sort by dotted key; elements lacking it come last, in input order',
    operation: 'sort',
    arrays: [[{ id: 1 }, { id: 2, a: { b: 'z' } }, 7, { id: 3, a: { b: 'm' } }, { id: 4, a: 'flat' }, { id: 5, a: { b: null } }]],
    options: { key: 'a.b' },
    result: [{ id: 5, a: { b: null } }, { id: 3, a: { b: 'm' } }, { id: 2, a: { b: 'z' } }, { id: 1 }, 7, { id: 4, a: 'flat' }],
  },
  {
    title: 'sort by key reversed keeps missing keys last',
    operation: 'sort',
    arrays: [[{ k: 1 }, {}, { k: 3 }, { k: 2 }]],
    options: { key: 'k', reverse: true },
    result: [{ k: 3 }, { k: 2 }, { k: 1 }, {}],
  },
  {
    title: 'an own property named with a dot wins over the path; numeric segments index arrays',
    operation: 'sort',
    arrays: [[{ 'a.b': 2, a: { b: 0 } }, { a: { b: 1 } }, { tags: ['z'] }]],
    options: { key: 'a.b' },
    result: [{ a: { b: 1 } }, { 'a.b': 2, a: { b: 0 } }, { tags: ['z'] }],
  },
  {
    title: 'sort by an array index path',
    operation: 'sort',
    arrays: [[{ t: ['b'] }, { t: ['a'] }, { t: [] }]],
    options: { key: 't.0' },
    result: [{ t: ['a'] }, { t: ['b'] }, { t: [] }],
  },
  {
    title: 'deduplicate with deep equality whatever the key order',
    operation: 'deduplicate',
    arrays: [[{ a: 1, b: [1, { c: 2, d: 3 }] }, 1, '1', { b: [1, { d: 3, c: 2 }], a: 1 }, 1.0, [1, 2], [2, 1], null, null]],
    result: [{ a: 1, b: [1, { c: 2, d: 3 }] }, 1, '1', [1, 2], [2, 1], null],
  },
  {
    title: 'union: deduplicated concatenation in first-seen order',
    operation: 'union',
    arrays: [[3, 1], [1, 2, 3], [4]],
    result: [3, 1, 2, 4],
  },
  {
    title: 'intersect: distinct values of the first array present in every array, first array order',
    operation: 'intersect',
    arrays: [
      [5, 2, 2, { x: 1, y: 2 }, 3, 9],
      [3, 2, { y: 2, x: 1 }],
      [{ x: 1, y: 2 }, 2, 3, 7],
    ],
    result: [2, { x: 1, y: 2 }, 3],
  },
  { title: 'intersect with nothing in common', operation: 'intersect', arrays: [[1, 2], [3]], result: [] },
  {
    title: 'diff: values of the first array absent from all others (duplicates kept)',
    operation: 'diff',
    arrays: [[1, 1, 2, 3, { a: [1] }, 'x'], [2], [3, { a: [1] }]],
    result: [1, 1, 'x'],
  },
  {
    title: 'chunk by size',
    operation: 'chunk',
    arrays: [
      [1, 2, 3],
      [4, 5],
    ],
    options: { size: 2 },
    result: [[1, 2], [3, 4], [5]],
  },
  { title: 'chunk larger than the input', operation: 'chunk', arrays: [[1, 2]], options: { size: 10 }, result: [[1, 2]] },
  { title: 'chunk of nothing', operation: 'chunk', arrays: [[]], options: { size: 3 }, result: [] },
  { title: 'flatten one level by default', operation: 'flatten', arrays: [[1, [2, [3, [4]]]], [[5]]], result: [1, 2, [3, [4]], 5] },
  { title: 'flatten depth 2', operation: 'flatten', arrays: [[1, [2, [3, [4]]]]], options: { depth: 2 }, result: [1, 2, 3, [4]] },
  {
    title: 'flatten depth -1 = fully',
    operation: 'flatten',
    arrays: [[1, [2, [3, [4, []]]], [[[[[5]]]]]]],
    options: { depth: -1 },
    result: [1, 2, 3, 4, 5],
  },
  { title: 'flatten depth 0 only concatenates', operation: 'flatten', arrays: [[[1]], [2]], options: { depth: 0 }, result: [[1], 2] },
  {
    title: 'compact removes null, "", 0 and false only',
    operation: 'compact',
    arrays: [[0, 1, false, true, null, '', 'a', [], {}, '0', -0, 0.0]],
    result: [1, true, 'a', [], {}, '0'],
  },
  {
    title: 'reverse the concatenation',
    operation: 'reverse',
    arrays: [
      [1, 2],
      [3, { a: 1 }],
    ],
    result: [{ a: 1 }, 3, 2, 1],
  },
];

describe('POST /v1/array-ops', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  const call = (payload: Record<string, unknown>) => t.app.inject({ method: 'POST', url: '/v1/array-ops', headers: t.auth, payload });

  for (const c of CASES) {
    it(c.title, async () => {
      const res = await call({ operation: c.operation, arrays: c.arrays, ...(c.options ? { options: c.options } : {}) });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json(), { result: c.result, operation: c.operation, count: c.result.length });
    });
  }

  it('sample with a seed is repeatable and draws distinct positions', async () => {
    const arrays = [Array.from({ length: 50 }, (_, i) => i)];
    const a = (await call({ operation: 'sample', arrays, options: { size: 5, seed: 42 } })).json();
    const b = (await call({ operation: 'sample', arrays, options: { size: 5, seed: 42 } })).json();
    assert.deepEqual(a, b);
    assert.equal(a.count, 5);
    assert.equal(new Set(a.result).size, 5);
    for (const v of a.result) assert.ok(v >= 0 && v < 50);
    const other = (await call({ operation: 'sample', arrays, options: { size: 5, seed: 43 } })).json();
    assert.notDeepEqual(other.result, a.result);
  });

  it('sample with a seed draws the same elements in every process and release (values pinned when recorded in another process)', async () => {
    const arrays = [Array.from({ length: 50 }, (_, i) => i)];
    assert.deepEqual((await call({ operation: 'sample', arrays, options: { size: 5, seed: 42 } })).json(), {
      result: [30, 22, 42, 34, 12],
      operation: 'sample',
      count: 5,
    });
    // A seed beyond 32 bits and negative: all 53 bits and the sign count.
    assert.deepEqual((await call({ operation: 'sample', arrays, options: { size: 5, seed: -7.5e15 } })).json().result, [2, 22, 35, 44, 4]);
  });

  it('sample defaults to one element; a size above the length returns every element once', async () => {
    const one = (await call({ operation: 'sample', arrays: [[1, 2, 3]] })).json();
    assert.equal(one.count, 1);
    assert.ok([1, 2, 3].includes(one.result[0]));
    const all = (await call({ operation: 'sample', arrays: [[1, 2], [3]], options: { size: 10, seed: 1 } })).json();
    assert.deepEqual([...all.result].sort(), [1, 2, 3]);
    assert.equal(all.count, 3);
  });

  it('sample without a seed varies between calls', async () => {
    const arrays = [Array.from({ length: 1000 }, (_, i) => i)];
    const results = new Set<string>();
    for (let i = 0; i < 5; i++)
      results.add(JSON.stringify((await call({ operation: 'sample', arrays, options: { size: 10 } })).json().result));
    assert.ok(results.size > 1);
  });

  it('keys like __proto__ are plain data for equality and sorting', async () => {
    const res = await call({
      operation: 'deduplicate',
      arrays: [[JSON.parse('{"__proto__": {"x": 1}}'), JSON.parse('{"__proto__": {"x": 1}}'), {}]],
    });
    assert.equal(res.body, '{"result":[{"__proto__":{"x":1}},{}],"operation":"deduplicate","count":2}');
    const sorted = await call({
      operation: 'sort',
      arrays: [[JSON.parse('{"__proto__": 2}'), JSON.parse('{"__proto__": 1}'), { constructor: 0 }]],
      options: { key: '__proto__' },
    });
    assert.equal(sorted.body, '{"result":[{"__proto__":1},{"__proto__":2},{"constructor":0}],"operation":"sort","count":3}');
  });

  it('costs one credit per successful call', async () => {
    const key = await t.newKey('free');
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/array-ops',
      headers: { 'x-api-key': key.secret },
      payload: { operation: 'reverse', arrays: [[1]] },
    });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['x-credits-remaining'], '999');
  });
});
