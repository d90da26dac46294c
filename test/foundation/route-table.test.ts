import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildTestApp, type TestApp } from '../helpers/app.js';

/** The only paths CONTRACT §1 lets through without a key (the last two: the web app's files, §8). */
const PUBLIC = [
  /^\/v1\/catch\//,
  /^\/v1\/mock\//,
  /^\/openapi\.json$/,
  /^\/docs/,
  /^\/healthz$/,
  /^\/readyz$/,
  /^\/assets\/:name$/,
  /^\/((bins|mocks|tools)(\/\*)?|account)?$/,
];

function concrete(url: string): string {
  return url.replace(/:[A-Za-z_]+/g, 'x').replace(/\*/g, 'x');
}

describe('route table', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  it('has routes from every area', () => {
    assert.ok(t.app.routeTable.length > 10);
  });

  it('every route outside the public list answers 401 without a key', async () => {
    const checked: string[] = [];
    for (const { method, url, area } of t.app.routeTable) {
      if (area === 'public') {
        // A browser's CORS preflight never carries the key (test/foundation/cors.test.ts): it answers only preflights.
        const preflight = method === 'OPTIONS' && url === '/*';
        assert.ok(preflight || PUBLIC.some((p) => p.test(url)), `${method} ${url} is public but not in the contract's public list`);
        continue;
      }
      const res = await t.app.inject({
        method: method as 'GET',
        url: concrete(url),
        headers: { 'content-type': 'application/json' },
        payload: method === 'GET' || method === 'HEAD' ? undefined : '{}',
      });
      assert.equal(res.statusCode, 401, `${method} ${url} answered ${res.statusCode} without a key`);
      if (method !== 'HEAD')
        assert.equal(res.json().code, area === 'admin' ? 'invalid_admin_token' : 'missing_api_key', `${method} ${url}`);
      checked.push(`${method} ${url}`);
    }
    assert.ok(checked.length > 5, checked.join(', '));
  });

  it('a route that forgets to declare its area stops the app from starting', async () => {
    await assert.rejects(
      buildTestApp({ extraRoutes: (app) => app.get('/v1/forgotten', async () => ({})) }),
      /GET \/v1\/forgotten declares no config.area/,
    );
  });
});
