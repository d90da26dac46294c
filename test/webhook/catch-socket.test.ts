import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, it } from 'node:test';
import { buildTestApp, listenOnLoopback, type TestApp } from '../helpers/app.js';

interface Seen {
  status: number;
  headers: Record<string, unknown>;
  body: string;
}

/** What a client sees, less what differs per response (date, connection, the new request's id). */
function comparable({ status, headers, body }: Seen) {
  const { date: _date, connection: _connection, 'keep-alive': _keepAlive, ...rest } = headers;
  return { status, headers: rest, body: body.replace(/"request_id":"req_[A-Za-z0-9_-]+"/, '"request_id":"…"') };
}

function overSocket(base: string, path: string, method: string, headers: Record<string, string>, body?: string): Promise<Seen> {
  return new Promise((resolve, reject) => {
    // Content-Length given: Node's client frames a GET body no other way.
    const framed = body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) };
    const req = http.request(`${base}${path}`, { method, agent: false, headers: framed }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

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
