import { METHODS } from 'node:http';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildTestApp, type TestApp } from '../helpers/app.js';

describe('mock management', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  const create = (payload: unknown, headers: Record<string, string> = t.auth) =>
    t.app.inject({ method: 'POST', url: '/v1/mocks', headers, payload: payload as object });

  it('POST /v1/mocks with no body → 201 with every default and an absolute url', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/mocks', headers: { ...t.auth, host: 'api.test:8080' } });
    assert.equal(res.statusCode, 201);
    const { mock, url } = res.json();
    assert.match(mock.mock_id, /^mock_[0-9A-Za-z]{22}$/);
    assert.equal(url, `http://api.test:8080/v1/mock/${mock.mock_id}`);
    assert.deepEqual(
      { ...mock, mock_id: 'X', created_at: 'C', expires_at: 'E' },
      {
        mock_id: 'X',
        name: '',
        status_code: 200,
        content_type: 'application/json',
        delay_ms: 0,
        has_custom_headers: false,
        has_body: false,
        created_at: 'C',
        expires_at: 'E',
        hit_count: 0,
        endpoint_url: `/v1/mock/${mock.mock_id}`,
        headers: {},
        body: '',
        method: null,
        path: null,
      },
    );
    assert.equal(Date.parse(mock.expires_at) - Date.parse(mock.created_at), 86_400_000);
    assert.match(mock.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('keeps every configured field, names headers in lower case and flags them', async () => {
    const res = await create({
      name: 'payment ok',
      status_code: 201,
      headers: { 'X-Trace': 'abc', 'Cache-Control': 'no-store' },
      body: '{"paid":true}',
      content_type: 'application/json; charset=utf-8',
      delay_ms: 250,
      ttl_seconds: 60,
      method: 'post',
      path: '/charges',
    });
    assert.equal(res.statusCode, 201);
    const { mock } = res.json();
    assert.equal(mock.name, 'payment ok');
    assert.equal(mock.status_code, 201);
    assert.deepEqual(mock.headers, { 'x-trace': 'abc', 'cache-control': 'no-store' });
    assert.equal(mock.has_custom_headers, true);
    assert.equal(mock.has_body, true);
    assert.equal(mock.delay_ms, 250);
    assert.equal(mock.method, 'POST');
    assert.equal(mock.path, '/charges');
    assert.equal(Date.parse(mock.expires_at) - Date.parse(mock.created_at), 60_000);
  });

  it('response_body (any JSON) is kept as JSON and counts as a body', async () => {
    for (const value of [{ items: [1, 2], ok: true }, [1, 'two'], 'text', 0, false, null]) {
      const res = await create({ response_body: value });
      assert.equal(res.statusCode, 201, JSON.stringify(value));
      assert.deepEqual(res.json().mock.response_body, value);
      assert.equal(res.json().mock.has_body, true);
    }
  });

  it('bad input → 422 validation_error naming the field', async () => {
    const cases: [unknown, string][] = [
      [{ status_code: 99 }, 'status_code'],
      [{ status_code: 600 }, 'status_code'],
      [{ status_code: 200.5 }, 'status_code'],
      [{ status_code: '200' }, 'status_code'],
      [{ delay_ms: 30001 }, 'delay_ms'],
      [{ delay_ms: -1 }, 'delay_ms'],
      [{ ttl_seconds: 59 }, 'ttl_seconds'],
      [{ ttl_seconds: 172801 }, 'ttl_seconds'],
      [{ ttl_seconds: 1.5 }, 'ttl_seconds'],
      [{ ttl_seconds: '60' }, 'ttl_seconds'],
      [{ name: 'n'.repeat(129) }, 'name'],
      [{ method: 'CONNECT' }, 'method'],
      [{ headers: { ['x'.repeat(257)]: 'v' } }, 'headers'],
      [{ method: 'connect' }, 'method'],
      [{ headers: { 'X Bad Name': 'v' } }, 'headers.X Bad Name'],
      [{ headers: { 'x-split': 'a\r\nSet-Cookie: evil=1' } }, 'headers.x-split'],
      [{ headers: { 'x-nul': 'a\u0000b' } }, 'headers.x-nul'],
      [{ headers: { 'Content-Length': '10' } }, 'headers.Content-Length'],
      [{ headers: { 'transfer-encoding': 'chunked' } }, 'headers.transfer-encoding'],
      [{ headers: { Connection: 'close' } }, 'headers.Connection'],
      [{ headers: { 'keep-alive': 'timeout=5' } }, 'headers.keep-alive'],
      [{ headers: { 'X-Content-Type-Options': 'off' } }, 'headers.X-Content-Type-Options'],
      [{ headers: { 'content-security-policy': 'default-src *' } }, 'headers.content-security-policy'],
      [{ headers: { 'x-n': 1 } }, 'headers.x-n'],
      [{ headers: { 'x-euro': '€' } }, 'headers.x-euro'],
      [{ body: 'a', response_body: { a: 1 } }, 'response_body'],
      [{ body: 5 }, 'body'],
      [{ content_type: 'text/html\r\nx: y' }, 'content_type'],
      [{ content_type: '' }, 'content_type'],
      [{ method: 'GE T' }, 'method'],
      [{ path: 'no-slash' }, 'path'],
      [{ path: '/a?b' }, 'path'],
      [{ unknown_field: 1 }, 'unknown_field'],
    ];
    // A character above U+00FF cannot go out in a header: the message says so, not "control characters".
    const emoji = await create({ headers: { 'x-mood': '😀' } });
    assert.equal(emoji.statusCode, 422);
    assert.match(emoji.json().errors[0].message, /nothing above U\+00FF such as emoji/);
    for (const [payload, path] of cases) {
      const res = await create(payload);
      assert.equal(res.statusCode, 422, JSON.stringify(payload));
      assert.equal(res.json().code, 'validation_error');
      assert.ok(
        res.json().errors.some((e: { path: string }) => e.path === path),
        `${JSON.stringify(payload)} → ${JSON.stringify(res.json().errors)}`,
      );
    }
  });

  it('a bad method or path is explained in words, not as the regular expression that refused it', async () => {
    const said = async (payload: unknown) => (await create(payload)).json().errors;
    for (const method of ['CONNECT', 'connect', 'GE T']) {
      assert.deepEqual(await said({ method }), [
        { path: 'method', message: 'must be an HTTP method name, such as GET, POST or PURGE, other than CONNECT' },
      ]);
    }
    assert.deepEqual(await said({ path: 'users' }), [{ path: 'path', message: 'must start with / and hold no ?, # or whitespace' }]);
    // A mock may serve any method the server's HTTP parser accepts, PURGE and REPORT included; any
    // other token (FOO, CONNECTX) could never reach it.
    for (const method of ['purge', 'Report']) assert.equal((await create({ method })).statusCode, 201, method);
    const made = (await create({})).json().mock;
    for (const method of ['FOO', 'connectx']) {
      const refused = [
        { path: 'method', message: `must be a method this server can receive: ${METHODS.filter((m) => m !== 'CONNECT').join(', ')}` },
      ];
      assert.deepEqual(await said({ method }), refused);
      const patched = await t.app.inject({ method: 'PATCH', url: `/v1/mocks/${made.mock_id}`, headers: t.auth, payload: { method } });
      assert.equal(patched.statusCode, 422);
      assert.deepEqual(patched.json().errors, refused);
    }
  });

  it('a non-JSON body → 415, malformed JSON → 400', async () => {
    const text = await t.app.inject({
      method: 'POST',
      url: '/v1/mocks',
      headers: { ...t.auth, 'content-type': 'text/plain' },
      payload: 'x',
    });
    assert.equal(text.statusCode, 415);
    const broken = await t.app.inject({
      method: 'POST',
      url: '/v1/mocks',
      headers: { ...t.auth, 'content-type': 'application/json' },
      payload: '{',
    });
    assert.equal(broken.statusCode, 400);
  });

  it('a body that is JSON but not an object (null included) → 422 on create and PATCH, and nothing is created or changed', async () => {
    const made = (await create({ status_code: 201 })).json().mock;
    const before = (await t.app.inject({ method: 'GET', url: '/v1/mocks', headers: t.auth })).json().total;
    const json = { ...t.auth, 'content-type': 'application/json' };
    for (const payload of ['null', '[]', '"x"', '7']) {
      const res = await t.app.inject({ method: 'POST', url: '/v1/mocks', headers: json, payload });
      assert.equal(res.statusCode, 422, payload);
      assert.deepEqual(res.json().errors, [{ path: 'body', message: 'must be object' }]);
      const patched = await t.app.inject({ method: 'PATCH', url: `/v1/mocks/${made.mock_id}`, headers: json, payload });
      assert.equal(patched.statusCode, 422, payload);
    }
    assert.equal((await t.app.inject({ method: 'GET', url: '/v1/mocks', headers: t.auth })).json().total, before);
    assert.equal((await t.app.inject({ method: 'GET', url: `/v1/mocks/${made.mock_id}`, headers: t.auth })).json().mock.status_code, 201);
  });

  it("GET /v1/mocks lists the caller's mocks newest first with total, limit and offset", async () => {
    const { secret } = await t.newKey();
    const auth = { 'x-api-key': secret };
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await create({ name: `m${i}` }, auth)).json().mock.mock_id);
    const all = await t.app.inject({ method: 'GET', url: '/v1/mocks', headers: auth });
    assert.equal(all.statusCode, 200);
    assert.equal(all.json().total, 3);
    assert.deepEqual(
      all.json().mocks.map((m: { mock_id: string }) => m.mock_id),
      [...ids].reverse(),
    );
    const page = await t.app.inject({ method: 'GET', url: '/v1/mocks?limit=1&offset=1', headers: auth });
    assert.deepEqual(
      page.json().mocks.map((m: { mock_id: string }) => m.mock_id),
      [ids[1]],
    );
    assert.equal(page.json().total, 3);
    for (const q of ['limit=0', 'limit=201', 'limit=-1', 'limit=abc', 'offset=-1']) {
      const bad = await t.app.inject({ method: 'GET', url: `/v1/mocks?${q}`, headers: auth });
      assert.equal(bad.statusCode, 422, q);
    }
  });

  it('PATCH changes only given fields with the same validation; body and response_body replace each other', async () => {
    const id = (await create({ body: 'old', headers: { 'x-a': '1' } })).json().mock.mock_id;
    const url = `/v1/mocks/${id}`;
    const patched = await t.app.inject({
      method: 'PATCH',
      url,
      headers: t.auth,
      payload: { status_code: 503, response_body: { down: true } },
    });
    assert.equal(patched.statusCode, 200);
    assert.equal(patched.json().mock.status_code, 503);
    assert.equal(patched.json().mock.body, '');
    assert.deepEqual(patched.json().mock.response_body, { down: true });
    assert.deepEqual(patched.json().mock.headers, { 'x-a': '1' });
    const back = await t.app.inject({ method: 'PATCH', url, headers: t.auth, payload: { body: 'new', method: 'GET', path: '/x' } });
    assert.equal(back.json().mock.body, 'new');
    assert.equal(back.json().mock.response_body, undefined);
    const cleared = await t.app.inject({ method: 'PATCH', url, headers: t.auth, payload: { method: null, path: null, headers: {} } });
    assert.equal(cleared.json().mock.method, null);
    assert.equal(cleared.json().mock.path, null);
    assert.equal(cleared.json().mock.has_custom_headers, false);
    for (const payload of [{ status_code: 600 }, { delay_ms: 30001 }, { headers: { 'a b': 'c' } }, { body: 'x', response_body: 1 }]) {
      const bad = await t.app.inject({ method: 'PATCH', url, headers: t.auth, payload });
      assert.equal(bad.statusCode, 422, JSON.stringify(payload));
    }
  });

  it('DELETE → {message, mock_id}; afterwards 404 everywhere', async () => {
    const id = (await create({})).json().mock.mock_id;
    const del = await t.app.inject({ method: 'DELETE', url: `/v1/mocks/${id}`, headers: t.auth });
    assert.equal(del.statusCode, 200);
    assert.deepEqual(del.json(), { message: 'mock deleted', mock_id: id });
    for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
      const res = await t.app.inject({ method, url: `/v1/mocks/${id}`, headers: t.auth, payload: method === 'PATCH' ? {} : undefined });
      assert.equal(res.statusCode, 404, method);
      assert.equal(res.json().code, 'not_found');
    }
    assert.equal((await t.app.inject({ method: 'GET', url: `/v1/mock/${id}` })).statusCode, 404);
  });

  it('unknown, foreign and expired mocks → 404', async () => {
    assert.equal((await t.app.inject({ method: 'GET', url: '/v1/mocks/mock_unknown', headers: t.auth })).statusCode, 404);
    const id = (await create({ ttl_seconds: 60 })).json().mock.mock_id;
    const other = await t.newKey();
    for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
      const res = await t.app.inject({
        method,
        url: `/v1/mocks/${id}`,
        headers: { 'x-api-key': other.secret },
        payload: method === 'PATCH' ? {} : undefined,
      });
      assert.equal(res.statusCode, 404, method);
    }
    const listed = await t.app.inject({ method: 'GET', url: '/v1/mocks', headers: { 'x-api-key': other.secret } });
    assert.equal(listed.json().total, 0);
    t.clock.advance(60_000);
    assert.equal((await t.app.inject({ method: 'GET', url: `/v1/mocks/${id}`, headers: t.auth })).statusCode, 404);
    assert.equal((await t.app.inject({ method: 'GET', url: `/v1/mock/${id}` })).statusCode, 404);
    t.clock.advance(-60_000);
  });

  it('an expired mock is purged when it is served or read (as bins are), before any sweep; one not accessed waits for the sweep', async () => {
    assert.equal(t.store.kind, 'sqlite');
    for (const access of [
      (id: string) => t.app.inject({ method: 'GET', url: `/v1/mock/${id}/any/path` }),
      (id: string) => t.app.inject({ method: 'GET', url: `/v1/mocks/${id}`, headers: t.auth }),
    ]) {
      const served = (await create({ ttl_seconds: 60 })).json().mock.mock_id;
      const untouched = (await create({ ttl_seconds: 60 })).json().mock.mock_id;
      assert.equal((await t.app.inject({ method: 'GET', url: `/v1/mock/${served}` })).statusCode, 200);
      t.clock.advance(60_000);
      assert.equal((await access(served)).statusCode, 404);
      // At time 0 neither has expired: a row still stored would be found.
      assert.equal(await t.store.mocks.getMock(served, 0), null, "the accessed mock's row is gone");
      assert.equal((await t.store.mocks.getMock(untouched, 0))?.id, untouched);
      t.clock.advance(-60_000);
    }
  });

  it('needs a key; every mock endpoint is in /openapi.json', async () => {
    assert.equal((await create({}, {})).statusCode, 401);
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    assert.ok(doc.paths['/v1/mocks'].post && doc.paths['/v1/mocks'].get);
    assert.ok(doc.paths['/v1/mocks/{mock_id}'].get && doc.paths['/v1/mocks/{mock_id}'].patch && doc.paths['/v1/mocks/{mock_id}'].delete);
    assert.ok(doc.paths['/v1/mock/{mock_id}'].get && doc.paths['/v1/mock/{mock_id}'].post);
    assert.ok(doc.paths['/v1/bins/{bin_id}/requests/{request_id}/replay'].post);
  });
});
