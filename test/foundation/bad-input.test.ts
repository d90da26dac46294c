import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { ADMIN_TOKEN, buildTestApp, listenOnLoopback, type TestApp } from '../helpers/app.js';
import { registerProbeRoutes } from '../helpers/routes.js';

const json = { 'content-type': 'application/json' };

describe('bad input never produces a 5xx and always has detail + code', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({ extraRoutes: registerProbeRoutes });
  });
  after(() => t.close());

  it('malformed JSON → 400 invalid_json', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/test/typed', headers: json, payload: '{"count": 1,' });
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().code, 'invalid_json');
    assert.match(res.json().detail, /not valid JSON/);
  });

  it('JSON that is not an object where one is expected → 422 validation_error', async () => {
    for (const payload of ['[1,2]', '"text"', '42', 'null']) {
      const res = await t.app.inject({ method: 'POST', url: '/test/typed', headers: json, payload });
      assert.equal(res.statusCode, 422, payload);
      assert.equal(res.json().code, 'validation_error');
      assert.ok(Array.isArray(res.json().errors));
    }
  });

  it('a string where a number is expected (and the reverse) → 422 naming the field', async () => {
    let res = await t.app.inject({ method: 'POST', url: '/test/typed', headers: json, payload: { count: '60' } });
    assert.equal(res.statusCode, 422);
    assert.deepEqual(res.json().errors, [{ path: 'count', message: 'must be integer' }]);
    res = await t.app.inject({ method: 'POST', url: '/test/typed', headers: json, payload: { count: 1, name: 5 } });
    assert.equal(res.statusCode, 422);
    assert.deepEqual(res.json().errors, [{ path: 'name', message: 'must be string' }]);
  });

  it('missing required field and unknown field are listed one entry per field', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/test/typed', headers: json, payload: { extra: true } });
    assert.equal(res.statusCode, 422);
    const paths = res
      .json()
      .errors.map((e: { path: string }) => e.path)
      .sort();
    assert.deepEqual(paths, ['count', 'extra']);
  });

  it('__proto__ and constructor keys stay ordinary data and pollute nothing', async () => {
    const payload = '{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}, "toString": 1}';
    const res = await t.app.inject({ method: 'POST', url: '/test/echo', headers: json, payload });
    assert.equal(res.statusCode, 200);
    const body = res.json();
    assert.deepEqual(body.own_keys, ['__proto__', 'constructor', 'toString']);
    assert.equal(body.proto_is_object_prototype, true);
    assert.equal(body.polluted, false);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  it('an empty body with a JSON content type is not valid JSON where {} would not do: 400 invalid_json naming what to send', async () => {
    for (const payload of ['', ' \n']) {
      const res = await t.app.inject({ method: 'POST', url: '/test/typed', headers: json, payload });
      assert.equal(res.statusCode, 400, JSON.stringify(payload));
      assert.deepEqual(res.json(), {
        code: 'invalid_json',
        detail: 'The request body is empty but declared as JSON; send a JSON object (with count).',
      });
    }
    // Only a failure of the body itself is about the empty body: a bad path parameter stays a 422.
    const params = await t.app.inject({
      method: 'DELETE',
      url: `/v1/admin/keys/${'k'.repeat(300)}`,
      headers: { ...json, 'x-admin-token': ADMIN_TOKEN },
      payload: '',
    });
    assert.equal(params.statusCode, 422, params.body);
    // Without a body at all (no content type), the fields are checked as usual.
    const none = await t.app.inject({ method: 'POST', url: '/test/typed' });
    assert.equal(none.statusCode, 422);
    assert.deepEqual(none.json().errors, [{ path: 'count', message: 'is required' }]);
  });

  it('a JSON body with a content coding (gzip, br) → 415 naming it, not a 400 for the compressed bytes', async () => {
    for (const coding of ['gzip', 'br', 'deflate']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/test/typed',
        headers: { ...json, 'content-encoding': coding },
        payload: '{"count":1}',
      });
      assert.equal(res.statusCode, 415, coding);
      assert.deepEqual(res.json(), {
        code: 'unsupported_media_type',
        detail: `Content-Encoding "${coding}" is not supported: send the JSON body uncompressed.`,
      });
    }
    const identity = await t.app.inject({
      method: 'POST',
      url: '/test/typed',
      headers: { ...json, 'content-encoding': 'identity' },
      payload: '{"count":1}',
    });
    assert.equal(identity.statusCode, 200);
  });

  it('a non-JSON content type on a JSON endpoint → 415', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/test/typed', headers: { 'content-type': 'text/plain' }, payload: 'count=1' });
    assert.equal(res.statusCode, 415);
    assert.equal(res.json().code, 'unsupported_media_type');
  });

  it('JSON nested deeper than 1000 levels → 422', async () => {
    const payload = '['.repeat(1001) + ']'.repeat(1001);
    const res = await t.app.inject({ method: 'POST', url: '/test/echo', headers: json, payload });
    assert.equal(res.statusCode, 422);
    assert.equal(res.json().code, 'validation_error');
    assert.match(res.json().detail, /deeper than 1000/);
  });

  it('a body over 2 MiB → 413', async () => {
    const payload = JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024) });
    const res = await t.app.inject({ method: 'POST', url: '/test/echo', headers: json, payload });
    assert.equal(res.statusCode, 413);
    assert.equal(res.json().code, 'payload_too_large');
  });

  it('a 100 MB upload is refused with 413 without reading it all', async () => {
    const base = await listenOnLoopback(t.app);
    const { port } = new URL(base);
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/test/echo',
        headers: { 'content-type': 'application/json', 'content-length': String(100 * 1024 * 1024) },
      });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
        req.destroy();
      });
      req.on('error', (err) =>
        (err as NodeJS.ErrnoException).code === 'ECONNRESET' || (err as NodeJS.ErrnoException).code === 'EPIPE' ? undefined : reject(err),
      );
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      let sent = 0;
      const pump = () => {
        while (sent < 100 * 1024 * 1024 && !req.destroyed) {
          sent += chunk.length;
          if (!req.write(chunk)) return void req.once('drain', pump);
        }
      };
      pump();
    });
    assert.equal(status, 413);
  });

  it('an unexpected failure is a 500 that leaks nothing', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/test/boom' });
    assert.equal(res.statusCode, 500);
    assert.deepEqual(res.json(), { detail: 'Internal server error.', code: 'internal_error' });
  });

  it('a malformed URL (bad percent-encoding) → 400 bad_request in the contract shape', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/account/%zz' });
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().code, 'bad_request');
    assert.match(res.json().detail, /URL is malformed/);
    assert.ok(res.headers['x-request-id']);
  });

  it('X-Request-Id: a sane incoming id is echoed, anything else replaced', async () => {
    let res = await t.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'abc-123' } });
    assert.equal(res.headers['x-request-id'], 'abc-123');
    res = await t.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'bad id\u0001' } });
    assert.match(String(res.headers['x-request-id']), /^[0-9A-Za-z]{12}-[0-9a-z]+$/);
    res = await t.app.inject({ method: 'GET', url: '/nope' });
    assert.ok(res.headers['x-request-id'], 'errors carry a request id too');
  });
});
