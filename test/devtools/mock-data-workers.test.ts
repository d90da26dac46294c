import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { planMockData } from '../../src/areas/devtools/mock-data/generate.js';
import { INLINE_COST, MOCK_DATA_TIMEOUT_MS } from '../../src/areas/devtools/mock-data/mock-data-pool.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';

const fields = (n: number, type: string, options?: unknown) => Array.from({ length: n }, (_, i) => ({ name: `f${i}`, type, options }));

/** The slowest /healthz answer while `pending` runs, and how many were answered. */
async function healthzDuring(t: TestApp, pending: Promise<unknown>): Promise<{ worst: number; answered: number }> {
  let done = false;
  void pending.finally(() => (done = true));
  let worst = 0;
  let answered = 0;
  while (!done) {
    const started = performance.now();
    const res = await t.app.inject({ method: 'GET', url: '/healthz' });
    assert.equal(res.statusCode, 200);
    worst = Math.max(worst, performance.now() - started);
    answered++;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return { worst, answered };
}

describe('POST /v1/mock-data: large requests are drawn on worker threads', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  const post = (payload: unknown) => t.app.inject({ method: 'POST', url: '/v1/mock-data', headers: t.auth, payload: payload as object });

  it('1000 rows of 50 fields are answered while /healthz keeps answering within 100 ms', async () => {
    const pending = post({ fields: fields(50, 'name'), rows: 1000, output_format: 'csv', seed: 3 });
    const { worst, answered } = await healthzDuring(t, pending);
    const res = await pending;
    assert.equal(res.statusCode, 200, res.body.slice(0, 300));
    assert.equal(res.json().rows, 1000);
    assert.equal(res.json().data.split('\r\n').filter(Boolean).length, 1001);
    assert.ok(answered >= 1);
    assert.ok(worst < 100, `/healthz took ${worst.toFixed(1)} ms during the generation`);
  });

  it('seeded output is the same whether drawn inline or on a worker (the small request is a prefix of the large one)', async () => {
    const five = [
      { name: 'id', type: 'uuid' },
      { name: 'who', type: 'name' },
      { name: 'mail', type: 'email' },
      { name: 'n', type: 'integer' },
      { name: 'code', type: 'regex', options: { pattern: '[A-Z]{3}-\\d{4}' } },
    ];
    const inlineRows = Math.floor(INLINE_COST / 5.5); // the regex field costs a little more than 1
    const small = await post({ fields: five, rows: inlineRows, seed: 42 });
    const large = await post({ fields: five, rows: 200, seed: 42 });
    assert.equal(small.statusCode, 200);
    assert.equal(large.statusCode, 200);
    assert.equal(large.json().data.length, 200);
    assert.deepEqual(large.json().data.slice(0, inlineRows), small.json().data);
    // The same large request twice: identical bytes.
    assert.equal((await post({ fields: five, rows: 200, seed: 42 })).body, large.body);
  });

  it('what decides the thread: rows × fields, regex fields by their steps, caller values by their size', () => {
    assert.equal(planMockData({ fields: fields(5, 'name'), rows: 10 }).cost, 50);
    assert.ok(planMockData({ fields: fields(1, 'regex', { pattern: '(((()*)*)*)*', max_repeat: 16 }), rows: 100 }).cost > INLINE_COST);
    assert.ok(planMockData({ fields: fields(1, 'regex', { pattern: '[a-z]{3}' }), rows: 100 }).cost < 2 * 100);
    const big = { text: 'x'.repeat(100_000) };
    assert.ok(planMockData({ fields: fields(1, 'constant', { value: big }), rows: 2 }).cost > INLINE_COST);
    assert.ok(planMockData({ fields: fields(1, 'enum', { values: [1, 2, big] }), rows: 2 }).cost > INLINE_COST);
    assert.equal(planMockData({ fields: fields(5, 'paragraph', { sentences: 20 }), rows: 5 }).cost, 250);
    assert.equal(planMockData({ fields: fields(1, 'words', { count: 50 }), rows: 10 }).cost, 50);
  });

  it('errors found while drawing on a worker keep their code, detail and field', async () => {
    const res = await post({ fields: [{ name: 'p', type: 'prefix' }, ...fields(10, 'word')], rows: 1000, locale: 'az_AZ' });
    assert.equal(res.statusCode, 422);
    assert.equal(res.json().code, 'validation_error');
    assert.equal(res.json().errors[0].path, 'fields[0]');
  });

  it(`a request that would draw longer than ${MOCK_DATA_TIMEOUT_MS} ms is stopped with a 422; the server answers meanwhile`, async () => {
    // Within the per-value step bound: 16^4 = 65536 steps for every value, where (((()*)*)*)* with
    // max_repeat 16 draws a random count that averages far less (that one once finished in 4.8 s and
    // answered 200). 50000 values of this one take about 4 times as long: 20-40 s.
    const pending = post({ fields: fields(50, 'regex', { pattern: '((((){16}){16}){16}){16}' }), rows: 1000 });
    const started = Date.now();
    const { worst } = await healthzDuring(t, pending);
    const res = await pending;
    assert.equal(res.statusCode, 422, res.body.slice(0, 300));
    assert.equal(res.json().code, 'validation_error');
    assert.deepEqual(res.json().errors, [
      { path: 'rows', message: `take longer than ${MOCK_DATA_TIMEOUT_MS} ms to draw with these fields` },
    ]);
    assert.ok(Date.now() - started < MOCK_DATA_TIMEOUT_MS + 2000, `${Date.now() - started} ms`);
    assert.ok(worst < 100, `/healthz took ${worst.toFixed(1)} ms`);
    // The pool replaced the stopped worker.
    assert.equal((await post({ fields: fields(5, 'word'), rows: 100, seed: 1 })).statusCode, 200);
  });
});
