import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { buildTestApp, createClock, type TestApp } from '../helpers/app.js';

interface Vector { name: string; request: Record<string, unknown>; expected: Record<string, unknown> }
const VECTORS: Vector[] = JSON.parse(readFileSync(new URL('./fixtures/date-format-vectors.json', import.meta.url), 'utf8'));

async function startApp(nowIso: string): Promise<TestApp> {
  return buildTestApp({ clock: createClock(Date.parse(nowIso)) });
}

function poster(t: () => TestApp) {
  return (payload: Record<string, unknown>) => t().app.inject({ method: 'POST', url: '/v1/date-format', headers: t().auth, payload });
}

describe('POST /v1/date-format: known answers across DST changes', () => {
  let t: TestApp;
  before(async () => {
    t = await startApp('2026-03-07T12:00:00Z');
  });
  after(() => t.close());
  const format = poster(() => t);

  it('covers at least 5 time zones', () => {
    const zones = new Set(VECTORS.flatMap((v) => [v.request.from_timezone, v.request.to_timezone, v.expected.timezone]).filter(Boolean));
    assert.ok(zones.size >= 5, [...zones].join(', '));
  });

  for (const v of VECTORS) {
    it(v.name, async () => {
      const res = await format(v.request);
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json(), v.expected);
    });
  }
});

describe('POST /v1/date-format: every strftime directive', () => {
  let t: TestApp;
  before(async () => {
    t = await startApp('2026-03-07T12:00:00Z');
  });
  after(() => t.close());
  const format = poster(() => t);
  // Sunday 8 March 2026, 15:04:05.123456 EDT (the first day of US daylight time) = 19:04:05Z.
  const moment = { date: '2026-03-08T15:04:05.123456', from_timezone: 'America/New_York' };
  const DIRECTIVES: [string, string][] = [
    ['%a', 'Sun'], ['%A', 'Sunday'], ['%b', 'Mar'], ['%B', 'March'], ['%c', 'Sun Mar  8 15:04:05 2026'],
    ['%d', '08'], ['%e', ' 8'], ['%H', '15'], ['%I', '03'], ['%j', '067'], ['%m', '03'], ['%M', '04'],
    ['%p', 'PM'], ['%S', '05'], ['%U', '10'], ['%w', '0'], ['%W', '09'], ['%y', '26'], ['%Y', '2026'],
    ['%z', '-0400'], ['%Z', 'EDT'], ['%%', '%'], ['%f', '123456'],
    ['%C', '20'], ['%D', '03/08/26'], ['%F', '2026-03-08'], ['%G', '2026'], ['%h', 'Mar'], ['%k', '15'],
    ['%l', ' 3'], ['%n', '\n'], ['%P', 'pm'], ['%r', '03:04:05 PM'], ['%R', '15:04'], ['%s', '1772996645'],
    ['%t', '\t'], ['%T', '15:04:05'], ['%u', '7'], ['%V', '10'], ['%x', '03/08/26'], ['%X', '15:04:05'],
    ['%-d', '8'], ['%-m', '3'], ['%-j', '67'], ['%-I', '3'], ['%-H', '15'],
  ];
  for (const [directive, expected] of DIRECTIVES) {
    it(`${directive} → ${JSON.stringify(expected)}`, async () => {
      const res = await format({ ...moment, output_format: `<${directive}>` });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().formatted, `<${expected}>`);
      assert.equal(res.json().timestamp, 1772996645);
    });
  }

  it('midnight and noon on the 12-hour clock; week numbers before the first Sunday/Monday', async () => {
    const midnight = await format({ date: '2026-01-01T00:05:00Z', output_format: '%I %p|%j|%U|%W|%a|%V|%G' });
    assert.equal(midnight.json().formatted, '12 AM|001|00|00|Thu|01|2026');
    const noon = await format({ date: '2027-01-01T12:00:00Z', output_format: '%I %p|%U|%W|%a|%V|%G' });
    assert.equal(noon.json().formatted, '12 PM|00|00|Fri|53|2026');
  });

  it('literal text around directives is kept', async () => {
    const res = await format({ date: '2026-03-08T07:00:00Z', output_format: 'Day %d of 100% done? %%d' });
    assert.equal(res.statusCode, 422); // "% d" is not a directive
    const ok = await format({ date: '2026-03-08T07:00:00Z', output_format: 'Day %d, 100%% done' });
    assert.equal(ok.json().formatted, 'Day 08, 100% done');
  });
});

describe('POST /v1/date-format: natural language with a frozen clock', () => {
  let t: TestApp;
  const savedTz = process.env.TZ;
  before(async () => {
    t = await startApp('2026-03-07T12:00:00Z'); // Saturday; 07:00 EST in New York, 17:30 IST in Kolkata
  });
  after(async () => {
    if (savedTz === undefined) delete process.env.TZ;
    else process.env.TZ = savedTz;
    await t.close();
  });
  const format = poster(() => t);
  const cases: [string, Record<string, unknown>, string, number | null][] = [
    // 17:00 on Friday 13 March is EDT (-4), not the EST offset of "now": 21:00Z.
    ['next friday 5pm', { from_timezone: 'America/New_York' }, '2026-03-13T17:00:00-0400', 1773435600],
    // 02:30 does not exist on 8 March in New York: it moves forward to 03:30 EDT.
    ['tomorrow 2:30am', { from_timezone: 'America/New_York' }, '2026-03-08T03:30:00-0400', 1772955000],
    ['yesterday', { from_timezone: 'Asia/Kolkata', output_format: '%Y-%m-%d %H:%M %Z' }, '2026-03-06 17:30 IST', null],
    ['yesterday', { output_format: '%Y-%m-%d %H:%M %Z' }, '2026-03-06 12:00 UTC', null],
    ['in 2 hours', { to_timezone: 'Europe/Berlin', output_format: '%Y-%m-%d %H:%M %Z' }, '2026-03-07 15:00 CET', null],
    ['March 29, 2026 3:15pm', { from_timezone: 'Europe/Berlin' }, '2026-03-29T15:15:00+0200', 1774790100],
    // Calendar steps keep the wall-clock time across the DST change; hour steps are exact durations.
    ['in 3 weeks', { from_timezone: 'America/New_York', output_format: '%Y-%m-%d %H:%M %Z' }, '2026-03-28 07:00 EDT', null],
    ['in 24 hours', { from_timezone: 'America/New_York', output_format: '%Y-%m-%d %H:%M %Z' }, '2026-03-08 08:00 EDT', null],
    ['tomorrow 5pm PST', { from_timezone: 'America/New_York' }, '2026-03-08T21:00:00-0400', 1773018000],
  ];
  for (const [date, extra, formatted, timestamp] of cases) {
    it(`"${date}" ${JSON.stringify(extra)} → ${formatted}`, async () => {
      const res = await format({ date, ...extra });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().formatted, formatted);
      if (timestamp !== null) assert.equal(res.json().timestamp, timestamp);
    });
  }

  it('does not depend on the host time zone', async () => {
    const answers: string[] = [];
    for (const tz of ['Pacific/Kiritimati', 'America/Anchorage', 'UTC']) {
      process.env.TZ = tz;
      const res = await format({ date: 'tomorrow 9am', from_timezone: 'Asia/Kolkata', to_timezone: 'UTC' });
      assert.equal(res.statusCode, 200, res.body);
      answers.push(res.json().iso8601);
    }
    assert.deepEqual(answers, ['2026-03-08T03:30:00+00:00', '2026-03-08T03:30:00+00:00', '2026-03-08T03:30:00+00:00']);
  });
});

describe('POST /v1/date-format: "today" follows from_timezone near midnight', () => {
  let t: TestApp;
  before(async () => {
    t = await startApp('2026-03-07T23:30:00Z'); // already Sunday 8 March in Kolkata
  });
  after(() => t.close());
  const format = poster(() => t);

  it('tomorrow is the 9th in Kolkata and the 8th in UTC', async () => {
    const kolkata = await format({ date: 'tomorrow', from_timezone: 'Asia/Kolkata', output_format: '%Y-%m-%d' });
    const utc = await format({ date: 'tomorrow', output_format: '%Y-%m-%d' });
    assert.equal(kolkata.json().formatted, '2026-03-09');
    assert.equal(utc.json().formatted, '2026-03-08');
  });
});

describe('POST /v1/date-format: bad input', () => {
  let t: TestApp;
  before(async () => {
    t = await startApp('2026-03-07T12:00:00Z');
  });
  after(() => t.close());
  const format = poster(() => t);
  const rejections: [string, Record<string, unknown>, string][] = [
    ['2026-02-30', { date: '2026-02-30' }, 'date'],
    ['yesterday at 25:00', { date: 'yesterday at 25:00' }, 'date'],
    ['an empty date', { date: '' }, 'date'],
    ['a blank date', { date: '   ' }, 'date'],
    ['words that are not a date', { date: 'not a date at all' }, 'date'],
    ['month 13', { date: '2026-13-01' }, 'date'],
    ['hour 24:30', { date: '2026-03-08T24:30:00' }, 'date'],
    ['a timestamp beyond the representable range', { date: 1e20 }, 'date'],
    ['a boolean date', { date: true }, 'date'],
    ['a missing date', {}, 'date'],
    ['an unknown from_timezone', { date: '2026-03-08', from_timezone: 'Mars/Olympus' }, 'from_timezone'],
    ['an unknown to_timezone', { date: '2026-03-08', to_timezone: 'Europe/Atlantis' }, 'to_timezone'],
    ['an unknown output directive', { date: '2026-03-08', output_format: '%Y %Q' }, 'output_format'],
    ['a dangling % in output_format', { date: '2026-03-08', output_format: '%Y %' }, 'output_format'],
    ['an input_format the date does not match', { date: '2026/03/08', input_format: '%Y-%m-%d' }, 'date'],
    ['an impossible date under input_format', { date: '30.02.2026', input_format: '%d.%m.%Y' }, 'date'],
    ['an input_format directive that cannot be parsed', { date: '10 2026', input_format: '%U %Y' }, 'input_format'],
    ['an unknown field', { date: '2026-03-08', zone: 'UTC' }, 'zone'],
  ];
  for (const [name, payload, path] of rejections) {
    it(`422 for ${name}`, async () => {
      const res = await format(payload);
      assert.equal(res.statusCode, 422, res.body);
      assert.equal(res.json().code, 'validation_error');
      assert.deepEqual(res.json().errors.map((e: { path: string }) => e.path), [path]);
    });
  }
});
