import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, it } from 'node:test';
import { buildTestApp, listenOnLoopback, type TestApp } from '../helpers/app.js';

/** POST raw bytes over a real socket; status and parsed body. */
function postBytes(
  base: string,
  path: string,
  headers: Record<string, string>,
  body: Buffer,
): Promise<{ status: number; body: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${base}${path}`,
      { method: 'POST', agent: false, headers: { ...headers, 'content-type': 'application/json', 'content-length': String(body.length) } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as Record<string, unknown> }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('JSON bodies at the edges: encoding, numbers beyond a double, overlong ids', () => {
  let t: TestApp;
  let base: string;
  before(async () => {
    t = await buildTestApp();
    base = await listenOnLoopback(t.app);
  });
  after(() => t.close());

  /** The same request over a socket and through inject(). */
  const both = async (path: string, body: Buffer) => {
    const wire = await postBytes(base, path, t.auth, body);
    const injected = await t.app.inject({
      method: 'POST',
      url: path,
      headers: { ...t.auth, 'content-type': 'application/json' },
      payload: body,
    });
    return { wire, injected: { status: injected.statusCode, body: injected.json() as Record<string, unknown> } };
  };

  it('a body that is not UTF-8 is 400 invalid_json, not read with U+FFFD in place of its bytes', async () => {
    const bad = Buffer.concat([Buffer.from('{"data":"'), Buffer.from([0xe9]), Buffer.from('","expression":"@"}')]);
    const { wire, injected } = await both('/v1/json-transform', bad);
    for (const answer of [wire, injected]) {
      assert.equal(answer.status, 400);
      assert.equal(answer.body.code, 'invalid_json');
      assert.match(String(answer.body.detail), /not valid UTF-8/);
    }
    // A route outside the tools reads bodies the same way.
    const bins = await t.app.inject({
      method: 'POST',
      url: '/v1/bins',
      headers: { ...t.auth, 'content-type': 'application/json' },
      payload: Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]),
    });
    assert.equal(bins.statusCode, 400);
    assert.equal(bins.json().code, 'invalid_json');
    // Valid multi-byte UTF-8 is fine.
    const ok = await both('/v1/json-transform', Buffer.from('{"data":"é😀","expression":"@"}'));
    assert.equal(ok.wire.status, 200);
    assert.equal(ok.wire.body.result, 'é😀');
  });

  it('a number beyond ±1.8e308 is 422 naming where it is, not infinity or null', async () => {
    const cases: Array<[string, string, string]> = [
      ['/v1/number-format', '{"number":1e400,"format_type":"decimal"}', 'number'],
      ['/v1/array-ops', '{"operation":"sort","arrays":[[1e308,-1e308,-1E+400]]}', 'arrays[0][2]'],
      ['/v1/json-transform', `{"data":{"a":{"b":[0,${'9'.repeat(400)}]}},"expression":"@"}`, 'data.a.b[1]'],
      // A long integer part with a short exponent overflows too (308 digits and e1; 251 digits and e60; a fraction).
      ['/v1/array-ops', `{"operation":"sort","arrays":[[1,${'9'.repeat(308)}e1]]}`, 'arrays[0][1]'],
      ['/v1/number-format', `{"number":1${'0'.repeat(250)}e60,"format_type":"decimal"}`, 'number'],
      ['/v1/json-transform', `{"data":{"0":{"":-1${'0'.repeat(220)}.5e99}},"expression":"@"}`, 'data["0"][""]'],
    ];
    for (const [path, text, at] of cases) {
      const { wire, injected } = await both(path, Buffer.from(text));
      for (const answer of [wire, injected]) {
        assert.equal(answer.status, 422, `${path} ${text.slice(0, 40)}`);
        assert.equal(answer.body.code, 'validation_error');
        assert.deepEqual(answer.body.errors, [{ path: at, message: 'must be a finite number (at most ±1.7976931348623157e308)' }]);
      }
    }
  });

  it('runs of 209 digits (one short of what may overflow) cost no more to check than short numbers (the scan started again at every digit: 0.6 s for 2 MiB)', async () => {
    const bodyOf = (digits: number) => {
      const n = '1'.repeat(digits);
      const items = Array.from({ length: Math.floor(1_900_000 / (digits + 1)) }, () => n).join(',');
      return Buffer.from(`{"message":"hi","x":[${items}]}`);
    };
    const timed = async (body: Buffer) => {
      const started = performance.now();
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/email/form-spam-score',
        headers: { ...t.auth, 'content-type': 'application/json' },
        payload: body,
      });
      assert.equal(res.statusCode, 422, res.body.slice(0, 200)); // x is not a field: the body was read and checked
      return performance.now() - started;
    };
    const long = bodyOf(209);
    const short = bodyOf(9);
    await timed(long);
    await timed(short); // warm both paths
    const [longMs, shortMs] = [await timed(long), await timed(short)];
    assert.ok(longMs < 4 * shortMs + 50, `209-digit runs ${longMs.toFixed(0)} ms against ${shortMs.toFixed(0)} ms for 9-digit ones`);
  });

  it('large finite numbers, underflow to 0, and number-like text in strings are accepted as they are', async () => {
    const text = `{"data":[1e308,-1.7976931348623157e308,1e-400,1e0300,"1e400","${'7'.repeat(400)}"],"expression":"@"}`;
    const { wire, injected } = await both('/v1/json-transform', Buffer.from(text));
    for (const answer of [wire, injected]) {
      assert.equal(answer.status, 200);
      assert.deepEqual(answer.body.result, [1e308, -1.7976931348623157e308, 0, 1e300, '1e400', '7'.repeat(400)]);
    }
  });

  it("an overlong id is an unknown one: 404 with a key, 401 without (never the router's 400)", async () => {
    const long = `bin_${'a'.repeat(300)}`;
    for (const path of [`/v1/bins/${long}`, `/v1/bins/${long}/requests`]) {
      const res = await t.app.inject({ method: 'GET', url: path, headers: t.auth });
      assert.equal(res.statusCode, 404, path);
      assert.equal(res.json().code, 'not_found');
      assert.equal((await t.app.inject({ method: 'GET', url: path })).statusCode, 401);
    }
    const caught = await t.app.inject({ method: 'POST', url: `/v1/catch/${long}`, payload: 'x' });
    assert.equal(caught.statusCode, 404);
    assert.equal(caught.json().code, 'not_found');
  });
});
