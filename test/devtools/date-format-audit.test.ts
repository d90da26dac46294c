// Regressions from an outside audit of POST /v1/date-format, each named after what broke. Expected
// values were checked against Python's datetime/zoneinfo (system tzdata) and GNU date.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildTestApp, createClock, type TestApp } from '../helpers/app.js';

async function startApp(nowIso: string): Promise<TestApp> {
  return buildTestApp({ clock: createClock(Date.parse(nowIso)) });
}

function poster(t: () => TestApp) {
  return (payload: Record<string, unknown>) => t().app.inject({ method: 'POST', url: '/v1/date-format', headers: t().auth, payload });
}

describe('POST /v1/date-format: %I with %p rejected every PM time and 12 AM', () => {
  let t: TestApp;
  before(async () => {
    t = await startApp('2026-03-07T12:00:00Z');
  });
  after(() => t.close());
  const format = poster(() => t);

  // As Python's strptime('%Y-%m-%d %I:%M %p') reads them: 12 AM is 00, 12 PM is 12.
  const times: [string, string, string, number][] = [
    ['2026-11-27 02:05 PM', '%Y-%m-%d %I:%M %p', '2026-11-27T14:05:00+00:00', 1795788300],
    ['2026-11-27 12:05 AM', '%Y-%m-%d %I:%M %p', '2026-11-27T00:05:00+00:00', 1795737900],
    ['2026-11-27 11:05 pm', '%Y-%m-%d %I:%M %p', '2026-11-27T23:05:00+00:00', 1795820700],
    ['2026-11-27 12:05 PM', '%Y-%m-%d %I:%M %p', '2026-11-27T12:05:00+00:00', 1795781100],
    ['2026-11-27 09:05 am', '%Y-%m-%d %I:%M %p', '2026-11-27T09:05:00+00:00', 1795770300],
    ['2026-11-27 02:05PM', '%Y-%m-%d %I:%M%p', '2026-11-27T14:05:00+00:00', 1795788300],
    // Without %p the hour is an AM one, as strptime reads it: 12 is 00 (python3 -c "…strptime('12:05', '%I:%M')" → 00:05).
    ['2026-11-27 02:05', '%Y-%m-%d %I:%M', '2026-11-27T02:05:00+00:00', 1795745100],
    ['2026-11-27 12:05', '%Y-%m-%d %I:%M', '2026-11-27T00:05:00+00:00', 1795737900],
    // %p next to a 24-hour %H is ignored, as strptime does (luxon refused the pair: a 500).
    ['2026-11-27 14:05 PM', '%Y-%m-%d %H:%M %p', '2026-11-27T14:05:00+00:00', 1795788300],
  ];
  for (const [date, inputFormat, iso8601, timestamp] of times) {
    it(`"${date}" with "${inputFormat}" → ${iso8601}`, async () => {
      const res = await format({ date, input_format: inputFormat });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json(), { formatted: iso8601.replace(/([+-]\d\d):(\d\d)$/, '$1$2'), iso8601, timestamp, timezone: 'UTC' });
    });
  }

  it("2:30 PM on the day New York skips 02:00-03:00 is 14:30 EDT (the AM hour's gap does not move it)", async () => {
    const res = await format({
      date: '2026-03-08 02:30 PM',
      input_format: '%Y-%m-%d %I:%M %p',
      from_timezone: 'America/New_York',
      output_format: '%H:%M %Z',
    });
    assert.deepEqual([res.json().formatted, res.json().timestamp], ['14:30 EDT', 1772994600]);
  });

  const refused: [string, string, string][] = [
    ['2026-11-27 13:05 PM', '%Y-%m-%d %I:%M %p', 'has hour 13 for %I, which takes 01-12'],
    ['2026-11-27 00:05 AM', '%Y-%m-%d %I:%M %p', 'has hour 00 for %I, which takes 01-12'],
    ['2026-11-27 13:05', '%Y-%m-%d %I:%M', 'has hour 13 for %I, which takes 01-12'],
    ['2026-11-27 00:05', '%Y-%m-%d %I:%M', 'has hour 00 for %I, which takes 01-12'],
    // Said in the request's terms, not in the date library's tokens and wording.
    ['2024', '%Y-%m', 'does not match input_format "%Y-%m"'],
    ['2024-02-30', '%Y-%m-%d', 'does not match input_format "%Y-%m-%d": day 30 is out of range for its month'],
  ];
  for (const [date, inputFormat, message] of refused) {
    it(`422 for "${date}" with "${inputFormat}"`, async () => {
      const res = await format({ date, input_format: inputFormat });
      assert.equal(res.statusCode, 422, res.body);
      assert.deepEqual(res.json().errors, [{ path: 'date', message }]);
    });
  }
  it('422 for an ISO date that does not exist, in words', async () => {
    for (const [date, message] of [
      ['2024-02-30', 'is not a valid ISO 8601 date: day 30 is out of range for its month'],
      ['2024-01-01T25:00', 'is not a valid ISO 8601 date: hour 25 is out of range'],
    ]) {
      const res = await format({ date });
      assert.equal(res.statusCode, 422, res.body);
      assert.deepEqual(res.json().errors, [{ path: 'date', message }], date);
    }
  });
});

describe('POST /v1/date-format: %Z printed +01 for London and Dublin in summer, WET for Casablanca at +00, and old names for history', () => {
  let t: TestApp;
  before(async () => {
    t = await startApp('2026-03-07T12:00:00Z');
  });
  after(() => t.close());
  const format = poster(() => t);
  const zone = async (date: string, toTimezone: string) => {
    const res = await format({ date, to_timezone: toTimezone, output_format: '%Y-%m-%d %H:%M %Z %z' });
    assert.equal(res.statusCode, 200, res.body);
    return res.json().formatted as string;
  };

  // [zone, instant (UTC), Python zoneinfo's strftime('%Y-%m-%d %H:%M %Z %z')]
  const answers: [string, string, string][] = [
    // The history first: an earlier answer for the same offset once stuck for every later instant.
    ['Europe/London', '1970-07-01T12:00:00Z', '1970-07-01 13:00 BST +0100'],
    ['Europe/London', '2026-07-15T12:00:00Z', '2026-07-15 13:00 BST +0100'],
    ['Europe/London', '2026-01-15T12:00:00Z', '2026-01-15 12:00 GMT +0000'],
    ['Europe/Dublin', '1900-01-01T12:00:00Z', '1900-01-01 11:34 DMT -002521'],
    ['Europe/Dublin', '2026-07-15T12:00:00Z', '2026-07-15 13:00 IST +0100'],
    ['Europe/Dublin', '2026-01-15T12:00:00Z', '2026-01-15 12:00 GMT +0000'],
    // Casablanca is +01 but for Ramadan, when it is +00; tzdata names neither with letters.
    ['Africa/Casablanca', '2026-03-01T12:00:00Z', '2026-03-01 12:00 +00 +0000'],
    ['Africa/Casablanca', '2027-02-20T12:00:00Z', '2027-02-20 12:00 +00 +0000'],
    ['Africa/Casablanca', '2026-07-15T12:00:00Z', '2026-07-15 13:00 +01 +0100'],
    // -05:00 was EST in Knox from 1991 to 2006, and is CDT now.
    ['America/Indiana/Knox', '2000-01-01T12:00:00Z', '2000-01-01 07:00 EST -0500'],
    ['America/Indiana/Knox', '2026-07-15T12:00:00Z', '2026-07-15 07:00 CDT -0500'],
    ['US/Indiana-Starke', '2000-01-01T12:00:00Z', '2000-01-01 07:00 EST -0500'],
    // Metlakatla kept Pacific standard time from November 2018 to January 2019; -08:00 is AKDT now.
    ['America/Metlakatla', '2019-01-15T12:00:00Z', '2019-01-15 04:00 PST -0800'],
    ['America/Metlakatla', '2026-01-15T12:00:00Z', '2026-01-15 03:00 AKST -0900'],
    ['America/Metlakatla', '2026-07-15T12:00:00Z', '2026-07-15 04:00 AKDT -0800'],
    // Cambridge Bay was on Central time in 2000; -06:00 is MDT now.
    ['America/Cambridge_Bay', '2000-01-01T12:00:00Z', '2000-01-01 06:00 CST -0600'],
    ['America/Cambridge_Bay', '2026-01-15T12:00:00Z', '2026-01-15 05:00 MST -0700'],
    // War time, and local mean time before standard time.
    ['America/New_York', '1943-01-01T12:00:00Z', '1943-01-01 08:00 EWT -0400'],
    ['America/New_York', '1850-01-01T12:00:00Z', '1850-01-01 07:03 LMT -045602'],
  ];
  for (const [name, date, expected] of answers) {
    it(`${name} at ${date} → ${expected}`, async () => {
      assert.equal(await zone(date, name), expected);
    });
  }

  it('the zone name in any case gives the same abbreviations', async () => {
    assert.equal(await zone('2026-07-15T12:00:00Z', 'europe/london'), '2026-07-15 13:00 BST +0100');
    assert.equal(await zone('2000-01-01T12:00:00Z', 'AMERICA/INDIANA/KNOX'), '2000-01-01 07:00 EST -0500');
  });
});

describe('POST /v1/date-format: a bare weekday resolved to a past day', () => {
  let t: TestApp;
  before(async () => {
    // Friday 27 November 2026, 12:00 UTC: already Saturday 28 November, 02:00, in Kiritimati (+14).
    t = await startApp('2026-11-27T12:00:00Z');
  });
  after(() => t.close());
  const format = poster(() => t);
  const day = async (date: string, fromTimezone = 'UTC') => {
    const res = await format({ date, from_timezone: fromTimezone, output_format: '%Y-%m-%d %H:%M %a' });
    assert.equal(res.statusCode, 200, res.body);
    return res.json().formatted as string;
  };

  it('"thursday" on a Friday is the coming Thursday, as "this thursday" is, not yesterday', async () => {
    assert.deepEqual(
      [await day('thursday'), await day('this thursday'), await day('Thursday'), await day('on thursday'), await day('thursday 5pm')],
      ['2026-12-03 00:00 Thu', '2026-12-03 00:00 Thu', '2026-12-03 00:00 Thu', '2026-12-03 00:00 Thu', '2026-12-03 17:00 Thu'],
    );
  });

  it('today\'s weekday is today; "last" and a stated date are untouched', async () => {
    assert.deepEqual(
      [
        await day('friday'),
        await day('this friday'),
        await day('saturday'),
        await day('last thursday'),
        await day('Thursday, November 26, 2026'),
      ],
      ['2026-11-27 00:00 Fri', '2026-11-27 00:00 Fri', '2026-11-28 00:00 Sat', '2026-11-26 00:00 Thu', '2026-11-26 00:00 Thu'],
    );
  });

  it('in from_timezone\'s own date: already Saturday in Kiritimati, "friday" and "this friday" are both 4 December', async () => {
    assert.deepEqual(
      [
        await day('friday', 'Pacific/Kiritimati'),
        await day('this friday', 'Pacific/Kiritimati'),
        await day('saturday', 'Pacific/Kiritimati'),
        await day('thursday', 'Pacific/Kiritimati'),
      ],
      ['2026-12-04 00:00 Fri', '2026-12-04 00:00 Fri', '2026-11-28 00:00 Sat', '2026-12-03 00:00 Thu'],
    );
  });
});

describe('POST /v1/date-format: a Unix timestamp follows one digit rule, as a number or as a string', () => {
  let t: TestApp;
  before(async () => {
    t = await startApp('2026-03-07T12:00:00Z');
  });
  after(() => t.close());
  const format = poster(() => t);

  // [digits, iso8601, timestamp]: 13 digits before any fraction (sign aside) are milliseconds, fewer are seconds.
  const instants: [string, string, number][] = [
    ['100000000000', '5138-11-16T09:46:40+00:00', 100000000000],
    ['999999999999', '+033658-09-27T01:46:39+00:00', 999999999999],
    ['1772953200123', '2026-03-08T07:00:00.123+00:00', 1772953200],
    ['-1772953200123', '1913-10-26T16:59:59.877+00:00', -1772953201],
    ['1772953200123.5', '2026-03-08T07:00:00.123+00:00', 1772953200],
    ['-1.5', '1969-12-31T23:59:58.500+00:00', -2],
  ];
  for (const [digits, iso8601, timestamp] of instants) {
    it(`${digits} as a number and as a string → ${iso8601}`, async () => {
      const asNumber = await format({ date: Number(digits) });
      const asString = await format({ date: digits });
      assert.equal(asNumber.statusCode, 200, asNumber.body);
      assert.deepEqual([asNumber.json().iso8601, asNumber.json().timestamp], [iso8601, timestamp]);
      assert.deepEqual(asString.json(), asNumber.json());
    });
  }

  for (const digits of ['12345678901234', '-12345678901234', '100000000000000']) {
    it(`422 for ${digits} (${digits.replace('-', '').length} digits) as a number and as a string, with the same detail`, async () => {
      const asNumber = await format({ date: Number(digits) });
      const asString = await format({ date: digits });
      assert.equal(asNumber.statusCode, 422, asNumber.body);
      const message = `is a Unix timestamp of ${digits.replace('-', '').length} digits: timestamps are seconds (up to 12 digits) or milliseconds (13 digits)`;
      assert.deepEqual(asNumber.json().errors, [{ path: 'date', message }]);
      assert.deepEqual(asString.json(), asNumber.json());
    });
  }
});

describe('POST /v1/date-format: %e in input_format refused a space-padded day', () => {
  let t: TestApp;
  before(async () => {
    t = await startApp('2026-03-07T12:00:00Z');
  });
  after(() => t.close());
  const format = poster(() => t);

  const dates: [string, string, string][] = [
    ['2026-11- 5', '%Y-%m-%e', '2026-11-05 00:00'],
    ['2026-11-5', '%Y-%m-%e', '2026-11-05 00:00'],
    ['2026-11-05', '%Y-%m-%e', '2026-11-05 00:00'],
    // What %c writes (%e space-padded) reads back.
    ['Thu Nov  5 07:08:09 2026', '%a %b %e %H:%M:%S %Y', '2026-11-05 07:08'],
    ['2026-11-27  7:05', '%Y-%m-%d %k:%M', '2026-11-27 07:05'],
    ['2026-11-27 17:05', '%Y-%m-%d %k:%M', '2026-11-27 17:05'],
    ['2026-11-27  2:05 PM', '%Y-%m-%d %l:%M %p', '2026-11-27 14:05'],
    ['Nov  5 2026  2:05 pm', '%b %e %Y %l:%M %p', '2026-11-05 14:05'],
  ];
  for (const [date, inputFormat, formatted] of dates) {
    it(`"${date}" with "${inputFormat}" → ${formatted}`, async () => {
      const res = await format({ date, input_format: inputFormat, output_format: '%Y-%m-%d %H:%M' });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().formatted, formatted);
    });
  }

  it('only one space, and only where a space-padded directive is: 422 otherwise', async () => {
    for (const [date, inputFormat] of [
      ['2026-11-  5', '%Y-%m-%e'],
      ['2026-11- 05x', '%Y-%m-%e'],
      ['2026- 11-05', '%Y-%m-%e'],
      ['2026-11-27 13:05 PM', '%Y-%m-%d %l:%M %p'],
    ]) {
      const res = await format({ date, input_format: inputFormat });
      assert.equal(res.statusCode, 422, `${date} ${res.body}`);
      assert.deepEqual(
        res.json().errors.map((e: { path: string }) => e.path),
        ['date'],
      );
    }
  });
});

describe('POST /v1/date-format: %g was unsupported in output_format', () => {
  let t: TestApp;
  before(async () => {
    t = await startApp('2026-03-07T12:00:00Z');
  });
  after(() => t.close());
  const format = poster(() => t);

  // GNU date -u -d DAY '+%G %g %V'
  const weeks: [string, string][] = [
    ['2027-01-01', '2026 26 53'],
    ['2024-12-30', '2025 25 01'],
    ['2000-01-01', '1999 99 52'],
    ['2026-12-28', '2026 26 53'],
    ['1999-01-03', '1998 98 53'],
    ['2026-03-08', '2026 26 10'],
  ];
  for (const [date, formatted] of weeks) {
    it(`${date}: %G %g %V → ${formatted}`, async () => {
      const res = await format({ date, output_format: '%G %g %V' });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().formatted, formatted);
    });
  }

  it('%-g drops the padding', async () => {
    assert.equal((await format({ date: '2005-01-03', output_format: '%G %g|%-g' })).json().formatted, '2005 05|5');
  });
});

describe("POST /v1/date-format: timezone echoed the zone name in the caller's case", () => {
  let t: TestApp;
  before(async () => {
    t = await startApp('2026-03-07T12:00:00Z');
  });
  after(() => t.close());
  const format = poster(() => t);

  // The tz database's spelling of the name given; a link stays the link (Intl would answer Asia/Calcutta for Asia/Kolkata).
  const names: [Record<string, unknown>, string][] = [
    [{ to_timezone: 'europe/berlin' }, 'Europe/Berlin'],
    [{ to_timezone: 'EUROPE/BERLIN' }, 'Europe/Berlin'],
    [{ to_timezone: 'asia/kolkata' }, 'Asia/Kolkata'],
    [{ to_timezone: 'asia/calcutta' }, 'Asia/Calcutta'],
    [{ to_timezone: 'us/eastern' }, 'US/Eastern'],
    [{ to_timezone: 'america/argentina/buenos_aires' }, 'America/Argentina/Buenos_Aires'],
    [{ to_timezone: 'etc/gmt+5' }, 'Etc/GMT+5'],
    [{ to_timezone: 'utc' }, 'UTC'],
    [{ to_timezone: 'America/New_York' }, 'America/New_York'],
    // Without to_timezone the target is from_timezone, spelled the same way.
    [{ from_timezone: 'asia/tokyo' }, 'Asia/Tokyo'],
    [{}, 'UTC'],
  ];
  for (const [zones, timezone] of names) {
    it(`${JSON.stringify(zones)} → "${timezone}"`, async () => {
      const res = await format({ date: '2026-03-08T07:00:00Z', ...zones });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().timezone, timezone);
    });
  }
});

describe('POST /v1/date-format: the expanded ISO 8601 years it writes (±YYYYYY) were refused as input', () => {
  let t: TestApp;
  before(async () => {
    t = await startApp('2026-03-07T12:00:00Z');
  });
  after(() => t.close());
  const format = poster(() => t);

  for (const [date, iso8601] of [
    ['+002026-11-27T00:00:00Z', '2026-11-27T00:00:00+00:00'],
    ['-000001-01-01T00:00:00Z', '-000001-01-01T00:00:00+00:00'],
    ['+012026-06-01', '+012026-06-01T00:00:00+00:00'],
  ] as const) {
    it(`${date} → ${iso8601}`, async () => {
      const res = await format({ date });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().iso8601, iso8601);
      // What it writes, it reads back.
      assert.equal((await format({ date: res.json().iso8601 })).json().timestamp, res.json().timestamp);
    });
  }

  it('an expanded year still has to be a date: +002026-02-30 is a 422', async () => {
    const res = await format({ date: '+002026-02-30' });
    assert.equal(res.statusCode, 422);
  });
});
