import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { createMock as createMockVia, hitCount as hitCountVia } from './mock-helpers.js';

describe('mock serving (inject)', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({ env: { MAX_BODY_BYTES: '1024' } });
  });
  after(() => t.close());

  const createMock = (payload: object) => createMockVia(t, payload);
  const hitCount = (id: string) => hitCountVia(t, id);

  it('answers with the configured status, headers, body and content type plus the fixed headers, without a key', async () => {
    const id = await createMock({
      status_code: 418,
      headers: { 'X-Custom': 'yes', 'Content-Type': 'text/plain' },
      body: '<b>teapot</b>',
      content_type: 'text/html',
    });
    const res = await t.app.inject({ method: 'GET', url: `/v1/mock/${id}` });
    assert.equal(res.statusCode, 418);
    assert.equal(res.body, '<b>teapot</b>');
    assert.equal(res.headers['content-type'], 'text/html');
    assert.equal(res.headers['x-custom'], 'yes');
    assert.equal(res.headers['x-mock-id'], id);
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
    assert.equal(res.headers['content-security-policy'], 'sandbox');
    assert.equal(res.headers['content-length'], String(Buffer.byteLength('<b>teapot</b>')));
  });

  it("the service's headers win over the mock's own of the same name; a PATCH is served from the next hit on", async () => {
    const early = await createMock({ status_code: 102, headers: { 'x-mock-status': '999' } });
    const interim = await t.app.inject({ method: 'GET', url: `/v1/mock/${early}` });
    assert.equal(interim.headers['x-mock-status'], '102', "a 1xx mock: the service's X-Mock-Status, once");
    const id = await createMock({
      headers: { 'X-Request-Id': 'mine', 'X-Mock-Status': '999', 'Access-Control-Allow-Origin': 'https://app.example' },
      body: 'one',
    });
    const first = await t.app.inject({ method: 'GET', url: `/v1/mock/${id}`, headers: { 'x-request-id': 'req-abc' } });
    assert.equal(first.headers['x-request-id'], 'req-abc', "one X-Request-Id, the request's");
    assert.equal(first.headers['x-mock-status'], '999', "X-Mock-Status is the mock's own unless its status is 1xx");
    assert.equal(first.headers['access-control-allow-origin'], 'https://app.example');
    assert.equal(first.body, 'one');
    const patched = await t.app.inject({
      method: 'PATCH',
      url: `/v1/mocks/${id}`,
      headers: t.auth,
      payload: { headers: { 'x-new': 'yes' }, body: 'two', content_type: 'text/csv' },
    });
    assert.equal(patched.statusCode, 200);
    const second = await t.app.inject({ method: 'GET', url: `/v1/mock/${id}` });
    assert.equal(second.body, 'two');
    assert.equal(second.headers['x-new'], 'yes');
    assert.equal(second.headers['content-type'], 'text/csv');
    assert.equal(second.headers['access-control-allow-origin'], '*', 'the default again once the mock no longer sets it');
    assert.equal(second.headers['x-request-id'] !== undefined, true);
  });

  it('serves response_body JSON-encoded when body is absent; defaults to an empty JSON-typed 200', async () => {
    const structured = await createMock({ response_body: { users: [{ id: 1, name: 'Ada' }] } });
    const res = await t.app.inject({ method: 'POST', url: `/v1/mock/${structured}` });
    assert.equal(res.statusCode, 200);
    assert.equal(res.body, '{"users":[{"id":1,"name":"Ada"}]}');
    assert.equal(res.headers['content-type'], 'application/json');
    const empty = await createMock({});
    const plain = await t.app.inject({ method: 'GET', url: `/v1/mock/${empty}` });
    assert.equal(plain.statusCode, 200);
    assert.equal(plain.body, '');
    assert.equal(plain.headers['content-type'], 'application/json');
  });

  it('answers every method and sub-path when unrestricted, whatever body and content type is sent', async () => {
    const id = await createMock({ body: 'ok' });
    for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'PURGE', 'PROPFIND'] as const) {
      const res = await t.app.inject({
        method,
        url: `/v1/mock/${id}/deep/sub/path?x=1`,
        headers: { 'content-type': 'garbage/@@@' },
        payload: '{not json',
      });
      assert.equal(res.statusCode, 200, method);
      assert.equal(res.body, 'ok', method);
    }
    const noType = await t.app.inject({ method: 'POST', url: `/v1/mock/${id}`, payload: Buffer.from([0xff, 0x00]) });
    assert.equal(noType.statusCode, 200);
  });

  it('a sub-path with percent-encoded octets that are not UTF-8 is served by an unrestricted mock (and counted); a mock with a path answers 404 there', async () => {
    const id = await createMock({ body: 'ok' });
    const res = await t.app.inject({ method: 'GET', url: `/v1/mock/${id}/%ff` });
    assert.deepEqual([res.statusCode, res.body, res.headers['x-mock-id']], [200, 'ok', id]);
    const restricted = await createMock({ body: 'ok', path: '/orders' });
    const elsewhere = await t.app.inject({ method: 'GET', url: `/v1/mock/${restricted}/%ff` });
    assert.equal(elsewhere.statusCode, 404);
  });

  it('a CORS preflight is answered for the mock (204, allowed origin, methods and headers), neither delayed nor counted; an OPTIONS mock serves it instead', async () => {
    const preflight = (id: string, method = 'PUT') =>
      t.app.inject({
        method: 'OPTIONS',
        url: `/v1/mock/${id}/x`,
        headers: {
          origin: 'http://app.example',
          'access-control-request-method': method,
          'access-control-request-headers': 'content-type, x-token',
        },
      });
    const open = await createMock({ body: 'ok', delay_ms: 2000 });
    const started = Date.now();
    const res = await preflight(open);
    assert.ok(Date.now() - started < 1000);
    assert.equal(res.statusCode, 204);
    assert.equal(res.body, '');
    assert.deepEqual(
      [
        'access-control-allow-origin',
        'access-control-allow-methods',
        'access-control-allow-headers',
        'access-control-max-age',
        'x-mock-id',
        'x-content-type-options',
      ].map((h) => res.headers[h]),
      ['*', 'PUT', 'content-type, x-token', '86400', open, 'nosniff'],
    );
    assert.equal(await hitCount(open), 0);
    // A POST mock: its method; its own allow-origin wins (a preflight is not a 405).
    const post = await createMock({ body: 'ok', method: 'POST', headers: { 'Access-Control-Allow-Origin': 'http://app.example' } });
    const restricted = await preflight(post, 'POST');
    assert.deepEqual(
      [restricted.statusCode, restricted.headers['access-control-allow-methods'], restricted.headers['access-control-allow-origin']],
      [204, 'POST', 'http://app.example'],
    );
    // An OPTIONS mock answers the preflight itself, and counts it.
    const options = await createMock({ body: 'mine', method: 'OPTIONS', status_code: 200 });
    const own = await preflight(options);
    assert.deepEqual([own.statusCode, own.body], [200, 'mine']);
    assert.equal(await hitCount(options), 1);
    // A plain OPTIONS (no Origin) is an ordinary hit.
    const plain = await t.app.inject({ method: 'OPTIONS', url: `/v1/mock/${open}` });
    assert.equal(plain.statusCode, 200);
  });

  it('a content-type header without content_type sets the content type (on create and PATCH); content_type wins over it', async () => {
    const viaHeader = await createMock({ body: '<b>x</b>', headers: { 'Content-Type': 'text/html' } });
    assert.equal((await t.app.inject({ method: 'GET', url: `/v1/mock/${viaHeader}` })).headers['content-type'], 'text/html');
    const both = await createMock({ body: 'x', content_type: 'text/plain', headers: { 'content-type': 'text/html' } });
    assert.equal((await t.app.inject({ method: 'GET', url: `/v1/mock/${both}` })).headers['content-type'], 'text/plain');
    const none = await createMock({ body: '{}' });
    assert.equal((await t.app.inject({ method: 'GET', url: `/v1/mock/${none}` })).headers['content-type'], 'application/json');
    const patched = await t.app.inject({
      method: 'PATCH',
      url: `/v1/mocks/${none}`,
      headers: t.auth,
      payload: { headers: { 'content-type': 'text/csv' } },
    });
    assert.equal(patched.json().mock.content_type, 'text/csv');
    assert.equal((await t.app.inject({ method: 'GET', url: `/v1/mock/${none}` })).headers['content-type'], 'text/csv');
  });

  it('a body above MAX_BODY_BYTES → 413', async () => {
    const id = await createMock({ body: 'ok' });
    const res = await t.app.inject({
      method: 'POST',
      url: `/v1/mock/${id}`,
      headers: { 'content-type': 'application/octet-stream' },
      payload: Buffer.alloc(1025),
    });
    assert.equal(res.statusCode, 413);
    assert.equal(res.json().code, 'payload_too_large');
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
    assert.equal(await hitCount(id), 0);
  });

  it('method restriction: others → 405 with Allow; a GET mock also answers HEAD', async () => {
    const post = await createMock({ method: 'post', body: 'created' });
    const wrong = await t.app.inject({ method: 'GET', url: `/v1/mock/${post}` });
    assert.equal(wrong.statusCode, 405);
    assert.equal(wrong.json().code, 'method_not_allowed');
    assert.equal(wrong.headers.allow, 'POST');
    assert.equal((await t.app.inject({ method: 'POST', url: `/v1/mock/${post}` })).body, 'created');
    const get = await createMock({ method: 'GET', body: 'hello' });
    const head = await t.app.inject({ method: 'HEAD', url: `/v1/mock/${get}` });
    assert.equal(head.statusCode, 200);
    assert.equal(head.body, '');
    const del = await t.app.inject({ method: 'DELETE', url: `/v1/mock/${get}` });
    assert.equal(del.statusCode, 405);
    assert.equal(del.headers.allow, 'GET, HEAD');
    assert.equal(await hitCount(post), 1);
  });

  it('path restriction: only that sub-path answers, others 404', async () => {
    const id = await createMock({ path: '/users/1', body: '{"id":1}' });
    assert.equal((await t.app.inject({ method: 'GET', url: `/v1/mock/${id}/users/1?full=true` })).statusCode, 200);
    assert.equal((await t.app.inject({ method: 'GET', url: `/v1/mock/${id}/users/%31` })).statusCode, 200);
    for (const sub of ['', '/', '/users', '/users/2', '/users/1/']) {
      const res = await t.app.inject({ method: 'GET', url: `/v1/mock/${id}${sub}` });
      assert.equal(res.statusCode, 404, sub);
      assert.equal(res.json().code, 'not_found');
    }
  });

  it('a mock with a path gets a url ending with that path (percent-encoded), which answers', async () => {
    for (const path of ['/orders/1', '/café/ü', '/a%20b']) {
      const created = await t.app.inject({ method: 'POST', url: '/v1/mocks', headers: t.auth, payload: { path, body: 'here' } });
      assert.equal(created.statusCode, 201);
      const { mock, url } = created.json();
      assert.equal(url, `http://localhost:80/v1/mock/${mock.mock_id}${encodeURI(path)}`);
      assert.equal(mock.endpoint_url, `/v1/mock/${mock.mock_id}`);
      const served = await t.app.inject({ method: 'GET', url: new URL(url).pathname });
      assert.equal(served.statusCode, 200, path);
      assert.equal(served.body, 'here');
    }
  });

  it('a path with a lone surrogate or a . or .. segment is 422 and no mock is created', async () => {
    const before = (await t.app.inject({ method: 'GET', url: '/v1/mocks', headers: t.auth })).json().total;
    for (const path of ['/a\ud800b', '/a/../b', '/./x', '/a/..']) {
      const res = await t.app.inject({ method: 'POST', url: '/v1/mocks', headers: t.auth, payload: { path, body: 'x' } });
      assert.equal(res.statusCode, 422, path);
      assert.equal(res.json().errors[0].path, 'path', path);
    }
    assert.equal((await t.app.inject({ method: 'GET', url: '/v1/mocks', headers: t.auth })).json().total, before);
    // Dots inside a segment are ordinary characters.
    assert.equal(
      (await t.app.inject({ method: 'POST', url: '/v1/mocks', headers: t.auth, payload: { path: '/v1.2/a..b/.well-known' } })).statusCode,
      201,
    );
  });

  it('HEAD, 204 and 304 carry no body', async () => {
    const ok = await createMock({ body: 'payload' });
    const head = await t.app.inject({ method: 'HEAD', url: `/v1/mock/${ok}` });
    assert.equal(head.statusCode, 200);
    assert.equal(head.body, '');
    for (const status of [204, 304]) {
      const id = await createMock({ status_code: status, body: 'never sent' });
      const res = await t.app.inject({ method: 'GET', url: `/v1/mock/${id}` });
      assert.equal(res.statusCode, status);
      assert.equal(res.body, '');
      assert.equal(res.headers['x-mock-id'], id);
    }
  });

  it('hit_count is exact right after each response', async () => {
    const id = await createMock({ body: 'x' });
    for (let i = 1; i <= 5; i++) {
      await t.app.inject({ method: 'GET', url: `/v1/mock/${id}` });
      assert.equal(await hitCount(id), i);
    }
    await Promise.all(Array.from({ length: 50 }, () => t.app.inject({ method: 'POST', url: `/v1/mock/${id}/x` })));
    assert.equal(await hitCount(id), 55);
    await t.app.inject({ method: 'GET', url: `/v1/mock/${id}-nope` });
    assert.equal(await hitCount(id), 55);
  });

  it('unknown, deleted and expired mocks → 404 with the fixed headers', async () => {
    const unknown = await t.app.inject({ method: 'GET', url: '/v1/mock/mock_doesnotexist' });
    assert.equal(unknown.statusCode, 404);
    assert.equal(unknown.json().code, 'not_found');
    assert.equal(unknown.headers['content-security-policy'], 'sandbox');
    const id = await createMock({ ttl_seconds: 60 });
    assert.equal((await t.app.inject({ method: 'GET', url: `/v1/mock/${id}` })).statusCode, 200);
    t.clock.advance(60_000);
    assert.equal((await t.app.inject({ method: 'GET', url: `/v1/mock/${id}/sub` })).statusCode, 404);
  });
});
