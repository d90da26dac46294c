import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { COMPILE_CACHE_CHARS, COMPILE_CACHE_SIZE, expressionCacheStats } from '../../src/areas/devtools/jmespath.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';

describe('POST /v1/json-transform: answers and bad input', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  const transform = (payload: unknown) =>
    t.app.inject({ method: 'POST', url: '/v1/json-transform', headers: t.auth, payload: payload as object });

  it('answers result and the echoed expression', async () => {
    const res = await transform({
      data: {
        people: [
          { name: 'Ada', age: 36 },
          { name: 'Alan', age: 41 },
        ],
      },
      expression: 'people[?age > `40`].name',
    });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { result: ['Alan'], expression: 'people[?age > `40`].name' });
  });

  it('an empty expression is a syntax error: 400 invalid_expression, like any other invalid expression', async () => {
    const res = await transform({ data: { a: 1 }, expression: '' });
    assert.equal(res.statusCode, 400);
    const body = res.json();
    assert.equal(body.code, 'invalid_expression');
    assert.equal(body.error_type, 'syntax');
    assert.equal(body.expression, '');
    assert.equal(body.position, 0);
    assert.match(body.error, /Syntax error/);
  });

  it('a result of null is sent as null', async () => {
    const res = await transform({ data: { a: 1 }, expression: 'missing' });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { result: null, expression: 'missing' });
  });

  it('sort orders numbers numerically and strings by code point', async () => {
    const numbers = await transform({ data: { a: [10, 9, 1, 100, -2.5] }, expression: 'sort(a)' });
    assert.deepEqual(numbers.json().result, [-2.5, 1, 9, 10, 100]);
    const strings = await transform({ data: { a: ['b', '\u{1F600}', '\uFFFD', 'a', 'B'] }, expression: 'sort(a)' });
    assert.deepEqual(strings.json().result, ['B', 'a', 'b', '\uFFFD', '\u{1F600}']);
  });

  it('sort_by is stable: elements with equal keys keep their order, for string and number keys', async () => {
    const p = [
      { n: 'b', i: 1 },
      { n: 'a', i: 2 },
      { n: 'b', i: 3 },
      { n: 'b', i: 4 },
      { n: 'a', i: 5 },
    ];
    const byString = await transform({ data: { p }, expression: 'sort_by(p, &n)[*].i' });
    assert.deepEqual(byString.json().result, [2, 5, 1, 3, 4]);
    const byNumber = await transform({ data: { p: p.map((x) => ({ ...x, n: x.n === 'a' ? 1 : 0 })) }, expression: 'sort_by(p, &n)[*].i' });
    assert.deepEqual(byNumber.json().result, [1, 3, 4, 2, 5]);
  });

  it('sort_by refuses keys that are not all numbers or all strings (invalid_type)', async () => {
    for (const data of [{ p: [{ n: 1 }, { n: 'a' }] }, { p: [{ n: true }, { n: false }] }, { p: [{ n: 'a' }, {}] }]) {
      const res = await transform({ data, expression: 'sort_by(p, &n)' });
      assert.equal(res.statusCode, 400, JSON.stringify(data));
      assert.equal(res.json().error_type, 'invalid_type');
    }
  });

  it('foo[ is a syntax error with its position', async () => {
    const res = await transform({ data: {}, expression: 'foo[' });
    assert.equal(res.statusCode, 400);
    const body = res.json();
    assert.equal(body.code, 'invalid_expression');
    assert.equal(body.error_type, 'syntax');
    assert.equal(body.expression, 'foo[');
    assert.equal(body.position, 4);
    assert.match(body.error, /at position 4/);
    assert.match(body.detail, /Invalid JMESPath expression/);
  });

  it('an unknown character is a lexer error at its offset', async () => {
    const res = await transform({ data: {}, expression: 'a # b' });
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().error_type, 'lexer');
    assert.equal(res.json().position, 2);
  });

  it('an unterminated raw string is a lexer error (the library accepts it silently)', async () => {
    const res = await transform({ data: {}, expression: "'abc" });
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().error_type, 'lexer');
    assert.equal(res.json().position, 0);
  });

  it('an unknown function is unknown_function even where it would never be called', async () => {
    const res = await transform({ data: {}, expression: 'missing.no_such_fn(@)' });
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().error_type, 'unknown_function');
    assert.match(res.json().error, /no_such_fn/);
  });

  it('constructor() and toString() are unknown functions, not Object methods', async () => {
    for (const expression of ['constructor(@)', 'toString(@)', '__proto__(@)']) {
      const res = await transform({ data: {}, expression });
      assert.equal(res.statusCode, 400, expression);
      assert.equal(res.json().error_type, 'unknown_function', expression);
    }
  });

  it('wrong arity is invalid_arity', async () => {
    const res = await transform({ data: [1], expression: 'abs(@, @)' });
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().error_type, 'invalid_arity');
  });

  it('a runtime type error is invalid_type', async () => {
    const res = await transform({ data: { s: 'x' }, expression: 'abs(s)' });
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().error_type, 'invalid_type');
  });

  it('function errors carry the position of the call when it is certain, and their messages read as sentences', async () => {
    const cases: Array<[string, unknown, string, string, number | undefined]> = [
      // An unknown name fails at its first call; quoted text that looks like a call does not count.
      ["a || nosuch('nosuch(') || nosuch(b)", {}, 'unknown_function', 'Unknown function: nosuch() (at position 5)', 5],
      ['abs(a, b)', { a: 1, b: 2 }, 'invalid_arity', 'Invalid arity: abs() takes 1 argument but received 2 (at position 0)', 0],
      [
        'a || abs(`"x"`)',
        {},
        'invalid_type',
        'Invalid type: abs() expected argument 1 to be type (number) but received type string instead (at position 5)',
        5,
      ],
      // Called twice: which call failed is not known, so no position.
      [
        '[abs(`1`), abs(`"x"`)]',
        {},
        'invalid_type',
        'Invalid type: abs() expected argument 1 to be type (number) but received type string instead',
        undefined,
      ],
      ['to_number(a) + `"s"`', { a: '1' }, 'invalid_type', 'Invalid type: an arithmetic operand is not a number', undefined],
      // Errors raised inside a call that the library words without the function's name are given it.
      [
        'people | sort_by(@, &name)',
        { people: [{ name: 'a' }, {}] },
        'invalid_type',
        'Invalid type in sort_by(): expected (string), received null (at position 9)',
        9,
      ],
      [
        'length(max_by(p, &b))',
        { p: [{ b: true }] },
        'invalid_type',
        'Invalid type in max_by(): expected one of (number | string), received boolean (at position 7)',
        7,
      ],
      ['type(&a)', { a: 1 }, 'invalid_type', 'Invalid type in type(): an expression reference (&…) is not a JSON value (at position 0)', 0],
    ];
    for (const [expression, data, type, error, position] of cases) {
      const res = await transform({ data, expression });
      assert.equal(res.statusCode, 400, expression);
      const body = res.json();
      assert.equal(body.error_type, type, expression);
      assert.equal(body.error, error, expression);
      assert.equal(body.position, position, expression);
      assert.equal(body.detail, `Invalid JMESPath expression: ${error}.`, expression);
    }
  });

  it('an object in the data with an expref key is data, never an expression (sort_by(people, k) ran it as one)', async () => {
    const data = { people: [{ a: 2 }, { a: 1 }], k: { expref: true, type: 'Field', name: 'a' } };
    const sorted = await transform({ data, expression: 'sort_by(people, k)' });
    assert.equal(sorted.statusCode, 400);
    assert.equal(sorted.json().error_type, 'invalid_type');
    assert.match(sorted.json().error, /sort_by\(\) expected argument 2 to be type \(expression\) but received type object/);
    assert.equal((await transform({ data, expression: 'type(k)' })).json().result, 'object');
    assert.deepEqual((await transform({ data, expression: 'k' })).json().result, data.k);
    assert.deepEqual((await transform({ data, expression: 'sort_by(people, &a)' })).json().result, [{ a: 1 }, { a: 2 }]);
  });

  it('an expression reference in the result has no JSON form: 400 invalid_type, not the parse tree', async () => {
    for (const expression of ['&a', '[&a, &b]', '{x: &a}', 'not_null(&a)']) {
      const res = await transform({ data: { a: 1 }, expression });
      assert.equal(res.statusCode, 400, expression);
      assert.equal(res.json().error_type, 'invalid_type', expression);
      assert.equal(
        res.json().error,
        'Invalid type: an expression reference (&…) is not a JSON value; it is only an argument of functions such as sort_by or map',
      );
    }
  });

  it('an unbound variable is undefined_variable', async () => {
    const res = await transform({ data: {}, expression: '$nope' });
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().error_type, 'undefined_variable');
  });

  it('__proto__ and constructor keys in data are ordinary keys', async () => {
    const data = JSON.parse('{"__proto__": {"x": 1}, "a": {}, "constructor": 5, "list": [{"k": "__proto__"}, {"k": "constructor"}]}');
    const cases: Array<[string, unknown]> = [
      ['"__proto__".x', 1],
      ['a.constructor', null],
      ['a.toString', null],
      ['constructor', 5],
      ['keys(@)', ['__proto__', 'a', 'constructor', 'list']],
      ['{__proto__: a, b: `1`}', JSON.parse('{"__proto__": {}, "b": 1}')],
      ['merge(`{}`, @).__proto__', { x: 1 }],
      ['group_by(list, &k)', JSON.parse('{"__proto__": [{"k": "__proto__"}], "constructor": [{"k": "constructor"}]}')],
    ];
    for (const [expression, expected] of cases) {
      const res = await transform({ data, expression });
      assert.equal(res.statusCode, 200, expression);
      assert.equal(res.body.includes('"__proto__"') || !JSON.stringify(expected).includes('__proto__'), true, expression);
      assert.deepEqual(res.json().result, expected, expression);
    }
  });

  it('let, arithmetic, ternary and $ (community extensions) work', async () => {
    const cases: Array<[string, unknown]> = [
      ['let $x = a in b[?@ > $x]', [3]],
      ['a + b[0] * `2`', 4],
      ['a > `5` ? `"big"` : `"small"`', 'small'],
      [
        'b[*].{v: @, root: $.a}',
        [
          { v: 1, root: 2 },
          { v: 3, root: 2 },
        ],
      ],
      ["pad_left('7', `3`, '0')", '007'],
      ['let $n = `null` in let $m = `1` in $n', null],
    ];
    for (const [expression, expected] of cases) {
      const res = await transform({ data: { a: 2, b: [1, 3] }, expression });
      assert.equal(res.statusCode, 200, expression);
      assert.deepEqual(res.json().result, expected, expression);
    }
  });

  it('max and min of 300000 numbers do not overflow the stack', async () => {
    const data = Array.from({ length: 300_000 }, (_, i) => i % 1000);
    const res = await transform({ data, expression: '[max(@), min(@)]' });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json().result, [999, 0]);
  });

  it('deeply nested data (depth 900) is queried without a 5xx', async () => {
    const data = JSON.parse('['.repeat(900) + '1' + ']'.repeat(900));
    const res = await transform({ data, expression: '[][][][][][][][][][]' });
    assert.equal(res.statusCode, 200);
    const flat = await transform({ data, expression: 'length(@)' });
    assert.equal(flat.json().result, 1);
  });

  it('an expression nesting too deeply is a 422, not a crash', async () => {
    const res = await transform({ data: {}, expression: '('.repeat(4000) + 'a' + ')'.repeat(4000) });
    assert.equal(res.statusCode, 422);
    assert.equal(res.json().code, 'validation_error');
  });

  it('a chain too long for the stack is a 422 naming the expression, not the data; a 300-step chain evaluates', async () => {
    // Projections nest deepest in the parser (3333 `[*]`, 4999 `.*`); 3000-step chains run out of stack in the tree interpreter.
    for (const expression of [
      `a${'[*]'.repeat(3333)}`,
      `a${'.*'.repeat(4999)}`,
      `a${'||a'.repeat(3000)}`,
      `a${'.a'.repeat(3000)}`,
      `a${'|a'.repeat(3000)}`,
    ]) {
      const res = await transform({ data: { a: 1 }, expression });
      assert.equal(res.statusCode, 422, res.body);
      assert.deepEqual(res.json().errors, [{ path: 'expression', message: 'nests too deeply' }], expression.slice(0, 12));
    }
    for (const [expression, result] of [
      [`a${'||a'.repeat(300)}`, { a: 1 }],
      [`a${'.a'.repeat(300)}`, null],
      [`a${'|a'.repeat(300)}`, null],
    ] as const) {
      const res = await transform({ data: { a: { a: 1 } }, expression });
      assert.equal(res.statusCode, 200, expression.slice(0, 12));
      assert.deepEqual(res.json().result, result, expression.slice(0, 12));
    }
  });

  it('an exponentially growing result is refused with 422', async () => {
    const step = '[@,@,@,@,@,@,@,@,@,@]';
    const res = await transform({ data: [1], expression: Array(8).fill(step).join('|') });
    assert.equal(res.statusCode, 422);
    assert.match(res.json().detail, /more than 2000000 values/);
  });

  it('a result whose JSON would pass 32 MiB is refused with 422 (escapes, UTF-8 and numbers counted as written); just under it is served', async () => {
    const s = 'x'.repeat(1024 * 1024);
    const over = await transform({ data: { s }, expression: `[${Array(33).fill('s').join(',')}]` });
    assert.equal(over.statusCode, 422);
    assert.equal(over.json().code, 'validation_error');
    assert.match(over.json().detail, /more than 33554432 bytes of JSON/);
    assert.deepEqual(over.json().errors, [{ path: 'expression', message: 'result must hold at most 33554432 bytes of JSON' }]);
    const keys = await transform({ data: { s }, expression: `{${Array.from({ length: 40 }, (_, i) => `k${i}: s`).join(',')}}` });
    assert.equal(keys.statusCode, 422);
    const under = await transform({ data: { s }, expression: `[${Array(31).fill('s').join(',')}]` });
    assert.equal(under.statusCode, 200);
    assert.equal(under.json().result.length, 31);
    assert.equal(under.json().result[30], s);
    // 300000 control characters are 1.8 MB of JSON each time: 20 copies are 36 MB, though only 6 million characters.
    const escaped = await transform({ data: { e: '\u0001'.repeat(300_000) }, expression: `[${Array(20).fill('e').join(',')}]` });
    assert.equal(escaped.statusCode, 422);
    // Lone surrogates are written \ud800 (6 bytes), not as the 3 of U+FFFD: 20 copies of 300000 are 36 MB too.
    const lone = await transform({ data: { e: '\ud800'.repeat(300_000) }, expression: `[${Array(20).fill('e').join(',')}]` });
    assert.equal(lone.statusCode, 422);
    assert.match(lone.json().detail, /bytes of JSON/);
    // 80000 numbers of 24 digits and signs, 18 times: 36 MB of digits in 1.44 million values.
    const numbers = await transform({
      data: { n: Array(80_000).fill(-1.2345678901234568e-300) },
      expression: `[${Array(18).fill('n').join(',')}]`,
    });
    assert.equal(numbers.statusCode, 422);
    assert.match(numbers.json().detail, /bytes of JSON/);
    // A single string whose JSON passes the bound is refused too: 6 million control characters are 36 MB of escapes.
    const joined = await transform({ data: { e: '\u0001'.repeat(300_000) }, expression: `join('', [${Array(20).fill('e').join(',')}])` });
    assert.equal(joined.statusCode, 422);
    assert.match(joined.json().detail, /bytes of JSON/);
    const joinedUnder = await transform({ data: { s }, expression: `join('', [${Array(9).fill('s').join(',')}])` });
    assert.equal(joinedUnder.statusCode, 200);
    assert.equal(joinedUnder.json().result.length, 9 * s.length);
  });

  it('a pad width beyond the bound is invalid_value', async () => {
    const res = await transform({ data: {}, expression: "pad_left('a', `100000000`)" });
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().error_type, 'invalid_value');
  });

  it('missing expression, a non-string expression and missing data are 422 (an empty expression is an invalid one: 400)', async () => {
    for (const payload of [{ data: {} }, { data: {}, expression: 5 }, { expression: 'a' }]) {
      const res = await transform(payload);
      assert.equal(res.statusCode, 422, JSON.stringify(payload));
      assert.equal(res.json().code, 'validation_error');
    }
  });

  it('a repeated expression is served from the compile cache with the same answer', async () => {
    for (let i = 0; i < 3; i++) {
      const res = await transform({ data: { a: [i] }, expression: 'a[0]' });
      assert.equal(res.json().result, i);
    }
  });

  it('the compile cache is bounded by the characters of its expressions, oldest out first', async () => {
    // 110 distinct multi-selects of 5007 characters: 550770 characters, over the 500000 kept.
    const list = (i: number) => `[k${String(i).padStart(4, '0')}${',a'.repeat(2500)}]`;
    for (let i = 0; i < 110; i++) {
      const res = await transform({ data: { a: 1 }, expression: list(i) });
      assert.equal(res.statusCode, 200);
      assert.deepEqual(res.json().result, [null, ...Array(2500).fill(1)]);
    }
    const { standard } = expressionCacheStats();
    assert.ok(standard.chars <= COMPILE_CACHE_CHARS, `${standard.chars} characters kept`);
    assert.ok(standard.chars > COMPILE_CACHE_CHARS - 5007, `${standard.chars} characters kept`);
    assert.ok(standard.entries <= COMPILE_CACHE_SIZE);
    // Short expressions still fill the cache up to its entry bound.
    for (let i = 0; i < COMPILE_CACHE_SIZE + 10; i++) await transform({ data: { a: i }, expression: `a || \`${i}\`` });
    assert.equal(expressionCacheStats().standard.entries, COMPILE_CACHE_SIZE);
  });

  it('projections that multiply the data are stopped by the step budget (422)', async () => {
    const step = '[@,@,@,@,@,@,@,@,@,@][]';
    const res = await transform({ data: [1], expression: Array(9).fill(step).join('.') });
    assert.equal(res.statusCode, 422);
    assert.match(res.json().detail, /more than 10000000 evaluation steps/);
  });

  it('to_string, join and replace refuse to build strings over 10 million characters (422)', async () => {
    const data = 'x'.repeat(1_000_000);
    for (const expression of [
      'to_string([@,@,@,@,@,@,@,@,@,@,@,@])',
      "join('', [@,@,@,@,@,@,@,@,@,@,@,@])",
      "replace(@, 'x', 'yyyyyyyyyyyy')",
    ]) {
      const res = await transform({ data, expression });
      assert.equal(res.statusCode, 422, expression);
      assert.match(res.json().detail, /longer than 10000000 characters/, expression);
    }
    const small = await transform({ data: { a: [1, 'b'] }, expression: "join('-', a[].to_string(@))" });
    assert.equal(small.json().result, '1-b');
  });

  const resultOf = async (data: unknown, expression: string) => {
    const res = await transform({ data, expression });
    assert.equal(res.statusCode, 200, `${expression}: ${res.body}`);
    return res.json().result;
  };

  it('string functions count code points, as length does: astral characters are never cut in half', async () => {
    const s = '\u{1F600}ab';
    assert.equal(await resultOf(s, "find_first(@, 'b')"), 2);
    assert.equal(await resultOf('\u{1F600}a\u{1F600}a', "find_last(@, 'a')"), 3);
    assert.equal(await resultOf('\u{1F600}a\u{1F600}a', "find_first(@, 'a', `2`)"), 3);
    assert.equal(await resultOf('\u{1F600}\u{1F600}', "pad_right(@, `3`, '-')"), '\u{1F600}\u{1F600}-');
    assert.equal(await resultOf('ab', "pad_left(@, `4`, '\u{1F600}')"), '\u{1F600}\u{1F600}ab');
    assert.deepEqual(await resultOf(s, "split(@, '')"), ['\u{1F600}', 'a', 'b']);
    assert.deepEqual(await resultOf(s, "split(@, '', `1`)"), ['\u{1F600}', 'ab']);
    assert.equal(await resultOf('\u{1F600}a\u{1F600}', "trim(@, '\u{1F601}')"), '\u{1F600}a\u{1F600}');
    assert.equal(await resultOf('\u{1F600}a\u{1F600}', "trim(@, '\u{1F600}')"), 'a');
    assert.equal(await resultOf('\u{1F600}a\u{1F600}', "trim_left(@, '\u{1F600}')"), 'a\u{1F600}');
    assert.equal(await resultOf('a\u{1F600}', "replace(@, '', '-')"), '-a-\u{1F600}-');
    assert.equal(await resultOf('a\u{1F600}', "replace(@, '', '-', `1`)"), '-a\u{1F600}');
    // Non-overlapping, left to right, as Python's str.replace with a count.
    assert.equal(await resultOf('abab', "replace(@, 'a', 'ba', `2`)"), 'babbab');
    assert.equal(await resultOf(s, 'length(@)'), 3);
    // Half a character is never found inside a whole one.
    assert.equal(await resultOf({ s: '\u{1F600}', lo: '\uDE00', hi: '\uD83D' }, 'find_first(s, lo)'), null);
    assert.equal(await resultOf({ s: '\u{1F600}', lo: '\uDE00', hi: '\uD83D' }, 'find_last(s, hi)'), null);
    // A lone surrogate that is a whole code point of the text is found; split and replace never cut a pair either.
    assert.equal(await resultOf({ s: 'a\uDC00' }, "find_first(s, '\\uDC00')"), null); // a raw string: no escapes, 6 characters
    assert.equal(await resultOf({ s: 'a\uDC00', n: '\uDC00' }, 'find_first(s, n)'), 1);
    assert.deepEqual(await resultOf({ s: '\u{1F600}x\u{1F600}', n: '\uDE00' }, 'split(s, n)'), ['\u{1F600}x\u{1F600}']);
    assert.equal(await resultOf({ s: '\u{1F600}', n: '\uDE00' }, "replace(s, n, 'x')"), '\u{1F600}');
    assert.deepEqual(await resultOf({ s: 'a\u{1F600}b\u{1F600}c', n: '\u{1F600}' }, 'split(s, n)'), ['a', 'b', 'c']);
    // find_last counts overlapping occurrences, as rfind does.
    assert.equal(await resultOf('aaa', "find_last(@, 'aa')"), 1);
    assert.equal(await resultOf('a\u{1F600}a\u{1F600}a', "find_last(@, 'a\u{1F600}a')"), 2);
    // Plain text takes the same answers (no surrogate: the fast path).
    assert.equal(await resultOf('abcabc', "find_last(@, 'b', `0`, `4`)"), 1);
    assert.equal(await resultOf('  ab  ', 'trim(@)'), 'ab');
    assert.equal(await resultOf('ab', 'pad_left(@, `1`)'), 'ab');
  });

  it('group_by leaves out elements whose key is null; another non-string key is invalid_type', async () => {
    const data = { array: [{ name: 'one' }, { name: 'two' }, { b: false }, { name: 'one', x: 1 }] };
    assert.deepEqual(await resultOf(data, 'group_by(array, &name)'), {
      one: [{ name: 'one' }, { name: 'one', x: 1 }],
      two: [{ name: 'two' }],
    });
    const res = await transform({ data: { array: [{ name: 'one' }, { name: 5 }] }, expression: 'group_by(array, &name)' });
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().error_type, 'invalid_type');
    assert.match(res.json().error, /expected one of \(string\), received number/);
  });

  it('% by zero and arithmetic overflow are errors, as / by zero is (JEP 16), not null', async () => {
    for (const [expression, text] of [
      ['`10` % `0`', /divide by zero/],
      ['`1e308` * `10`', /overflow/],
      ['`-1e308` - `1e308`', /overflow/],
      ['`10` / `0`', /divide by zero/],
    ] as const) {
      const res = await transform({ data: null, expression });
      assert.equal(res.statusCode, 400, expression);
      assert.equal(res.json().code, 'invalid_expression', expression);
      assert.match(res.json().error, text, expression);
    }
    assert.equal(await resultOf(null, '`7` % `3`'), 1);
  });

  it('a function result or a JSON literal beyond a double is an error, not the null JSON would make of it', async () => {
    for (const [data, expression, errorType, error] of [
      [[1e308, 1e308], 'sum(@)', 'invalid_type', 'not-a-number: sum() overflows a double (at position 0)'],
      [[1e308, 1e308], 'avg(@)', 'invalid_type', 'not-a-number: avg() overflows a double (at position 0)'],
      [null, '`{"a":1e400}`', 'syntax', 'A JSON literal holds a number beyond a double (such as 1e400)'],
      [null, '[`1`, `[-1e999]`]', 'syntax', 'A JSON literal holds a number beyond a double (such as 1e400)'],
    ] as const) {
      const res = await transform({ data, expression });
      assert.equal(res.statusCode, 400, expression);
      assert.deepEqual([res.json().error_type, res.json().error], [errorType, error], expression);
    }
    assert.equal(await resultOf([1e308, -1e308], 'sum(@)'), 0);
  });

  it('a doubled minus is two minus signs (JEP 16 grammar): --a, a--b, --`1`', async () => {
    assert.equal(await resultOf({ a: 2 }, '--a'), 2);
    assert.equal(await resultOf({ a: 2, b: 3 }, 'a--b'), 5);
    assert.equal(await resultOf({ a: 2, b: 3 }, 'a - -b'), 5);
    assert.equal(await resultOf(null, '--`1`'), 1);
    // Inside quotes nothing changes.
    assert.equal(await resultOf({ 'a--b': 7 }, '"a--b"'), 7);
    assert.equal(await resultOf(null, "'--'"), '--');
  });

  it('to_number reads only strings in the JSON number grammar, else null', async () => {
    assert.deepEqual(
      await resultOf(['12', '-1.5e3', '0', '1e999', '', '0x10', ' 12 ', '+1', '01', 'Infinity', '1.'], '[*].to_number(@)'),
      [12, -1500, 0],
    );
    assert.deepEqual(
      await resultOf(['12', '-1.5e3', '0', '1e999', '', '0x10', ' 12 ', '+1', '01', 'Infinity', '1.'], 'map(&to_number(@), @)'),
      [12, -1500, 0, null, null, null, null, null, null, null, null],
    );
  });

  it('string functions on a long string count against the step bound: a projection over many elements stops with a 422', async () => {
    const data = { s: 'a'.repeat(1_000_000), items: Array.from({ length: 1000 }, (_, i) => i) };
    const res = await transform({ data, expression: "items[*].find_first($.s, 'b')" });
    assert.equal(res.statusCode, 422, res.body.slice(0, 200));
    assert.equal(res.json().code, 'validation_error');
    assert.match(res.json().detail, /evaluation steps/);
  });

  it('what string functions build counts against the step bound: a projection of split on a megabyte string stops with a 422, not an out-of-memory crash', async () => {
    const data = { s: 'a'.repeat(1_000_000), xs: Array.from({ length: 200 }, (_, i) => i) };
    for (const expression of [
      "let $s = s in xs[*].split($s, '')",
      "let $s = s in xs[*].replace($s, 'a', 'bb')",
      "[xs, xs][*][*].pad_left('x', `100000`)",
      "let $s = s in xs[*].join('', [$s, $s])",
    ]) {
      const res = await transform({ data, expression });
      assert.equal(res.statusCode, 422, `${expression}: ${res.body.slice(0, 200)}`);
      assert.match(res.json().detail, /evaluation steps/, expression);
    }
    // One call of that size is fine.
    assert.equal((await transform({ data, expression: "length(split(s, ''))" })).json().result, 1_000_000);
  });

  it('error positions count code points', async () => {
    const res = await transform({ data: null, expression: "'\u{1F600}\u{1F600}' | [" });
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().position, 8);
  });
});
