// A browser on another origin can call the API: preflights are answered, answers carry
// Access-Control-Allow-Origin and expose the service's headers. Requests without Origin are unchanged.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildTestApp, listenOnLoopback, type TestApp } from '../helpers/app.js';

const ORIGIN = 'https://app.example';
const EXPOSED =
  'X-Request-Id, X-Credits-Limit, X-Credits-Remaining, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After';

describe('CORS for browser clients', () => {
  let t: TestApp;
  let base: string;
  before(async () => {
    t = await buildTestApp({ plan: 'free' });
    base = await listenOnLoopback(t.app);
  });
  after(() => t.close());

  it('a preflight for an API route gets 204 with what a cross-origin call may send, without a key', async () => {
    const res = await fetch(`${base}/v1/json-transform`, {
      method: 'OPTIONS',
      headers: { origin: ORIGIN, 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-api-key, content-type' },
    });
    assert.equal(res.status, 204);
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
    assert.equal(res.headers.get('access-control-allow-methods'), 'GET, POST, PATCH, DELETE');
    assert.match(res.headers.get('access-control-allow-headers') ?? '', /X-API-Key/);
    assert.match(res.headers.get('access-control-allow-headers') ?? '', /Content-Type/);
    assert.equal(res.headers.get('access-control-max-age'), '86400');
    assert.equal(await res.text(), '');
  });

  it('OPTIONS that is not a preflight is still an unknown route', async () => {
    const res = await fetch(`${base}/v1/json-transform`, { method: 'OPTIONS' });
    assert.equal(res.status, 404);
    assert.deepEqual(await res.json(), { detail: 'No route OPTIONS /v1/json-transform.', code: 'not_found' });
  });

  it('a cross-origin call to a tool carries Allow-Origin and exposes the credit and rate-limit headers', async () => {
    const res = await fetch(`${base}/v1/array-ops`, {
      method: 'POST',
      headers: { origin: ORIGIN, 'x-api-key': t.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ operation: 'sort', arrays: [[3, 1, 2]] }),
    });
    assert.equal(res.status, 200);
    assert.deepEqual(((await res.json()) as { result: unknown }).result, [1, 2, 3]);
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
    assert.equal(res.headers.get('access-control-expose-headers'), EXPOSED);
    assert.ok(res.headers.get('x-credits-remaining'));
    // Errors too, so the browser can read why.
    const denied = await fetch(`${base}/v1/account`, { headers: { origin: ORIGIN } });
    assert.equal(denied.status, 401);
    assert.equal(denied.headers.get('access-control-allow-origin'), '*');
    const unknown = await fetch(`${base}/v1/nope`, { headers: { origin: ORIGIN } });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.headers.get('access-control-allow-origin'), '*');
  });

  it('calls without Origin carry no CORS headers', async () => {
    const res = await fetch(`${base}/v1/array-ops`, {
      method: 'POST',
      headers: { 'x-api-key': t.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ operation: 'sort', arrays: [[2, 1]] }),
    });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('access-control-allow-origin'), null);
  });

  it('the catch and mock paths keep capturing and serving OPTIONS themselves', async () => {
    const bin = (await t.app.inject({ method: 'POST', url: '/v1/bins', headers: t.auth, payload: {} })).json().bin.bin_id;
    const res = await fetch(`${base}/v1/catch/${bin}`, {
      method: 'OPTIONS',
      headers: { origin: ORIGIN, 'access-control-request-method': 'POST' },
    });
    assert.equal(res.status, 200);
    assert.equal(((await res.json()) as { bin_id: string }).bin_id, bin);
    const list = (await t.app.inject({ method: 'GET', url: `/v1/bins/${bin}/requests`, headers: t.auth })).json();
    assert.equal(list.requests[0].method, 'OPTIONS');
  });
});
