import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { formatDate } from '../../src/areas/devtools/date-format.js';
import { createDateFormatPool, DATE_FORMAT_TIMEOUT_MS, INLINE_FORMAT_WAYS } from '../../src/areas/devtools/date-format-pool.js';
import { inputFormatWays } from '../../src/areas/devtools/date-parse.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';

/** The slowest /healthz answer while `pending` runs. */
async function worstHealthzDuring(t: TestApp, pending: Promise<unknown>): Promise<number> {
  let done = false;
  void pending.finally(() => (done = true));
  let worst = 0;
  while (!done) {
    const started = performance.now();
    assert.equal((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode, 200);
    worst = Math.max(worst, performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return worst;
}

describe('POST /v1/date-format: input formats that could backtrack for long', () => {
  let t: TestApp;
  const format = (payload: object) => t.app.inject({ method: 'POST', url: '/v1/date-format', headers: t.auth, payload });
  before(async () => {
    t = await buildTestApp();
    // The worker thread starts on first use (under tsx it compiles TypeScript first): started here, so
    // the timings below measure the match's time limit, not a thread's start on a busy machine.
    assert.equal((await format({ date: 'x', input_format: '%f%j'.repeat(6) })).statusCode, 422);
  });
  after(() => t.close());

  it('ordinary formats are far below the bound: they are matched inline', () => {
    assert.equal(inputFormatWays('%d/%m/%Y %H:%M'), 2);
    assert.equal(inputFormatWays('%Y%m%d%H%M%S'), 32);
    assert.equal(inputFormatWays('%Y-%m-%dT%H:%M:%S.%f%z'), 36);
    assert.equal(inputFormatWays('%a, %d %b %Y %H:%M:%S %z'), 12);
    assert.equal(inputFormatWays('%H:%M %Z'), 256);
    assert.equal(inputFormatWays('%d%%%m'), 2, 'a literal %% the digits cannot take ends the run');
    assert.ok(inputFormatWays('%f%j'.repeat(6)) > INLINE_FORMAT_WAYS);
    assert.ok(inputFormatWays('%Z%p'.repeat(6)) > INLINE_FORMAT_WAYS);
  });

  for (const [name, inputFormat, date] of [
    // 29 s of backtracking on the event loop before (the zone name and AM/PM read the same letters).
    ['%Z%p six times, 255 characters', '%Z%p'.repeat(6), `${'am'.repeat(127)}1`],
    // 5 s before: fractions and days of the year read the same digits.
    ['%f%j six times, 61 digits', '%f%j'.repeat(6), `${'1'.repeat(60)}x`],
  ] as const) {
    it(`${name}: 422 on input_format within about ${DATE_FORMAT_TIMEOUT_MS} ms, /healthz answering meanwhile`, async () => {
      const started = performance.now();
      const pending = format({ date, input_format: inputFormat });
      const worst = await worstHealthzDuring(t, pending);
      const res = await pending;
      const took = performance.now() - started;
      assert.equal(res.statusCode, 422, res.body);
      assert.equal(res.json().code, 'validation_error');
      assert.deepEqual(res.json().errors, [
        {
          path: 'input_format',
          message: `takes longer than ${DATE_FORMAT_TIMEOUT_MS} ms to match this date: directives that read the same characters follow each other without a separator`,
        },
      ]);
      assert.ok(took < DATE_FORMAT_TIMEOUT_MS + 2000, `${took.toFixed(0)} ms`);
      assert.ok(worst < 100, `/healthz took ${worst.toFixed(1)} ms`);
    });
  }

  it('after a stopped match the worker is replaced: the next ambiguous format that matches quickly is answered as inline', async () => {
    // Over the bound, but this input fails at once (a letter where a digit must be): the same 422 the inline parser gives.
    const res = await format({ date: 'x', input_format: '%f%j'.repeat(6) });
    assert.equal(res.statusCode, 422);
    assert.equal(res.json().errors[0].path, 'date');
    assert.match(res.json().detail, /does not match input_format/);
  });

  it('a date formatted on the worker is the same as formatted inline', async () => {
    const pool = createDateFormatPool();
    try {
      const input = {
        date: '08/03/2026 17:07:09.250',
        inputFormat: '%d/%m/%Y %H:%M:%S.%f',
        fromTimezone: 'Europe/Berlin',
        toTimezone: 'America/New_York',
        outputFormat: '%c %Z %f',
        now: 0,
      };
      assert.deepEqual(await pool.run(input), formatDate(input));
      assert.deepEqual(await pool.run(input), {
        formatted: 'Sun Mar  8 12:07:09 2026 EDT 250000',
        iso8601: '2026-03-08T12:07:09.250-04:00',
        timestamp: 1772986029,
        timezone: 'America/New_York',
      });
    } finally {
      await pool.close();
    }
  });
});
