import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createSqliteStore } from '../../src/storage/sqlite/sqlite-store.js';
import { ADMIN_TOKEN, buildTestApp } from '../helpers/app.js';
import { registerProbeRoutes } from '../helpers/routes.js';

describe('operations', () => {
  it('/metrics needs the admin token and reports requests, latency and credits', async () => {
    const t = await buildTestApp({ extraRoutes: registerProbeRoutes, plan: 'free' });
    try {
      await t.app.inject({ method: 'GET', url: '/healthz' });
      await t.app.inject({ method: 'POST', url: '/test/metered', headers: { ...t.auth, 'content-type': 'application/json' }, payload: {} });
      assert.equal((await t.app.inject({ method: 'GET', url: '/metrics' })).statusCode, 401);
      const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: { 'x-admin-token': ADMIN_TOKEN } });
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['content-type'], 'text/plain; version=0.0.4; charset=utf-8');
      const lines = res.body.split('\n');
      assert.ok(lines.includes('devutil_http_requests_total{method="GET",route="/healthz",status="200"} 1'), res.body);
      assert.ok(lines.includes('devutil_http_request_duration_seconds_bucket{le="+Inf",route="/healthz"} 1'), res.body);
      assert.ok(lines.includes('devutil_http_request_duration_seconds_count{route="/healthz"} 1'), res.body);
      assert.match(res.body, /^devutil_http_request_duration_seconds_bucket\{le="0.005",route="\/healthz"\} [01]$/m);
      assert.ok(lines.includes('devutil_credits_spent_total{area="devtools"} 1'), res.body);
      // Each family is typed once, as Prometheus requires.
      assert.deepEqual(
        lines.filter((l) => l.startsWith('# TYPE')),
        [
          '# TYPE devutil_http_requests_total counter',
          '# TYPE devutil_http_request_duration_seconds histogram',
          '# TYPE devutil_credits_spent_total counter',
        ],
      );
      // The OpenAPI document says so: text for the 200, JSON for its errors (as for the live stream's).
      const paths = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json().paths;
      const types = (responses: Record<string, { content?: object }>, status: string) => Object.keys(responses[status]!.content ?? {});
      assert.deepEqual(
        [types(paths['/metrics'].get.responses, '200'), types(paths['/metrics'].get.responses, '401')],
        [['text/plain'], ['application/json']],
      );
      const stream = paths['/v1/bins/{bin_id}/stream'].get.responses;
      assert.deepEqual([types(stream, '200'), types(stream, '404')], [['text/event-stream'], ['application/json']]);
    } finally {
      await t.close();
    }
  });

  it('/readyz answers 503 storage_unavailable when the store is gone, and keyed calls get 503 too', async () => {
    const t = await buildTestApp();
    await t.store.close();
    const res = await t.app.inject({ method: 'GET', url: '/readyz' });
    assert.equal(res.statusCode, 503);
    assert.equal(res.json().code, 'storage_unavailable');
    const keyed = await t.app.inject({ method: 'GET', url: '/v1/account', headers: t.auth });
    assert.equal(keyed.statusCode, 503);
    assert.equal((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode, 200, 'liveness does not depend on the store');
    await t.app.close();
  });

  it('logs are JSON lines with the request id and never carry a key or a body', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const config = loadConfig({ ADMIN_TOKEN });
    const store = createSqliteStore({ dataDir: ':memory:' });
    const app = await buildApp({ config, store, logger: { level: 'info', stream } });
    registerProbeRoutes(app);
    await app.ready();
    const secretBody = 'body-secret-7f3a';
    await app.inject({
      method: 'POST',
      url: '/test/echo',
      headers: { 'content-type': 'application/json', 'x-api-key': 'dk_0123456789abcdefghijABCDEFGHIJ', 'x-request-id': 'trace-42' },
      payload: { secretBody },
    });
    await app.inject({ method: 'GET', url: '/v1/account', headers: { 'x-api-key': 'dk_0123456789abcdefghijABCDEFGHIJ' } });
    await app.close();
    await store.close();
    const text = lines.join('');
    assert.ok(lines.length >= 2);
    const entry = lines.map((l) => JSON.parse(l)).find((l) => l.reqId === 'trace-42');
    assert.equal(entry.msg, 'request completed');
    assert.equal(entry.route, '/test/echo');
    assert.equal(entry.status, 200);
    assert.ok(!text.includes('dk_0123456789'), 'no key in logs');
    assert.ok(!text.includes(secretBody), 'no body in logs');
  });
});
