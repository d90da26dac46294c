import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildTestApp, type TestApp } from '../helpers/app.js';

const CASES: { title: string; body: unknown; path: string; message: RegExp }[] = [
  { title: 'unknown operation', body: { operation: 'shuffle', arrays: [[1]] }, path: 'operation', message: /"sort".*"sample"/ },
  { title: 'missing operation', body: { arrays: [[1]] }, path: 'operation', message: /required/ },
  { title: 'intersect with one array', body: { operation: 'intersect', arrays: [[1, 2]] }, path: 'arrays', message: /at least 2 arrays/ },
  { title: 'diff with one array', body: { operation: 'diff', arrays: [[1, 2]] }, path: 'arrays', message: /at least 2 arrays/ },
  { title: 'chunk with size 0', body: { operation: 'chunk', arrays: [[1]], options: { size: 0 } }, path: 'options.size', message: />= 1/ },
  { title: 'chunk without size', body: { operation: 'chunk', arrays: [[1]] }, path: 'options.size', message: /required for chunk/ },
  {
    title: 'sample with size -1',
    body: { operation: 'sample', arrays: [[1]], options: { size: -1 } },
    path: 'options.size',
    message: />= 1/,
  },
  {
    title: 'size as a string',
    body: { operation: 'chunk', arrays: [[1]], options: { size: '2' } },
    path: 'options.size',
    message: /integer/,
  },
  {
    title: 'flatten depth -2',
    body: { operation: 'flatten', arrays: [[1]], options: { depth: -2 } },
    path: 'options.depth',
    message: />= -1/,
  },
  { title: 'empty arrays list', body: { operation: 'sort', arrays: [] }, path: 'arrays', message: /fewer than 1/ },
  { title: 'arrays not an array of arrays', body: { operation: 'sort', arrays: [1, 2] }, path: 'arrays[0]', message: /array/ },
  { title: 'arrays is one flat array of objects', body: { operation: 'sort', arrays: [{ a: 1 }] }, path: 'arrays[0]', message: /array/ },
  {
    title: 'unknown option',
    body: { operation: 'sort', arrays: [[1]], options: { descending: true } },
    path: 'options.descending',
    message: /not a known field/,
  },
  { title: 'empty key', body: { operation: 'sort', arrays: [[1]], options: { key: '' } }, path: 'options.key', message: /fewer than 1/ },
  {
    title: 'reverse as a string',
    body: { operation: 'sort', arrays: [[1]], options: { reverse: 'true' } },
    path: 'options.reverse',
    message: /boolean/,
  },
  {
    title: 'seed not an integer',
    body: { operation: 'sample', arrays: [[1]], options: { seed: 0.5 } },
    path: 'options.seed',
    message: /integer/,
  },
  {
    title: '200000 elements',
    body: { operation: 'sort', arrays: [new Array(100_000).fill(0), new Array(100_000).fill(1)] },
    path: 'arrays',
    message: /at most 100000 elements in total \(got 200000\)/,
  },
  {
    title: '200000 elements in one array',
    body: { operation: 'reverse', arrays: [new Array(200_000).fill(0)] },
    path: 'arrays[0]',
    message: /more than 100000/,
  },
  {
    title: 'flatten producing more than 100000 elements',
    body: { operation: 'flatten', arrays: [[new Array(60_000).fill(0), new Array(60_000).fill(1)]] },
    path: 'arrays',
    message: /more than 100000/,
  },
];

describe('POST /v1/array-ops refuses bad input with 422', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  const call = (payload: string | object) =>
    t.app.inject({ method: 'POST', url: '/v1/array-ops', headers: { ...t.auth, 'content-type': 'application/json' }, payload });

  for (const c of CASES) {
    it(c.title, async () => {
      const res = await call(c.body as object);
      assert.equal(res.statusCode, 422, res.body);
      const body = res.json();
      assert.equal(body.code, 'validation_error');
      const entry = body.errors.find((e: { path: string }) => e.path === c.path);
      assert.ok(entry, `no error on ${c.path}: ${res.body.slice(0, 500)}`);
      assert.match(entry.message, c.message);
    });
  }

  it('arrays nested 10000 deep are refused by the body parser (422), not by a stack overflow', async () => {
    const nested = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
    const res = await call(`{"operation":"flatten","arrays":[${nested}],"options":{"depth":-1}}`);
    assert.equal(res.statusCode, 422);
    assert.equal(res.json().code, 'validation_error');
    assert.match(res.json().detail, /nesting is deeper than 1000/);
  });

  it('the deepest nesting the parser lets through flattens fully, sorts and deduplicates', async () => {
    const depth = 995; // body object + arrays + array + 995 levels + the value stay within 1000
    const nested = `${'['.repeat(depth)}"core"${']'.repeat(depth)}`;
    const flat = await call(`{"operation":"flatten","arrays":[[${nested}]],"options":{"depth":-1}}`);
    assert.equal(flat.statusCode, 200, flat.body);
    assert.deepEqual(flat.json(), { result: ['core'], operation: 'flatten', count: 1 });
    const dedup = await call(`{"operation":"deduplicate","arrays":[[${nested},${nested}],[${nested}]]}`);
    assert.equal(dedup.statusCode, 200);
    assert.equal(dedup.json().count, 1);
    const sorted = await call(`{"operation":"sort","arrays":[[${nested},${nested}]]}`);
    assert.equal(sorted.statusCode, 200);
  });

  it('exactly 100000 elements are accepted', async () => {
    const res = await call({
      operation: 'deduplicate',
      arrays: [new Array(50_000).fill(0).map((_, i) => i % 7), new Array(50_000).fill('x')],
    });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json().result, [0, 1, 2, 3, 4, 5, 6, 'x']);
  });
});
