import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildTestApp, listenOnLoopback, type TestApp } from '../helpers/app.js';
import { comparable, overSocket } from '../helpers/socket-exchange.js';

describe('catch: the pre-router fast route and the Fastify route answer and store alike', () => {
  let t: TestApp;
  let base: string;
  let binId: string;
  before(async () => {
    t = await buildTestApp({ env: { MAX_BODY_BYTES: '1000' } });
    base = await listenOnLoopback(t.app);
    binId = (await t.app.inject({ method: 'POST', url: '/v1/bins', headers: t.auth, payload: {} })).json().bin.bin_id;
  });
  after(() => t.close());

  const newest = async () => {
    const list = (await t.app.inject({ method: 'GET', url: `/v1/bins/${binId}/requests?limit=1`, headers: t.auth })).json();
    const id = list.requests[0].request_id;
    const { request } = (await t.app.inject({ method: 'GET', url: `/v1/bins/${binId}/requests/${id}`, headers: t.auth })).json();
    return { total: list.total, method: request.method, path: request.path, query: request.query_string, body: request.body, type: request.headers['content-type'] ?? null };
  };

  it('same status, headers, body and stored capture for every kind of request and error', async () => {
    const cases: Array<{ path: string; method: string; headers?: Record<string, string>; body?: string; status: number }> = [
      { path: `/v1/catch/${binId}`, method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"event":"paid"}', status: 200 },
      { path: `/v1/catch/${binId}/hooks/stripe?a=1&b=%20`, method: 'PUT', headers: { 'content-type': 'garbage' }, body: 'raw text', status: 200 },
      { path: `/v1/catch/${binId}`, method: 'GET', status: 200 },
      { path: `/v1/catch/${binId}`, method: 'GET', headers: { 'content-type': 'text/plain' }, body: 'a GET body', status: 200 },
      { path: `/v1/catch/${binId}`, method: 'HEAD', status: 200 },
      { path: `/v1/catch/${binId}`, method: 'PURGE', status: 200 },
      { path: `/v1/catch/${binId}`, method: 'OPTIONS', headers: { 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-sig' }, status: 200 },
      { path: `/v1/catch/${binId}`, method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x'.repeat(1001), status: 413 },
      { path: '/v1/catch/bin_doesNotExist000000000000', method: 'POST', body: 'x', status: 404 },
    ];
    for (const c of cases) {
      const headers = { 'x-request-id': 'same-id-2', ...c.headers };
      const label = `${c.method} ${c.path} ${c.body ?? "(no body)"}`;
      const wire = await overSocket(base, c.path, c.method, headers, c.body);
      const storedWire = c.status === 200 ? await newest() : null;
      const injected = await t.app.inject({ method: c.method as 'GET', url: c.path, headers, payload: c.body });
      const storedInjected = c.status === 200 ? await newest() : null;
      assert.equal(wire.status, c.status, label);
      assert.deepEqual(comparable(wire), comparable({ status: injected.statusCode, headers: injected.headers, body: injected.body }), label);
      assert.equal(wire.headers['x-request-id'], 'same-id-2', label);
      assert.equal(wire.headers['access-control-allow-origin'], '*', label);
      if (storedWire && storedInjected) {
        assert.deepEqual({ ...storedWire, total: storedWire.total + 1 }, storedInjected, label);
        assert.equal(storedWire.body, c.body ?? '', label);
      }
    }
  });
});
