import assert from 'node:assert/strict';
import { isIPv4, isIPv6 } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { buildTestApp, type TestApp } from '../helpers/app.js';

type Check = (value: unknown, row: number) => boolean;

const str =
  (re: RegExp): Check =>
  (v) =>
    typeof v === 'string' && re.test(v);
const text: Check = (v) => typeof v === 'string' && v.trim().length > 0;
const int =
  (min: number, max: number): Check =>
  (v) =>
    Number.isInteger(v) && (v as number) >= min && (v as number) <= max;
const decimal =
  (min: number, max: number, digits: number): Check =>
  (v) =>
    typeof v === 'number' && v >= min && v <= max && Math.abs(v * 10 ** digits - Math.round(v * 10 ** digits)) < 1e-6;
const url: Check = (v) => typeof v === 'string' && /^https?:$/.test(new URL(v).protocol);
const between =
  (from: string, to: string): Check =>
  (v) =>
    typeof v === 'string' && v >= from && v <= to;

/** Luhn check over the digits of a card number. */
function passesLuhn(value: string): boolean {
  const digits = value.replace(/\D/g, '').split('').reverse().map(Number);
  return digits.reduce((sum, d, i) => sum + (i % 2 ? (d * 2 > 9 ? d * 2 - 9 : d * 2) : d), 0) % 10 === 0;
}

/** ISO 13616 mod-97 check of an IBAN. */
function passesIbanCheck(iban: string): boolean {
  const moved = (iban.slice(4) + iban.slice(0, 4)).replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  return BigInt(moved) % 97n === 1n;
}

/** Every type in the table has a shape check here (a type added without one fails the test). */
const SHAPES: Record<string, Check> = {
  sequence: (v, row) => v === row + 1,
  uuid: str(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
  ulid: str(/^01KDVDNA00[0-9A-HJKMNP-TV-Z]{16}$/), // time part = the fixed reference date 2026-01-01
  nanoid: str(/^[A-Za-z0-9_-]{21}$/),
  name: str(/\S+ \S+/),
  first_name: text,
  last_name: text,
  prefix: str(/^(Mr|Mrs|Ms|Miss|Dr)\.?$/),
  sex: str(/^(female|male)$/),
  job_title: str(/\S+ \S+/),
  username: str(/^\S+$/),
  email: str(/^[^@\s]+@[a-z0-9.-]+\.[a-z]{2,}$/i),
  phone: str(/^[\d\s()+.x-]{7,}$/),
  password: str(/^\w{16}$/),
  url,
  domain: str(/^[a-z0-9-]+(\.[a-z0-9-]+)+$/),
  ipv4: (v) => typeof v === 'string' && isIPv4(v),
  ipv6: (v) => typeof v === 'string' && isIPv6(v),
  mac_address: str(/^([0-9a-f]{2}:){5}[0-9a-f]{2}$/),
  user_agent: str(/^\S+\/\S+/),
  http_method: str(/^(GET|HEAD|POST|PUT|DELETE|CONNECT|OPTIONS|TRACE|PATCH)$/),
  http_status_code: int(100, 599),
  port: int(0, 65535),
  emoji: (v) => typeof v === 'string' && /\p{Extended_Pictographic}|\p{Regional_Indicator}/u.test(v),
  avatar_url: url,
  city: text,
  country: text,
  country_code: str(/^[A-Z]{2}$/),
  state: text,
  street_address: str(/\d+ \S+/),
  secondary_address: str(/^(Apt\.|Suite) \d+$/),
  zip_code: str(/^\d{5}(-\d{4})?$/),
  latitude: decimal(-90, 90, 4),
  longitude: decimal(-180, 180, 4),
  time_zone: (v) => typeof v === 'string' && /^[A-Za-z_]+(\/[A-Za-z_+-]+)*$/.test(v),
  company: text,
  catch_phrase: str(/\S+ \S+/),
  department: text,
  product_name: str(/\S+ \S+/),
  vehicle: str(/\S+ \S+/),
  vin: str(/^[A-HJ-NPR-Z0-9]{17}$/),
  boolean: (v) => typeof v === 'boolean',
  integer: int(0, 1000),
  number: decimal(0, 1000, 2),
  price: decimal(1, 1000, 2),
  date: (v) => str(/^\d{4}-\d{2}-\d{2}$/)(v, 0) && between('2016-01-01', '2026-01-01')(v, 0),
  datetime: (v) =>
    str(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)(v, 0) && between('2016-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')(v, 0),
  timestamp: int(Date.UTC(2016, 0, 1) / 1000, Date.UTC(2026, 0, 1) / 1000),
  time: str(/^([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/),
  weekday: str(/^(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)$/),
  month: str(/^(January|February|March|April|May|June|July|August|September|October|November|December)$/),
  word: str(/^[a-z]+$/),
  words: str(/^[a-z]+ [a-z]+ [a-z]+$/),
  sentence: str(/^[A-Z][a-z]*( [a-z]+)*\.$/),
  paragraph: str(/^([A-Z][a-z]*( [a-z]+)*\. ?){3}$/),
  slug: str(/^[a-z]+(-[a-z]+)*$/),
  color: str(/^#[0-9a-f]{6}$/),
  color_name: str(/^[a-z ]+$/),
  currency_code: str(/^[A-Z]{3}$/),
  currency_name: text,
  iban: (v) => typeof v === 'string' && /^[A-Z]{2}\d{2}[A-Z0-9]{10,30}$/.test(v) && passesIbanCheck(v),
  bic: str(/^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$/),
  credit_card_number: (v) => typeof v === 'string' && /^[\d-]{12,23}$/.test(v) && passesLuhn(v),
  credit_card_cvv: str(/^\d{3}$/),
  account_number: str(/^\d{8}$/),
  bitcoin_address: str(/^(1|3|bc1|tb1|m|n|2)[a-zA-HJ-NP-Z0-9]{20,70}$/),
  ethereum_address: str(/^0x[0-9a-f]{40}$/),
  isbn: str(/^97[89]-\d+-\d+-\d+-\d$/),
  file_name: str(/^[\w-]+\.\w+$/),
  file_extension: str(/^\w+$/),
  mime_type: str(/^[a-z]+\/[\w.+-]+$/),
  semver: str(/^\d+\.\d+\.\d+$/),
  git_commit_sha: str(/^[0-9a-f]{40}$/),
  enum: (v) => v === 'red' || v === 2 || (typeof v === 'object' && v !== null),
  constant: (v) => v === 'k',
  regex: str(/^[A-F]{2}\d{3}$/),
};

const OPTIONS: Record<string, unknown> = {
  enum: { values: ['red', 2, { x: 1 }] },
  constant: { value: 'k' },
  regex: { pattern: '[A-F]{2}\\d{3}' },
};

describe('mock-data types produce values of the right shape', () => {
  let t: TestApp;
  let types: string[];
  before(async () => {
    t = await buildTestApp();
    types = (await t.app.inject({ method: 'GET', url: '/v1/mock-data/types', headers: t.auth }))
      .json()
      .types.map((x: { name: string }) => x.name);
  });
  after(() => t.close());

  const generate = async (payload: Record<string, unknown>) => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/mock-data', headers: t.auth, payload });
    assert.equal(res.statusCode, 200, res.body);
    return res.json().data as Record<string, unknown>[];
  };

  it('every listed type has a shape check and 30 seeded en_US rows pass it', async () => {
    assert.deepEqual(
      types.filter((x) => !SHAPES[x]),
      [],
    );
    for (let start = 0; start < types.length; start += 50) {
      const fields = types
        .slice(start, start + 50)
        .map((type) => ({ name: type, type, ...(OPTIONS[type] ? { options: OPTIONS[type] } : {}) }));
      const rows = await generate({ fields, rows: 30, seed: 99 });
      rows.forEach((row, i) => {
        for (const f of fields) assert.ok(SHAPES[f.type](row[f.name], i), `${f.type} gave ${JSON.stringify(row[f.name])}`);
      });
    }
  });

  it('numeric options are honoured: integer, number, price ranges and decimals, dates, coordinates', async () => {
    const rows = await generate({
      rows: 200,
      seed: 3,
      fields: [
        { name: 'i', type: 'integer', options: { min: -5, max: 5 } },
        { name: 'n', type: 'number', options: { min: 0.5, max: 0.75, decimals: 3 } },
        { name: 'p', type: 'price', options: { min: 10, max: 20, decimals: 0 } },
        { name: 'p2', type: 'price', options: { min: 9.99, max: 9.99 } },
        { name: 'd', type: 'date', options: { from: '2024-02-28', to: '2024-03-01T23:59:59Z' } },
        { name: 'lat', type: 'latitude', options: { min: 10, max: 11, decimals: 2 } },
        { name: 'b', type: 'boolean', options: { probability: 1 } },
      ],
    });
    for (const r of rows) {
      assert.ok(int(-5, 5)(r.i, 0) && decimal(0.5, 0.75, 3)(r.n, 0) && int(10, 20)(r.p, 0), JSON.stringify(r));
      assert.equal(r.p2, 9.99);
      assert.ok(['2024-02-28', '2024-02-29', '2024-03-01'].includes(r.d as string), String(r.d));
      assert.ok(decimal(10, 11, 2)(r.lat, 0) && r.b === true, JSON.stringify(r));
    }
    assert.equal(new Set(rows.map((r) => r.i)).size, 11);
  });

  it('regex outputs match their pattern', async () => {
    const patterns = [
      '[A-Z]{3}-\\d{4}',
      '(foo|bar)+baz?',
      '\\w+@\\w+\\.(com|org)',
      '[^aeiou\\s]{5}',
      '(\\d{3})-\\1',
      '[α-ω]{2,4}',
      '\\u00e9t\\x41\\x2e',
      'a.b*c+',
      '(?<year>\\d{4})-(?:0[1-9]|1[0-2])',
      '^https?://[a-z]+\\.[a-z]{2,3}$',
      '\\s\\S\\d\\D\\w\\W',
      '[\\-\\]]x[0-9a-fA-F]{8}',
      'x{2,}y{0,1000}',
      '(ab|cd|)*',
      '\\+1 \\(\\d{3}\\) \\d{3}-\\d{4}',
      '😀[a-c]é',
    ];
    const fields = patterns.map((pattern, i) => ({ name: `r${i}`, type: 'regex', options: { pattern } }));
    const rows = await generate({ fields, rows: 50, seed: 11 });
    patterns.forEach((pattern, i) => {
      const re = new RegExp(`^(?:${pattern})$`);
      for (const row of rows) assert.match(row[`r${i}`] as string, re, `pattern ${pattern}`);
    });
    for (const row of rows) assert.ok((row.r12 as string).length <= 2 + 10 + 10, 'unbounded and large ranges capped at min + 10');
  });

  it('regex named back-references \\k<name> and (?P=name) repeat the group (was "abk<x>"), checked by POST /v1/regex-extract', async () => {
    const [audit] = await generate({ fields: [{ name: 'r', type: 'regex', options: { pattern: '(?<x>ab)\\k<x>' } }], rows: 1 });
    assert.equal(audit.r, 'abab');
    const patterns = [
      '(?<x>ab)\\k<x>',
      '(?P<x>ab)(?P=x)',
      '(?<x>a|b)(?<y>\\d)\\k<y>\\k<x>\\2\\1',
      '(?<x>a)?(?<y>b)\\k<y>',
      `(?<q>['"])\\w{1,3}\\k<q>1`,
      '(\\d)(?<n>x|y)\\k<n>\\1',
      '(?P<w>[a-z]{2}) (?P=w)-[(?P=w)]',
      '(?<é>[α-ω])\\k<é>',
      // Numbered references count named groups too, and groups an optional part skipped.
      '(?<a>x|y)\\1',
      '(a)?(b)\\2',
      '(a)|(b)\\2',
      // A reference to a group that opens later matches the empty string (it was generated as U+0001).
      '\\1(a)',
      '\\2(a)(b)\\1',
      // Past the last group `\N` is no reference (an octal or identity escape) and stays as it is.
      '(a)\\8',
      '(a)\\1\\2',
      '\\2(a)',
    ];
    const fields = patterns.map((pattern, i) => ({ name: `r${i}`, type: 'regex', options: { pattern } }));
    const rows = await generate({ fields, rows: 30, seed: 5 });
    for (const [i, pattern] of patterns.entries()) {
      for (const row of rows) {
        const value = row[`r${i}`] as string;
        const res = await t.app.inject({
          method: 'POST',
          url: '/v1/regex-extract',
          headers: t.auth,
          payload: { pattern: `\\A(?:${pattern})\\Z`, text: value },
        });
        assert.equal(res.json().match_count, 1, `${pattern} gave ${JSON.stringify(value)}`);
      }
    }
    assert.ok(
      rows.some((row) => row.r3 === 'bb') && rows.some((row) => row.r3 === 'abb'),
      'an optional named group before the referenced one',
    );
  });

  it('regex max_repeat bounds * and + (0 gives the minimum)', async () => {
    const rows = await generate({ fields: [{ name: 'r', type: 'regex', options: { pattern: 'a*b+', max_repeat: 0 } }], rows: 5 });
    assert.deepEqual(
      rows.map((r) => r.r),
      ['b', 'b', 'b', 'b', 'b'],
    );
  });

  it('nullable: null_ratio is roughly honoured with a seed; 0 and 1 are exact; default 0.1', async () => {
    const rows = await generate({
      rows: 1000,
      seed: 1,
      fields: [
        { name: 'a', type: 'name', options: { nullable: true, null_ratio: 0.3 } },
        { name: 'b', type: 'name', options: { nullable: true } },
        { name: 'c', type: 'name', options: { nullable: true, null_ratio: 0 } },
        { name: 'd', type: 'name', options: { nullable: true, null_ratio: 1 } },
        { name: 'e', type: 'name', options: { null_ratio: 0.9 } },
      ],
    });
    const nulls = (k: string) => rows.filter((r) => r[k] === null).length;
    assert.ok(nulls('a') > 250 && nulls('a') < 350, `a: ${nulls('a')}`);
    assert.ok(nulls('b') > 60 && nulls('b') < 140, `b: ${nulls('b')}`);
    assert.equal(nulls('c'), 0);
    assert.equal(nulls('d'), 1000);
    assert.equal(nulls('e'), 0, 'null_ratio without nullable: true has no effect');
  });

  it('locales change the data: de_DE weekdays and ja_JP names', async () => {
    const de = await generate({ fields: [{ name: 'w', type: 'weekday' }], rows: 20, seed: 2, locale: 'de_DE' });
    for (const r of de) assert.match(r.w as string, /^(Montag|Dienstag|Mittwoch|Donnerstag|Freitag|Samstag|Sonntag)$/);
    const ja = await generate({ fields: [{ name: 'n', type: 'last_name' }], rows: 5, seed: 2, locale: 'ja_JP' });
    for (const r of ja) assert.match(r.n as string, /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]+$/u);
  });
});
