import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { REGEX_POOL } from '../../src/areas/devtools/regex-schema.js';
import { USER_WORK_NICENESS } from '../../src/workers/start-worker.js';
import { ADMIN_TOKEN, buildTestApp, listenOnLoopback, type TestApp } from '../helpers/app.js';
import { startServiceProcess, type ServiceProcess } from '../helpers/processes.js';

interface Match {
  match: string;
  start: number;
  end: number;
  groups: (string | null)[];
  named_groups: Record<string, string | null>;
}

describe('POST /v1/regex-extract', () => {
  let t: TestApp;
  let baseUrl: string;
  before(async () => {
    t = await buildTestApp();
    baseUrl = await listenOnLoopback(t.app);
  });
  after(() => t.close());

  const extract = (payload: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: '/v1/regex-extract', headers: t.auth, payload });
  const matchesOf = async (payload: Record<string, unknown>): Promise<Match[]> => {
    const res = await extract(payload);
    assert.equal(res.statusCode, 200, res.body);
    return res.json().matches;
  };
  const spans = (matches: Match[]) => matches.map((m) => [m.match, m.start, m.end]);

  it('returns every match with code-point offsets past emoji, Python named groups and the full shape', async () => {
    const res = await extract({
      pattern: '(?P<user>\\w+)@(?P<domain>[\\w.]+)',
      text: '😀😀 ana@example.com or 👍🏽 bo@test.org',
      flags: 'g',
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), {
      pattern: '(?P<user>\\w+)@(?P<domain>[\\w.]+)',
      match_count: 2,
      matches: [
        {
          match: 'ana@example.com',
          start: 3,
          end: 18,
          groups: ['ana', 'example.com'],
          named_groups: { user: 'ana', domain: 'example.com' },
        },
        { match: 'bo@test.org', start: 25, end: 36, groups: ['bo', 'test.org'], named_groups: { user: 'bo', domain: 'test.org' } },
      ],
      truncated: false,
    });
  });

  it('offsets count code points, not UTF-16 units (astral characters inside matches too)', async () => {
    assert.deepEqual(spans(await matchesOf({ pattern: 'b.c', text: '😀😀ab😀cb€c', flags: 'u' })), [
      ['b😀c', 3, 6],
      ['b€c', 6, 9],
    ]);
  });

  it('without the u flag [^a] matches whole emoji, not lone surrogates (was 4 half-pair matches)', async () => {
    assert.deepEqual(spans(await matchesOf({ pattern: '[^a]', text: '😀a😀' })), [
      ['😀', 0, 1],
      ['😀', 2, 3],
    ]);
    const [first, second] = await matchesOf({ pattern: 'é(.)', text: '😀é😀 aé b' });
    assert.deepEqual([first.match, first.start, first.end, first.groups], ['é😀', 1, 3, ['😀']]);
    assert.deepEqual([second.match, second.start, second.end, second.groups], ['é ', 5, 7, [' ']]);
  });

  it('without the u flag . and [😀] take a whole emoji, and emoji ranges work as in Python', async () => {
    assert.deepEqual(spans(await matchesOf({ pattern: '.', text: '😀x' })), [
      ['😀', 0, 1],
      ['x', 1, 2],
    ]);
    assert.deepEqual(spans(await matchesOf({ pattern: '[😀]+', text: 'x😀😀' })), [['😀😀', 1, 3]]);
    assert.deepEqual(spans(await matchesOf({ pattern: '[😀-🙏]', text: 'a🙂b' })), [['🙂', 1, 2]]);
    assert.deepEqual(
      spans(await matchesOf({ pattern: '\\uD83D', text: '😀\uD83D' })),
      [['\uD83D', 1, 2]],
      'a lone surrogate only matches itself',
    );
  });

  it('Python and legacy spellings keep their meaning now that patterns run in Unicode mode', async () => {
    const cases: [string, string, string[]][] = [
      ['\\-\\:\\#\\ \\"\\\'\\@\\!', `x-:# "'@!`, [`-:# "'@!`]],
      ['[\\-\\:\\#\\ \\"]+', 'a-:# "b', ['-:# "']],
      ['a{x}|b}|\\d{2}', 'a{x} b} 123', ['a{x}', 'b}', '12']],
      ['x]|\\]', 'x] ]', ['x]', ']']],
      ['[\\w-.]+', 'ab-c.d e', ['ab-c.d', 'e']],
      ['(a)\\1|\\8|\\101', 'aa 8 A', ['aa', '8', 'A']],
      ['(?=a)*b', 'b', ['b']],
      ['\\k<x>', 'k<x>', ['k<x>']],
      ['\\u{1F600}|\\p{Lu}', 'a😀B', ['😀', 'B']],
    ];
    for (const [pattern, text, expected] of cases) {
      assert.deepEqual(
        (await matchesOf({ pattern, text })).map((m) => m.match),
        expected,
        pattern,
      );
    }
    // The same spellings are accepted with u too.
    assert.deepEqual(spans(await matchesOf({ pattern: '\\d\\-\\d{', text: '1-2{', flags: 'u' })), [['1-2{', 0, 4]]);
  });

  it('i and x flags and named groups work in Unicode mode (Kelvin sign folds to k, as in Python)', async () => {
    assert.deepEqual(spans(await matchesOf({ pattern: '\u212a😀', text: 'k😀 K😀', flags: 'i' })), [
      ['k😀', 0, 2],
      ['K😀', 3, 5],
    ]);
    const [m] = await matchesOf({ pattern: '(?P<e> . ) \\- # emoji then dash', text: 'a😀-', flags: 'x' });
    assert.deepEqual([m.match, m.start, m.end, m.named_groups], ['😀-', 1, 3, { e: '😀' }]);
  });

  it('a pattern only the legacy syntax reads still runs without u, never splitting a surrogate pair; with u it is a 422', async () => {
    const matches = await matchesOf({ pattern: '\\p{Foo}|[^a]', text: '😀ap{Foo}' });
    assert.deepEqual(spans(matches), [['p{Foo}', 2, 8]]);
    const res = await extract({ pattern: '\\p{Foo}|[^a]', text: '😀a', flags: 'u' });
    assert.equal(res.statusCode, 422);
    assert.equal(res.json().errors[0].path, 'pattern');
    assert.equal(res.json().errors[0].message, 'is not a valid regular expression: Invalid property name');
  });

  it('the OpenAPI document says matching is by code point', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    const body = res.json().paths['/v1/regex-extract'].post.requestBody.content['application/json'].schema;
    assert.match(body.description, /Matching is by Unicode code point whatever the flags/);
  });

  it('the OpenAPI description says a request that never ran is 429 rate_limited', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    const description: string = res.json().paths['/v1/regex-extract'].post.description;
    assert.match(description, /never ran: it answers 429 `rate_limited` with `Retry-After: 1`/);
  });

  it('gives null for groups that did not take part, numbered and named', async () => {
    const matches = await matchesOf({ pattern: '(?<x>a)|(?<y>b)', text: 'ab' });
    assert.deepEqual(
      matches.map((m) => [m.groups, m.named_groups]),
      [
        [['a', null], { x: 'a', y: null }],
        [[null, 'b'], { x: null, y: 'b' }],
      ],
    );
    const optional = await matchesOf({ pattern: '(\\d+)(px)?', text: '10 20px' });
    assert.deepEqual(
      optional.map((m) => m.groups),
      [
        ['10', null],
        ['20', 'px'],
      ],
    );
    assert.deepEqual(optional[0].named_groups, {});
  });

  it('accepts the Python backreference (?P=name), (?#comments) and a leading inline flag group', async () => {
    assert.deepEqual(spans(await matchesOf({ pattern: `(?P<q>['"])(?#quote)\\w+(?P=q)`, text: `say "hi" and 'yo" 'ok'` })), [
      ['"hi"', 4, 8],
      ["'ok'", 18, 22],
    ]);
    assert.deepEqual(spans(await matchesOf({ pattern: '(?i)abc', text: 'ABC abc' })), [
      ['ABC', 0, 3],
      ['abc', 4, 7],
    ]);
  });

  it('Python \\A and \\Z anchor the whole text even with the m flag; inside a class they stay letters', async () => {
    assert.deepEqual(spans(await matchesOf({ pattern: '\\A\\w|\\w\\Z', text: 'ab\ncd', flags: 'm' })), [
      ['a', 0, 1],
      ['d', 4, 5],
    ]);
    assert.deepEqual(spans(await matchesOf({ pattern: '[\\AZ]', text: 'xAZ' })), [
      ['A', 1, 2],
      ['Z', 2, 3],
    ]);
  });

  it('x flag strips whitespace and # comments outside classes, keeping escaped ones and class contents', async () => {
    const pattern = '(?P<area> \\d{3} )  # area code\n  -  (?P<line>\\d{4})  # line\n [ ]? \\# \\ x';
    const matches = await matchesOf({ pattern, text: 'call 555-1234 # x or 555-9876# x', flags: 'x' });
    assert.deepEqual(
      matches.map((m) => [m.match, m.named_groups]),
      [
        ['555-1234 # x', { area: '555', line: '1234' }],
        ['555-9876# x', { area: '555', line: '9876' }],
      ],
    );
  });

  it('flags i, m, s and u work and g is accepted', async () => {
    assert.deepEqual(spans(await matchesOf({ pattern: 'ab', text: 'AB ab', flags: 'ig' })), [
      ['AB', 0, 2],
      ['ab', 3, 5],
    ]);
    assert.deepEqual(spans(await matchesOf({ pattern: '^\\w', text: 'a\nb', flags: 'm' })), [
      ['a', 0, 1],
      ['b', 2, 3],
    ]);
    assert.deepEqual(spans(await matchesOf({ pattern: '^\\w', text: 'a\nb', flags: '' })), [['a', 0, 1]]);
    assert.deepEqual(spans(await matchesOf({ pattern: 'a.b', text: 'a\nb', flags: 's' })), [['a\nb', 0, 3]]);
    assert.deepEqual(spans(await matchesOf({ pattern: 'a.b', text: 'a\nb' })), []);
    assert.deepEqual(spans(await matchesOf({ pattern: '\\u{1F600}', text: 'x😀', flags: 'u' })), [['😀', 1, 2]]);
  });

  it('empty matches advance by one code point, as Python finditer does', async () => {
    assert.deepEqual(spans(await matchesOf({ pattern: 'x*', text: 'a😀x' })), [
      ['', 0, 0],
      ['', 1, 1],
      ['x', 2, 3],
      ['', 3, 3],
    ]);
    assert.deepEqual(spans(await matchesOf({ pattern: '', text: '😀😀' })), [
      ['', 0, 0],
      ['', 1, 1],
      ['', 2, 2],
    ]);
  });

  it('a group named __proto__ is ordinary data', async () => {
    const [m] = await matchesOf({ pattern: '(?<__proto__>a)', text: 'a' });
    assert.deepEqual(Object.entries(m.named_groups), [['__proto__', 'a']]);
  });

  it('stops at 10000 matches with truncated: true', async () => {
    const res = await extract({ pattern: 'a', text: 'a'.repeat(10_001) });
    assert.equal(res.statusCode, 200);
    const body = res.json();
    assert.equal(body.match_count, 10_000);
    assert.equal(body.matches.length, 10_000);
    assert.equal(body.truncated, true);
    assert.deepEqual(body.matches[9_999], { match: 'a', start: 9_999, end: 10_000, groups: [], named_groups: {} });
    const exact = (await extract({ pattern: 'a', text: 'a'.repeat(10_000) })).json();
    assert.equal(exact.match_count, 10_000);
    assert.equal(exact.truncated, false);
  });

  it('stops at 200000 values (matches, groups, null ones too): a thousand empty groups × 10000 matches is cut, fast', async () => {
    const started = Date.now();
    const res = await extract({ pattern: `${'(x)?'.repeat(1000)}a`, text: 'a'.repeat(10_000) });
    const took = Date.now() - started;
    assert.equal(res.statusCode, 200);
    const body = res.json();
    // 1001 values a match: 199 fit in 200000.
    assert.equal(body.match_count, 199);
    assert.equal(body.truncated, true);
    assert.equal(body.matches[0].groups.length, 1000);
    assert.ok(res.body.length < 2_000_000, `${res.body.length} bytes`);
    assert.ok(took < 1000, `took ${took} ms`);
  });

  it('(a+)+$ on 30 a and ! answers 422 regex_timeout within 1 s while /healthz keeps answering', async () => {
    const started = Date.now();
    const slow = fetch(`${baseUrl}/v1/regex-extract`, {
      method: 'POST',
      headers: { ...t.auth, 'content-type': 'application/json' },
      body: JSON.stringify({ pattern: '(a+)+$', text: `${'a'.repeat(30)}!` }),
    });
    const healthLatencies: number[] = [];
    for (let i = 0; i < 5; i++) {
      const sent = Date.now();
      const health = await fetch(`${baseUrl}/healthz`);
      assert.equal(health.status, 200);
      healthLatencies.push(Date.now() - sent);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const res = await slow;
    const elapsed = Date.now() - started;
    assert.equal(res.status, 422);
    assert.equal(((await res.json()) as { code: string }).code, 'regex_timeout');
    assert.ok(elapsed < 1000, `took ${elapsed} ms`);
    assert.ok(Math.max(...healthLatencies) < 250, `healthz latencies ${healthLatencies.join(', ')} ms`);
    // The stopped worker was replaced: the next pattern runs normally.
    assert.deepEqual(spans(await matchesOf({ pattern: 'a+', text: 'baab' })), [['aa', 1, 3]]);
  });

  it('four catastrophic patterns at once from one key (one more than its share of threads) all answer within 1 s', async () => {
    // An inject()-only app starts its threads on the first pattern: let them load first (under tsx, a second or so).
    for (let i = 0; i < 100 && (await extract({ pattern: 'y', text: 'xy' })).statusCode !== 200; i++);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const started = Date.now();
    const answers = await Promise.all(
      [1, 2, 3, 4].map(async () => {
        const res = await extract({ pattern: '(x+x+)+y', text: 'x'.repeat(40) });
        return { status: res.statusCode, code: res.json().code, retryAfter: res.headers['retry-after'], ms: Date.now() - started };
      }),
    );
    // Three run at once (the key's share) and are stopped at 500 ms. The fourth runs once one of their
    // threads is gone, and is stopped at its 800 ms deadline (422); or, when no thread was free by then
    // (terminating a thread at nice 10 on a loaded machine can take that long: CI saw it), it never ran: 429.
    // A thread still loading when the burst came leaves a pattern waiting the same way.
    for (const a of answers) {
      assert.ok(
        a.code === 'regex_timeout' ? a.status === 422 : a.status === 429 && a.code === 'rate_limited' && a.retryAfter === '1',
        JSON.stringify(a),
      );
      assert.ok(a.ms < 1000, `answered after ${a.ms} ms`);
    }
    // Some ran to their time limit (how many depends on how many threads were ready on this machine).
    assert.ok(
      answers.some((a) => a.status === 422),
      JSON.stringify(answers),
    );
    // The workers stop their patterns in the background (one that does not is replaced, slow under
    // tsx on a loaded host); until one is free a new request may itself be refused, so poll.
    let res = await extract({ pattern: 'y', text: 'xy' });
    for (let i = 0; i < 100 && res.statusCode !== 200; i++) res = await extract({ pattern: 'y', text: 'xy' });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(spans(res.json().matches), [['y', 1, 2]]);
  });

  it('422 for flag q, with the accepted flags listed', async () => {
    const res = await extract({ pattern: 'a', text: 'a', flags: 'iq' });
    assert.equal(res.statusCode, 422);
    assert.equal(res.json().code, 'validation_error');
    assert.deepEqual(res.json().errors, [{ path: 'flags', message: 'has unknown flag "q"; accepted: i, m, s, u, x, g' }]);
  });

  it('422 for duplicate group names (?<n>a)(?<n>b), with the engine message', async () => {
    const res = await extract({ pattern: '(?<n>a)(?<n>b)', text: 'ab' });
    assert.equal(res.statusCode, 422);
    assert.equal(res.json().code, 'validation_error');
    assert.equal(res.json().errors[0].path, 'pattern');
    assert.match(res.json().errors[0].message, /Duplicate capture group name/);
  });

  it('(?P=name) naming no group is 422 with or without u, as in Python', async () => {
    for (const flags of ['', 'u', 'i']) {
      const res = await extract({ pattern: 'a(?P=missing)', text: 'ak<missing>', flags });
      assert.equal(res.statusCode, 422, flags);
      assert.equal(res.json().errors[0].message, 'is not a valid regular expression: (?P=missing) refers to no group named "missing"');
    }
    assert.equal((await extract({ pattern: '(?P<x>a)(?P=x)', text: 'aa' })).statusCode, 200);
  });

  it('422 for an invalid pattern, Python spelling included, with the reason and not the rewritten source', async () => {
    for (const [pattern, reason] of [
      ['(', 'Unterminated group'],
      ['(?P<1x>a)', 'Invalid capture group name'],
      ['a{2,1}', 'numbers out of order in {} quantifier'],
      ['(?P=missing)', '(?P=missing) refers to no group named "missing"'],
    ]) {
      const res = await extract({ pattern, text: 'a', flags: 'u' });
      assert.equal(res.statusCode, 422, pattern);
      assert.equal(res.json().errors[0].path, 'pattern');
      assert.equal(res.json().errors[0].message, `is not a valid regular expression: ${reason}`);
    }
  });

  it('a 5 MB text is refused with 413 before any matching', async () => {
    const res = await extract({ pattern: 'a', text: 'a'.repeat(5 * 1024 * 1024) });
    assert.equal(res.statusCode, 413);
    assert.equal(res.json().code, 'payload_too_large');
  });

  it('a text just over 1 MiB is refused with 422', async () => {
    const res = await extract({ pattern: 'a', text: 'a'.repeat(1_048_577) });
    assert.equal(res.statusCode, 422);
    assert.deepEqual(
      res.json().errors.map((e: { path: string }) => e.path),
      ['text'],
    );
  });

  it('1 MiB is counted in bytes of UTF-8: 716800 é (1.37 MiB) is 422, 524288 é (exactly 1 MiB) is searched', async () => {
    const over = await extract({ pattern: 'a', text: 'é'.repeat(716_800) });
    assert.equal(over.statusCode, 422);
    assert.deepEqual(over.json().errors, [{ path: 'text', message: 'must be at most 1 MiB (1048576 bytes of UTF-8)' }]);
    const exact = await extract({ pattern: 'é$', text: 'é'.repeat(524_288) });
    assert.equal(exact.statusCode, 200);
    assert.deepEqual(spans(exact.json().matches), [['é', 524_287, 524_288]]);
  });

  it('a 1 MiB text is searched', async () => {
    const res = await extract({ pattern: 'z+', text: `${'a'.repeat(1_048_570)}zzz` });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(spans(res.json().matches), [['zzz', 1_048_570, 1_048_573]]);
  });

  it('422 for missing fields and wrong types', async () => {
    const res = await extract({ text: 1 });
    assert.equal(res.statusCode, 422);
    assert.deepEqual(
      res
        .json()
        .errors.map((e: { path: string }) => e.path)
        .sort(),
      ['pattern', 'text'],
    );
  });
});

// Against the service in its own process, as the audit ran it: the client's work does not share
// the server's event loop, and the server's threads can be counted.
describe('POST /v1/regex-extract: callers share the regex threads', () => {
  let service: ServiceProcess;
  before(async () => {
    service = await startServiceProcess({});
    // The first pattern starts the warm threads; give them time to load (the audit's pool was warm).
    await settled(await newKey());
    await sleep(500);
  });
  after(() => service.stop());

  const CATASTROPHIC = { pattern: '(a+)+$', text: `${'a'.repeat(30)}!` };
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const newKey = async (): Promise<string> => {
    const res = await fetch(`${service.url}/v1/admin/keys`, {
      method: 'POST',
      headers: { 'x-admin-token': ADMIN_TOKEN, 'content-type': 'application/json' },
      body: JSON.stringify({ plan: 'unlimited' }),
    });
    assert.equal(res.status, 201);
    return ((await res.json()) as { api_key: string }).api_key;
  };
  const post = async (key: string, payload: Record<string, unknown>) => {
    const sent = Date.now();
    const res = await fetch(`${service.url}/v1/regex-extract`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify(payload),
    });
    const body = (await res.json()) as { code?: string; matches?: { match: string; start: number; end: number }[] };
    return { status: res.status, body, retryAfter: res.headers.get('retry-after'), ms: Date.now() - sent };
  };
  /** Poll until the pool serves a harmless pattern (threads load in the background). */
  async function settled(key: string): Promise<void> {
    for (let i = 0; i < 100; i++) {
      if ((await post(key, { pattern: 'b', text: 'abc' })).status === 200) return;
      await sleep(20);
    }
    assert.fail('the pool never served a harmless pattern');
  }

  it('six catastrophic patterns from one key do not hold up a harmless one from another (was 422 regex_timeout after 900 ms)', async () => {
    const [attacker, other] = await Promise.all([newKey(), newKey()]);
    const slow = [1, 2, 3, 4, 5, 6].map(() => post(attacker, CATASTROPHIC));
    await sleep(50);
    const harmless = await post(other, { pattern: 'b', text: 'abc' });
    assert.equal(harmless.status, 200, JSON.stringify(harmless.body));
    assert.deepEqual(
      harmless.body.matches?.map((m) => [m.match, m.start, m.end]),
      [['b', 1, 2]],
    );
    assert.ok(harmless.ms < 300, `harmless pattern answered after ${harmless.ms} ms`);
    const answers = await Promise.all(slow);
    // Three run at once (the caller's share); the other three wait for them and run when a thread is
    // free within 800 ms, or answer 429 when none is (threads stopped at 500 ms are replaced first,
    // which a loaded machine may not finish in time: CI saw that once).
    for (const answer of answers) {
      const label = `${answer.status} ${answer.body.code}`;
      assert.ok(label === '422 regex_timeout' || label === '429 rate_limited', JSON.stringify(answer.body));
      assert.ok(answer.ms < 1000, `catastrophic pattern answered after ${answer.ms} ms`);
    }
    assert.ok(answers.filter((a) => a.status === 422).length >= 1, 'none ran to its time limit');
    console.log(`harmless: ${harmless.ms} ms; catastrophic: ${answers.map((a) => a.ms).join(', ')} ms`);
  });

  it('50 catastrophic patterns from 10 keys at once: threads stay bounded, each answers 422 or 429 within 1 s, /healthz keeps answering', async () => {
    const tasks = `/proc/${service.child.pid}/task`;
    const countable = existsSync(tasks);
    const threads = () => readdirSync(tasks).length;
    const keys = await Promise.all(Array.from({ length: 10 }, newKey));
    await settled(keys[0]!);
    const before = countable ? threads() : 0;
    let peak = before;
    const sampler = countable ? setInterval(() => (peak = Math.max(peak, threads())), 10) : undefined;
    const storm = Promise.all(keys.flatMap((key) => [1, 2, 3, 4, 5].map(() => post(key, CATASTROPHIC))));
    const healthLatencies: number[] = [];
    for (let i = 0; i < 8; i++) {
      const sent = Date.now();
      assert.equal((await fetch(`${service.url}/healthz`)).status, 200);
      healthLatencies.push(Date.now() - sent);
      await sleep(50);
    }
    const answers = await storm;
    clearInterval(sampler);
    const counts: Record<string, number> = {};
    for (const a of answers) {
      const label = `${a.status} ${a.body.code}`;
      counts[label] = (counts[label] ?? 0) + 1;
      assert.ok(label === '422 regex_timeout' || label === '429 rate_limited', `answered ${label}`);
      if (a.status === 429) assert.equal(a.retryAfter, '1');
    }
    const slowest = Math.max(...answers.map((a) => a.ms));
    console.log(
      `storm: ${JSON.stringify(counts)}, slowest ${slowest} ms, threads ${before} -> ${peak}, healthz ${healthLatencies.join('/')} ms`,
    );
    // The service stops each at 800 ms; 50 answers and this client share two cores with the busy threads.
    assert.ok(slowest < 1250, `slowest answer after ${slowest} ms`);
    // Some ran to their time limit (not every one refused unseen). How many depends on how many of
    // the pool's threads were ready: those stopped by the test before are being replaced, which on a
    // loaded machine takes longer than the storm's 800 ms (CI once saw 2 and 3 where the pool keeps 4).
    assert.ok((counts['422 regex_timeout'] ?? 0) >= 1, JSON.stringify(counts));
    assert.ok(
      (counts['422 regex_timeout'] ?? 0) <= REGEX_POOL.maxThreads * 2,
      `more ran than the threads could hold: ${JSON.stringify(counts)}`,
    );
    assert.ok(Math.max(...healthLatencies) < 250, `healthz latencies ${healthLatencies.join(', ')} ms`);
    // A worker is its thread and, under tsx, its module hooks' thread; a timed-out worker is replaced
    // while it is being terminated: at most three per place. The warm workers were counted before the storm.
    if (countable) assert.ok(peak - before <= 3 * REGEX_POOL.maxThreads, `threads ${before} -> ${peak}`);
    await settled(keys[0]!);
  });

  it(
    'on Linux the pattern threads run behind the event loop (nice 10), the main thread at 0',
    { skip: process.platform !== 'linux' && 'per-thread nice values are Linux only' },
    async () => {
      const pid = service.child.pid!;
      // /proc/<pid>/task/<tid>/stat: the nice value is field 19; the command (field 2) may hold spaces, so count from its ')'.
      const niceOf = (tid: string) => Number(readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8').split(') ')[1]!.split(' ')[16]);
      const byNice = new Map<number, number>();
      for (const tid of readdirSync(`/proc/${pid}/task`)) byNice.set(niceOf(tid), (byNice.get(niceOf(tid)) ?? 0) + 1);
      assert.equal(niceOf(String(pid)), 0);
      assert.equal(USER_WORK_NICENESS, 10);
      // The warm workers (each with tsx's module-hooks thread here) and nothing else run below 0.
      assert.ok((byNice.get(10) ?? 0) >= REGEX_POOL.size, JSON.stringify([...byNice]));
      assert.deepEqual(
        [...byNice.keys()].sort((a, b) => a - b),
        [0, 10],
      );
    },
  );
});
