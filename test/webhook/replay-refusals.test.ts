import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { replay, seedCapture, startTarget, type SeededCapture, type TargetServer } from './replay-helpers.js';

describe('replay refusals (guard on, nothing allowed)', () => {
  let t: TestApp;
  let target: TargetServer;
  let seeded: SeededCapture;
  before(async () => {
    t = await buildTestApp();
    target = await startTarget((_req, res) => res.end('should never be reached'));
    seeded = await seedCapture(t);
  });
  after(async () => {
    await target.close();
    await t.close();
  });

  it('without target_url → 422 validation_error on target_url', async () => {
    const res = await replay(t, seeded, {});
    assert.equal(res.statusCode, 422);
    assert.equal(res.json().code, 'validation_error');
    assert.deepEqual(res.json().errors, [{ path: 'target_url', message: 'is required' }]);
  });

  it('ftp://, relative and scheme-less URLs → 422 validation_error on target_url', async () => {
    for (const url of ['ftp://example.com/file', '/v1/hook', 'example.com/hook', 'file:///etc/passwd', '']) {
      const res = await replay(t, seeded, { target_url: url });
      assert.equal(res.statusCode, 422, url);
      assert.equal(res.json().code, 'validation_error', url);
      assert.equal(res.json().errors[0].path, 'target_url', url);
    }
  });

  it('URLs the WHATWG parser would repair or refuse for their port → 422 on target_url with a message that says why', async () => {
    const cases: Array<[string, RegExp]> = [
      // `http:/x` and `http:x` parse as `http://x/`: taken only when written in full, so no lookup of `x` is made.
      ['http:/x', /scheme, then `\/\/` and a host/],
      ['HTTP:x/hook', /scheme, then `\/\/` and a host/],
      [`http://127.0.0.1:99999/`, /invalid port \("99999"\)/],
      [`http://[::1]:7x/`, /invalid port \("7x"\)/],
    ];
    for (const [url, message] of cases) {
      const res = await replay(t, seeded, { target_url: url });
      assert.equal(res.statusCode, 422, url);
      assert.equal(res.json().code, 'validation_error', url);
      assert.equal(res.json().errors[0].path, 'target_url', url);
      assert.match(res.json().errors[0].message, message, url);
    }
  });

  it('every loopback form → 422 target_not_allowed and the target never sees a request', async () => {
    const forms = ['127.0.0.1', '127.1', 'localhost', '[::1]', '0.0.0.0', '[::ffff:127.0.0.1]', '2130706433', '0x7f000001'];
    for (const host of forms) {
      const res = await replay(t, seeded, { target_url: `http://${host}:${target.port}/hook` });
      assert.equal(res.statusCode, 422, host);
      assert.equal(res.json().code, 'target_not_allowed', host);
    }
    assert.equal(target.received.length, 0);
  });

  it('the refusal names the address and its kind in the contract error body', async () => {
    const res = await replay(t, seeded, { target_url: `http://0x7f000001:${target.port}/` });
    assert.deepEqual(res.json(), {
      detail: '127.0.0.1 is a loopback address; replay targets must be public addresses.',
      code: 'target_not_allowed',
    });
  });

  it('bad override headers and methods → 422', async () => {
    const url = `http://127.0.0.1:${target.port}/`;
    const cases: [unknown, string][] = [
      [{ target_url: url, headers: { 'bad name': 'x' } }, 'headers.bad name'],
      [{ target_url: url, headers: { 'x-ok': 'a\r\nInjected: 1' } }, 'headers.x-ok'],
      [{ target_url: url, headers: { 'Transfer-Encoding': 'chunked' } }, 'headers.Transfer-Encoding'],
      [{ target_url: url, headers: { 'content-length': '5' } }, 'headers.content-length'],
      [{ target_url: url, method: 'GE T' }, 'method'],
      [{ target_url: url, method: 'connect' }, 'method'],
      [{ target_url: url, headers: { 'x-n': 5 } }, 'headers.x-n'],
    ];
    for (const [body, path] of cases) {
      const res = await replay(t, seeded, body);
      assert.equal(res.statusCode, 422, path);
      assert.equal(res.json().code, 'validation_error', path);
      assert.equal(res.json().errors[0].path, path);
    }
  });

  it("unknown bin, unknown request, another key's bin and an expired bin → 404", async () => {
    const url = { target_url: 'https://example.com/' };
    assert.equal((await replay(t, { ...seeded, binId: 'bin_nope' }, url)).statusCode, 404);
    assert.equal((await replay(t, { ...seeded, requestId: 'req_nope' }, url)).statusCode, 404);
    const other = await t.newKey();
    const foreign = await replay(t, seeded, url, { 'x-api-key': other.secret });
    assert.equal(foreign.statusCode, 404);
    assert.equal(foreign.json().code, 'not_found');
    const theirs = await seedCapture(t, {}, { 'x-api-key': other.secret });
    assert.equal((await replay(t, theirs, url)).statusCode, 404);
    const expiring = await seedCapture(t);
    t.clock.advance(3_600_000);
    const expired = await replay(t, expiring, url);
    assert.equal(expired.statusCode, 404);
    assert.equal(expired.json().code, 'not_found');
  });

  it('needs an API key', async () => {
    const res = await replay(t, seeded, { target_url: 'https://example.com/' }, {});
    assert.equal(res.statusCode, 401);
  });
});
