import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildTestApp, type TestApp } from '../helpers/app.js';

describe('service basics', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  it('GET /healthz answers ok with a request id', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/healthz' });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { status: 'ok' });
    assert.match(String(res.headers['x-request-id']), /^[0-9A-Za-z]{12}-[0-9a-z]+$/);
  });

  it('GET /readyz answers ready when the store is reachable', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/readyz' });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { status: 'ready' });
  });

  it('an unknown route is a JSON 404', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/nothing-here' });
    assert.equal(res.statusCode, 404);
    assert.equal(res.json().code, 'not_found');
    assert.match(res.json().detail, /GET \/v1\/nothing-here/);
  });
});
