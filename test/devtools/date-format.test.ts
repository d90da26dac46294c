import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { buildTestApp, createClock, type TestApp } from '../helpers/app.js';

interface Vector {
  name: string;
  request: Record<string, unknown>;
  expected: Record<string, unknown>;
}
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

  it('answers the first calls, arriving together, each as alone (the date tool loads once for all)', async () => {
    const first = VECTORS.slice(0, 12);
    const answers = await Promise.all(first.map((v) => format(v.request)));
    assert.deepEqual(
      answers.map((res) => [res.statusCode, res.json()]),
      first.map((v) => [200, v.expected]),
    );
  });

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
    ['%a', 'Sun'],
    ['%A', 'Sunday'],
    ['%b', 'Mar'],
    ['%B', 'March'],
    ['%c', 'Sun Mar  8 15:04:05 2026'],
    ['%d', '08'],
    ['%e', ' 8'],
    ['%H', '15'],
    ['%I', '03'],
    ['%j', '067'],
    ['%m', '03'],
    ['%M', '04'],
    ['%p', 'PM'],
    ['%S', '05'],
    ['%U', '10'],
    ['%w', '0'],
    ['%W', '09'],
    ['%y', '26'],
    ['%Y', '2026'],
    ['%z', '-0400'],
    ['%Z', 'EDT'],
    ['%%', '%'],
    ['%f', '123456'],
    ['%C', '20'],
    ['%D', '03/08/26'],
    ['%F', '2026-03-08'],
    ['%G', '2026'],
    ['%h', 'Mar'],
    ['%k', '15'],
    ['%l', ' 3'],
    ['%n', '\n'],
    ['%P', 'pm'],
    ['%r', '03:04:05 PM'],
    ['%R', '15:04'],
    ['%s', '1772996645'],
    ['%t', '\t'],
    ['%T', '15:04:05'],
    ['%u', '7'],
    ['%V', '10'],
    ['%x', '03/08/26'],
    ['%X', '15:04:05'],
    ['%-d', '8'],
    ['%-m', '3'],
    ['%-j', '67'],
    ['%-I', '3'],
    ['%-H', '15'],
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

  it('durations before/after a date and "last night" do not depend on the host time zone either', async () => {
    // 12:00Z is 21:00 on Saturday 7 March in Tokyo; chrono 2.10.3 read these from the host's clock.
    const cases: Array<[string, string]> = [
      ['the day after tomorrow', '2026-03-09 21:00'],
      ['the day before yesterday', '2026-03-05 21:00'],
      ['3 days after tomorrow', '2026-03-11 21:00'],
      ['last night', '2026-03-06 22:00'],
      ['last night at 11pm', '2026-03-06 23:00'],
      ['last night 9:30pm', '2026-03-06 21:30'],
    ];
    for (const tz of ['Pacific/Kiritimati', 'America/Anchorage', 'UTC']) {
      process.env.TZ = tz;
      for (const [date, formatted] of cases) {
        const res = await format({ date, from_timezone: 'Asia/Tokyo', output_format: '%Y-%m-%d %H:%M' });
        assert.equal(res.statusCode, 200, `${date} ${res.body}`);
        assert.equal(res.json().formatted, formatted, `${date} with TZ=${tz}`);
      }
    }
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
    [
      'the last representable instant shown in a zone east of UTC',
      { date: '8640000000000', input_format: '%s', to_timezone: 'Asia/Kolkata' },
      'date',
    ],
    [
      'the first representable instant shown in a zone west of UTC',
      { date: '-8640000000000', input_format: '%s', to_timezone: 'America/New_York' },
      'date',
    ],
    ['a boolean date', { date: true }, 'date'],
    ['a missing date', {}, 'date'],
    ['an unknown from_timezone', { date: '2026-03-08', from_timezone: 'Mars/Olympus' }, 'from_timezone'],
    ['an unknown to_timezone', { date: '2026-03-08', to_timezone: 'Europe/Atlantis' }, 'to_timezone'],
    ['an unknown output directive', { date: '2026-03-08', output_format: '%Y %Q' }, 'output_format'],
    ['a dangling % in output_format', { date: '2026-03-08', output_format: '%Y %' }, 'output_format'],
    ['an input_format the date does not match', { date: '2026/03/08', input_format: '%Y-%m-%d' }, 'date'],
    ['an impossible date under input_format', { date: '30.02.2026', input_format: '%d.%m.%Y' }, 'date'],
    ['an input_format directive that cannot be parsed', { date: '10 2026', input_format: '%U %Y' }, 'input_format'],
    // 28 adjacent numeric directives made the parser backtrack for seconds (minutes with more).
    [
      'an input_format with more than 12 directives',
      { date: `${'1'.repeat(60)}x`, input_format: '%y%m%d%H%M%S%I'.repeat(4) },
      'input_format',
    ],
    ['an unknown field', { date: '2026-03-08', zone: 'UTC' }, 'zone'],
    ['hour 13 under %I', { date: '2024-03-05 13 PM', input_format: '%Y-%m-%d %I %p' }, 'date'],
    ['hour 00 under %I', { date: '2024-03-05 00 AM', input_format: '%Y-%m-%d %I %p' }, 'date'],
    ['a UTC offset of 25 hours', { date: '2024-03-05T07:08:09+25:00' }, 'date'],
    ['%s combined with another directive', { date: '1700000000 UTC', input_format: '%s %Z' }, 'input_format'],
    ['a %s input that is not digits', { date: 'soon', input_format: '%s' }, 'date'],
  ];
  it('every bad field at once: both zones and the output format in one 422; a missing to_timezone is not reported for a bad from_timezone', async () => {
    const all = await format({ date: '2024-01-01', from_timezone: 'Bad/Zone', to_timezone: 'Worse/Zone', output_format: '%Q' });
    assert.equal(all.statusCode, 422);
    assert.deepEqual(
      all.json().errors.map((e: { path: string }) => e.path),
      ['from_timezone', 'to_timezone', 'output_format'],
    );
    assert.match(all.json().detail, /Bad\/Zone.*Worse\/Zone.*%Q/);
    const one = await format({ date: '2024-01-01', from_timezone: 'Bad/Zone' });
    assert.deepEqual(
      one.json().errors.map((e: { path: string }) => e.path),
      ['from_timezone'],
    );
  });

  for (const [name, payload, path] of rejections) {
    it(`422 for ${name}`, async () => {
      const res = await format(payload);
      assert.equal(res.statusCode, 422, res.body);
      assert.equal(res.json().code, 'validation_error');
      assert.deepEqual(
        res.json().errors.map((e: { path: string }) => e.path),
        [path],
      );
    });
  }
});

describe('POST /v1/date-format: %Z is the tz database abbreviation (Python zoneinfo known answers)', () => {
  let t: TestApp;
  before(async () => {
    t = await startApp('2026-03-07T12:00:00Z');
  });
  after(() => t.close());
  const format = poster(() => t);
  // [zone, %Z %z on 2026-01-15T12:00Z, on 2026-07-15T12:00Z]
  const zones: [string, string, string][] = [
    // English CLDR names these zones only GMT+N; tzdata has letters.
    ['Asia/Tokyo', 'JST +0900', 'JST +0900'],
    ['Asia/Shanghai', 'CST +0800', 'CST +0800'],
    ['Asia/Seoul', 'KST +0900', 'KST +0900'],
    ['Europe/Moscow', 'MSK +0300', 'MSK +0300'],
    ['Asia/Jerusalem', 'IST +0200', 'IDT +0300'],
    ['Asia/Karachi', 'PKT +0500', 'PKT +0500'],
    ['Asia/Manila', 'PST +0800', 'PST +0800'],
    ['Asia/Hong_Kong', 'HKT +0800', 'HKT +0800'],
    ['Asia/Jakarta', 'WIB +0700', 'WIB +0700'],
    ['America/Havana', 'CST -0500', 'CDT -0400'],
    // CLDR has letters that tzdata does not use (GST, SGT, LHDT, HAST).
    ['Asia/Dubai', '+04 +0400', '+04 +0400'],
    ['Asia/Singapore', '+08 +0800', '+08 +0800'],
    ['Australia/Lord_Howe', '+11 +1100', '+1030 +1030'],
    ['America/Adak', 'HST -1000', 'HDT -0900'],
    // Unchanged: CLDR and tzdata agree.
    ['America/New_York', 'EST -0500', 'EDT -0400'],
    ['Europe/Berlin', 'CET +0100', 'CEST +0200'],
    ['Europe/London', 'GMT +0000', 'BST +0100'],
    ['Australia/Sydney', 'AEDT +1100', 'AEST +1000'],
    ['Asia/Kolkata', 'IST +0530', 'IST +0530'],
    ['Africa/Johannesburg', 'SAST +0200', 'SAST +0200'],
    ['UTC', 'UTC +0000', 'UTC +0000'],
    // Zone names are case-insensitive, and the tz database's old names (links) work the same.
    ['asia/tokyo', 'JST +0900', 'JST +0900'],
    ['Japan', 'JST +0900', 'JST +0900'],
    ['Israel', 'IST +0200', 'IDT +0300'],
  ];
  for (const [zone, winter, summer] of zones) {
    it(`${zone}: ${winter} in January, ${summer} in July`, async () => {
      const january = await format({ date: '2026-01-15T12:00:00Z', to_timezone: zone, output_format: '%Z %z' });
      const july = await format({ date: '2026-07-15T12:00:00Z', to_timezone: zone, output_format: '%Z %z' });
      assert.equal(january.statusCode, 200, january.body);
      assert.deepEqual([january.json().formatted, july.json().formatted], [winter, summer]);
    });
  }

  it('Jerusalem switches from IST to IDT at 02:00 on 27 March 2026 and back at 02:00 on 25 October', async () => {
    const answers: string[] = [];
    for (const date of ['2026-03-26T23:59:59Z', '2026-03-27T00:00:00Z', '2026-10-24T22:59:59Z', '2026-10-24T23:00:00Z']) {
      const res = await format({ date, to_timezone: 'Asia/Jerusalem', output_format: '%Y-%m-%d %H:%M:%S %Z' });
      assert.equal(res.statusCode, 200, res.body);
      answers.push(res.json().formatted);
    }
    assert.deepEqual(answers, ['2026-03-27 01:59:59 IST', '2026-03-27 03:00:00 IDT', '2026-10-25 01:59:59 IDT', '2026-10-25 01:00:00 IST']);
  });

  it('a naive Tokyo time is read and printed as JST', async () => {
    const res = await format({ date: '2026-03-08 09:30', from_timezone: 'Asia/Tokyo', output_format: '%d %b %Y %H:%M %Z' });
    assert.deepEqual(res.json(), {
      formatted: '08 Mar 2026 09:30 JST',
      iso8601: '2026-03-08T09:30:00+09:00',
      timestamp: 1772929800,
      timezone: 'Asia/Tokyo',
    });
  });

  it('%z keeps the seconds of local mean time (Tokyo before 1888: +091859), as Python does', async () => {
    const res = await format({ date: '0001-01-01T00:00:00', from_timezone: 'Asia/Tokyo', output_format: '%z' });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().formatted, '+091859');
  });

  it('iso8601 keeps those seconds too, so its local time and offset give the instant (New York before 1883: -04:56:02)', async () => {
    const res = await format({ date: '1883-11-18T12:00:00', from_timezone: 'America/New_York', output_format: '%H:%M:%S %z' });
    assert.deepEqual(res.json(), {
      formatted: '12:00:00 -045602',
      iso8601: '1883-11-18T12:00:00-04:56:02',
      timestamp: -2717651038,
      timezone: 'America/New_York',
    });
    assert.equal(Date.parse('1883-11-18T12:00:00-04:56') / 1000 + 2, res.json().timestamp);
    // From then on the offset is whole hours again.
    const est = await format({ date: '1883-11-18T12:03:58', from_timezone: 'America/New_York', output_format: '%z' });
    assert.equal(est.json().iso8601, '1883-11-18T12:03:58-05:00');
  });

  it('years before 1 and after 9999: %Y keeps a sign and four digits, iso8601 a sign and six (ISO 8601 expanded)', async () => {
    const minusOne = await format({ date: -62198755200, from_timezone: 'UTC', output_format: '%Y %y %G %C|%c' });
    assert.deepEqual(minusOne.json(), {
      formatted: '-0001 99 -0002 -1|Fri Jan  1 00:00:00 -0001',
      iso8601: '-000001-01-01T00:00:00+00:00',
      timestamp: -62198755200,
      timezone: 'UTC',
    });
    const year0 = await format({ date: '0000-06-15T00:00:00Z', output_format: '%Y %y %C' });
    assert.equal(year0.json().formatted, '0000 00 00');
    // The - flag drops every padding zero and keeps the sign, as glibc: %-Y of year -1 is -1, of year 5 is 5.
    assert.equal(
      (await format({ date: -62198755200, from_timezone: 'UTC', output_format: '%-Y %-G %-y %-C' })).json().formatted,
      '-1 -2 99 -1',
    );
    assert.equal(
      (await format({ date: '0005-03-01T00:00:00Z', output_format: '%-Y|%-C|%-y|%-j|%-e|%-d' })).json().formatted,
      '5|0|5|60|1|1',
    );
    assert.equal((await format({ date: '0000-06-15T00:00:00Z', output_format: '%-Y|%-z' })).json().formatted, '0|+0000');
    assert.equal(year0.json().iso8601, '0000-06-15T00:00:00+00:00');
    const far = await format({ date: 253402300800, output_format: '%Y-%m-%d' });
    assert.deepEqual([far.json().formatted, far.json().iso8601], ['10000-01-01', '+010000-01-01T00:00:00+00:00']);
    const millis = await format({ date: '2026-03-08T09:30:00.25Z', output_format: '%S' });
    assert.equal(millis.json().iso8601, '2026-03-08T09:30:00.250+00:00');
  });
});

describe('POST /v1/date-format: Unix timestamps as strings of any length', () => {
  let t: TestApp;
  before(async () => {
    t = await startApp('2026-03-07T12:00:00Z');
  });
  after(() => t.close());
  const format = poster(() => t);
  // [date, extra fields, iso8601, timestamp]
  const cases: [string, Record<string, unknown>, string, number][] = [
    ['0', {}, '1970-01-01T00:00:00+00:00', 0],
    ['86400', {}, '1970-01-02T00:00:00+00:00', 86400],
    ['999999999', {}, '2001-09-09T01:46:39+00:00', 999999999],
    ['-86400', {}, '1969-12-31T00:00:00+00:00', -86400],
    ['+86400', {}, '1970-01-02T00:00:00+00:00', 86400],
    ['-1.5', {}, '1969-12-31T23:59:58.500+00:00', -2],
    ['12345678901', {}, '2361-03-21T19:15:01+00:00', 12345678901],
    // A timestamp is an instant: from_timezone does not move it, it only picks the zone shown.
    ['0', { from_timezone: 'Asia/Tokyo' }, '1970-01-01T09:00:00+09:00', 0],
    // 13 digits before the fraction are milliseconds.
    ['1772953200123.456', {}, '2026-03-08T07:00:00.123+00:00', 1772953200],
    // 4 and 8 digits stay ISO 8601 dates: a year and a basic calendar date.
    ['2024', {}, '2024-01-01T00:00:00+00:00', 1704067200],
    ['20240315', { from_timezone: 'Asia/Tokyo' }, '2024-03-15T00:00:00+09:00', 1710428400],
  ];
  for (const [date, extra, iso8601, timestamp] of cases) {
    it(`"${date}" ${JSON.stringify(extra)} → ${iso8601}`, async () => {
      const res = await format({ date, ...extra });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().iso8601, iso8601);
      assert.equal(res.json().timestamp, timestamp);
    });
  }

  it('the string and the number give the same instant', async () => {
    for (const n of [0, 86400, -86400, 999999999]) {
      const asString = await format({ date: String(n), output_format: '%s' });
      const asNumber = await format({ date: n, output_format: '%s' });
      assert.deepEqual(asString.json(), asNumber.json());
    }
  });

  it('keeps microseconds of sub-millisecond digits', async () => {
    const res = await format({ date: '1772953200123.456', output_format: '%H:%M:%S.%f' });
    assert.equal(res.json().formatted, '07:00:00.123456');
  });

  for (const [name, date] of [
    ['an impossible basic date', '20241315'],
    ['a 14-digit timestamp beyond the representable range', '12345678901234'],
    ['a signed fraction without digits', '-.5'],
  ]) {
    it(`422 for ${name} ("${date}")`, async () => {
      const res = await format({ date });
      assert.equal(res.statusCode, 422, res.body);
      assert.deepEqual(
        res.json().errors.map((e: { path: string }) => e.path),
        ['date'],
      );
    });
  }
});

describe('POST /v1/date-format: a date without a time of day is midnight in from_timezone', () => {
  let t: TestApp;
  before(async () => {
    t = await startApp('2026-03-07T12:00:00Z'); // Saturday; 07:00 EST in New York, 21:00 JST in Tokyo
  });
  after(() => t.close());
  const format = poster(() => t);
  // [date, from_timezone, iso8601, timestamp]
  const midnights: [string, string, string, number][] = [
    ['15 March 2024', 'America/New_York', '2024-03-15T00:00:00-04:00', 1710475200],
    ['March 15, 2024', 'Asia/Tokyo', '2024-03-15T00:00:00+09:00', 1710428400],
    ['03/15/2024', 'America/New_York', '2024-03-15T00:00:00-04:00', 1710475200],
    ['next monday', 'Asia/Tokyo', '2026-03-09T00:00:00+09:00', 1772982000],
    ['last friday', 'America/New_York', '2026-03-06T00:00:00-05:00', 1772773200],
    ['Sun, 08 Mar 2026', 'Asia/Tokyo', '2026-03-08T00:00:00+09:00', 1772895600],
    // Havana skips 00:00-01:00 on 8 March 2026: the day starts at 01:00 CDT.
    ['March 8, 2026', 'America/Havana', '2026-03-08T01:00:00-04:00', 1772946000],
    // The same answer as ISO 8601 without a time.
    ['2024-03-15', 'America/New_York', '2024-03-15T00:00:00-04:00', 1710475200],
  ];
  for (const [date, zone, iso8601, timestamp] of midnights) {
    it(`"${date}" in ${zone} → ${iso8601}`, async () => {
      const res = await format({ date, from_timezone: zone });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().iso8601, iso8601);
      assert.equal(res.json().timestamp, timestamp);
    });
  }

  // Counted from now: the time of day of now is kept (GNU date -d does the same).
  const relative: [string, string][] = [
    ['now', '2026-03-07 21:00 +0900'],
    ['today', '2026-03-07 21:00 +0900'],
    ['tomorrow', '2026-03-08 21:00 +0900'],
    ['yesterday', '2026-03-06 21:00 +0900'],
    ['in 3 days', '2026-03-10 21:00 +0900'],
    ['next week', '2026-03-14 21:00 +0900'],
    ['2 weeks ago', '2026-02-21 21:00 +0900'],
    ['in 2 hours', '2026-03-07 23:00 +0900'],
    ['tomorrow midnight', '2026-03-08 00:00 +0900'],
    ['tomorrow 00:00', '2026-03-08 00:00 +0900'],
    ['tonight', '2026-03-07 22:00 +0900'],
    ['this morning', '2026-03-07 06:00 +0900'],
    ['tomorrow at noon', '2026-03-08 12:00 +0900'],
  ];
  for (const [date, formatted] of relative) {
    it(`"${date}" in Asia/Tokyo → ${formatted}`, async () => {
      const res = await format({ date, from_timezone: 'Asia/Tokyo', output_format: '%Y-%m-%d %H:%M %z' });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().formatted, formatted);
    });
  }
});

describe('POST /v1/date-format: "now" at exactly 12:00:00.000 is not mistaken for a date without a time', () => {
  let t: TestApp;
  const noonInTokyo = Date.parse('2026-03-07T03:00:00.000Z');
  before(async () => {
    t = await buildTestApp({ clock: { now: () => noonInTokyo, advance: () => {} } });
  });
  after(() => t.close());
  const format = poster(() => t);

  it('"tomorrow" keeps 12:00, "next monday" is midnight', async () => {
    const tomorrow = await format({ date: 'tomorrow', from_timezone: 'Asia/Tokyo', output_format: '%Y-%m-%d %H:%M' });
    const monday = await format({ date: 'next monday', from_timezone: 'Asia/Tokyo', output_format: '%Y-%m-%d %H:%M' });
    assert.equal(tomorrow.json().formatted, '2026-03-08 12:00');
    assert.equal(monday.json().formatted, '2026-03-09 00:00');
  });
});

describe('POST /v1/date-format: weekday names (as the OpenAPI description states)', () => {
  let t: TestApp;
  before(async () => {
    t = await startApp('2026-11-24T10:00:00Z'); // a Tuesday
  });
  after(() => t.close());
  const format = poster(() => t);

  it('"friday"/"this friday" are the coming one, "next friday" next week\'s, "last friday" the most recent; today counts for the bare name', async () => {
    const cases: Array<[string, string]> = [
      ['friday', '2026-11-27'],
      ['this friday', '2026-11-27'],
      ['next friday', '2026-12-04'],
      ['last friday', '2026-11-20'],
      ['tuesday', '2026-11-24'],
      ['next tuesday', '2026-12-01'],
      ['last tuesday', '2026-11-17'],
      ['next friday 5pm', '2026-12-04'],
    ];
    for (const [date, day] of cases) {
      const res = await format({ date, output_format: '%Y-%m-%d' });
      assert.equal(res.statusCode, 200, date);
      assert.equal(res.json().formatted, day, date);
    }
  });
});

describe('POST /v1/date-format: input_format %s and %y, RFC 2822 UT (as strptime and RFC 2822 read them)', () => {
  let t: TestApp;
  before(async () => {
    t = await startApp('2026-03-07T12:00:00Z');
  });
  after(() => t.close());
  const format = poster(() => t);
  const read = async (payload: Record<string, unknown>) => {
    const res = await format(payload);
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as { formatted: string; timestamp: number };
  };

  it('%s is Unix seconds, alone or with literal text, signed', async () => {
    assert.equal((await read({ date: '1700000000', input_format: '%s' })).timestamp, 1700000000);
    assert.equal((await read({ date: 'ts=1700000000;', input_format: 'ts=%s;' })).timestamp, 1700000000);
    assert.equal((await read({ date: '-86400', input_format: '%s', output_format: '%Y-%m-%d' })).formatted, '1969-12-31');
    assert.equal((await read({ date: '100%', input_format: '%s%%' })).timestamp, 100);
  });

  it('%y: 00-68 are 2000-2068 and 69-99 are 1969-1999 (POSIX), the weekday checked against that year', async () => {
    const year = async (yy: string) => (await read({ date: `01/01/${yy}`, input_format: '%m/%d/%y', output_format: '%Y' })).formatted;
    assert.deepEqual(
      [await year('00'), await year('65'), await year('68'), await year('69'), await year('99')],
      ['2000', '2065', '2068', '1969', '1999'],
    );
    // 5 January 2065 is a Monday (1965's was a Tuesday).
    assert.equal((await read({ date: 'Mon 01/05/65', input_format: '%a %m/%d/%y', output_format: '%F' })).formatted, '2065-01-05');
  });

  it('%I takes 12 PM as noon; an offset of 23:59 is still a time; RFC 2822 "UT" is UTC', async () => {
    assert.equal((await read({ date: '2024-03-05 12 PM', input_format: '%Y-%m-%d %I %p', output_format: '%H:%M' })).formatted, '12:00');
    assert.equal((await read({ date: '2024-03-05T07:08:09+23:59' })).timestamp, 1709536149);
    assert.equal((await read({ date: 'Tue, 5 Mar 2024 07:08:09 UT' })).timestamp, 1709622489);
  });
});
