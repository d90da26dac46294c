import assert from 'node:assert/strict';
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildTestApp, createClock, type TestApp } from '../helpers/app.js';
import { registerProbeRoutes } from '../helpers/routes.js';
import { createSqliteStore } from '../../src/storage/sqlite/sqlite-store.js';
import type { Store } from '../../src/storage/types.js';

function plansFile(doc: unknown): string {
  const file = join(mkdtempSync(join(tmpdir(), 'devutil-plans-')), 'plans.json');
  writeFileSync(file, JSON.stringify(doc));
  return file;
}

const PLANS = plansFile({
  plans: {
    tiny: { areas: ['devtools', 'webhook'], monthly_credits: 3, rate_limit_per_minute: null },
    one: { areas: ['devtools'], monthly_credits: 1, rate_limit_per_minute: null },
    slow: { areas: ['devtools'], monthly_credits: null, rate_limit_per_minute: 3 },
    hooks: { areas: ['webhook'], monthly_credits: 10, rate_limit_per_minute: null },
    pricey: { areas: ['devtools'], monthly_credits: 5, rate_limit_per_minute: null, area_costs: { devtools: 2 } },
    keyed: { areas: ['auth'], monthly_credits: 5, rate_limit_per_minute: null, area_costs: { auth: 1 } },
  },
});

const json = { 'content-type': 'application/json' };

describe('credits', () => {
  let t: TestApp;
  before(async () => {
    // 2026-11-30T23:59:00Z: one minute before the monthly reset.
    t = await buildTestApp({
      env: { PLANS_FILE: PLANS },
      clock: createClock(Date.UTC(2026, 10, 30, 23, 59)),
      extraRoutes: registerProbeRoutes,
    });
  });
  after(() => t.close());

  const call = (key: string, url = '/test/metered') =>
    t.app.inject({ method: 'POST', url, headers: { ...json, 'x-api-key': key }, payload: {} });

  it('a successful metered call costs 1 credit and says what is left', async () => {
    const { secret } = await t.newKey('tiny');
    const res = await call(secret);
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['x-credits-limit'], '3');
    assert.equal(res.headers['x-credits-remaining'], '2');
    const account = await t.app.inject({ method: 'GET', url: '/v1/account', headers: { 'x-api-key': secret } });
    assert.deepEqual(account.json().credits, { limit: 3, used: 1, remaining: 2, resets_at: '2026-12-01T00:00:00.000Z' });
    assert.equal(account.json().plan, 'tiny');
    assert.deepEqual(account.json().areas, ['devtools', 'webhook']);
  });

  it('a failed call is not charged', async () => {
    const { secret } = await t.newKey('tiny');
    const res = await call(secret, '/test/metered-fails');
    assert.equal(res.statusCode, 422);
    assert.equal(res.headers['x-credits-remaining'], '3');
    const bad = await t.app.inject({
      method: 'POST',
      url: '/test/metered',
      headers: { 'content-type': 'application/json', 'x-api-key': secret },
      payload: '{',
    });
    assert.equal(bad.statusCode, 400);
    const account = await t.app.inject({ method: 'GET', url: '/v1/account', headers: { 'x-api-key': secret } });
    assert.equal(account.json().credits.used, 0);
  });

  it('with no credit left the call is refused with 429 credits_exhausted and Retry-After until the reset', async () => {
    const { secret } = await t.newKey('tiny');
    for (let i = 0; i < 3; i++) assert.equal((await call(secret)).statusCode, 200);
    const res = await call(secret);
    assert.equal(res.statusCode, 429);
    assert.equal(res.json().code, 'credits_exhausted');
    assert.match(res.json().detail, /^No credits left this month; they reset at 2026-12-01T00:00:00.000Z\.$/);
    // The clock starts one minute before the reset and moves with real time.
    const retryAfter = Number(res.headers['retry-after']);
    assert.ok(retryAfter > 0 && retryAfter <= 60, `Retry-After ${retryAfter}`);
    assert.equal(res.headers['x-credits-remaining'], '0');
  });

  it('two concurrent calls with one credit left: exactly one succeeds', async () => {
    for (let round = 0; round < 20; round++) {
      const { secret } = await t.newKey('one');
      const results = await Promise.all([call(secret), call(secret)]);
      const codes = results.map((r) => r.statusCode).sort();
      assert.deepEqual(codes, [200, 429]);
    }
  });

  it('a plan can price an area differently (area_costs)', async () => {
    const { secret } = await t.newKey('pricey');
    const res = await call(secret);
    assert.equal(res.headers['x-credits-remaining'], '3');
    assert.equal((await call(secret)).headers['x-credits-remaining'], '1');
    // 1 credit left, the call costs 2: refused, and the message says so rather than "no credits left".
    const refused = await call(secret);
    assert.equal(refused.statusCode, 429);
    assert.equal(refused.json().code, 'credits_exhausted');
    assert.match(refused.json().detail, /^This call costs 2 credits and 1 is left this month; they reset at /);
    assert.equal(refused.headers['x-credits-remaining'], '1');
  });

  it('HEAD on a metered GET is answered but costs no credit; with no credit left it is refused like the GET', async () => {
    const { secret } = await t.newKey('keyed');
    const head = () => t.app.inject({ method: 'HEAD', url: '/v1/auth/generate-key', headers: { 'x-api-key': secret } });
    const get = () => t.app.inject({ method: 'GET', url: '/v1/auth/generate-key', headers: { 'x-api-key': secret } });
    const first = await head();
    assert.equal(first.statusCode, 200);
    assert.equal(first.headers['x-credits-remaining'], '5');
    for (let left = 4; left >= 0; left--) assert.equal((await get()).headers['x-credits-remaining'], String(left));
    assert.equal((await head()).statusCode, 429);
    assert.equal((await get()).statusCode, 429);
  });

  it('credits reset at the start of the next month', async () => {
    const clock = createClock(Date.UTC(2026, 10, 30, 23, 59, 30));
    const t2 = await buildTestApp({ env: { PLANS_FILE: PLANS }, clock, extraRoutes: registerProbeRoutes });
    try {
      const { secret } = await t2.newKey('one');
      const metered = () => t2.app.inject({ method: 'POST', url: '/test/metered', headers: { ...json, 'x-api-key': secret }, payload: {} });
      assert.equal((await metered()).statusCode, 200);
      assert.equal((await metered()).statusCode, 429);
      clock.advance(60_000);
      const res = await metered();
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['x-credits-remaining'], '0');
    } finally {
      await t2.close();
    }
  });

  it('a plan without the area gets 403 forbidden', async () => {
    const { secret } = await t.newKey('hooks');
    const res = await call(secret);
    assert.equal(res.statusCode, 403);
    assert.equal(res.json().code, 'forbidden');
    assert.match(res.json().detail, /devtools/);
    // Refused before it is counted: no rate-limit headers (as the OpenAPI document says).
    const limited = await t.newKey('slow');
    const other = await t.app.inject({ method: 'POST', url: '/v1/bins', headers: { ...json, 'x-api-key': limited.secret }, payload: {} });
    assert.equal(other.statusCode, 403);
    assert.equal(other.headers['x-ratelimit-limit'], undefined);
  });
});

describe('credits: a refund the store cannot make', () => {
  it('the failed call keeps its own answer, without credit headers, and the service goes on', async () => {
    const store = createSqliteStore({ dataDir: ':memory:' });
    let refunds = 0;
    const failing: Store = {
      ...store,
      usage: {
        ...store.usage,
        refundCredits: async () => {
          refunds++;
          throw new Error('store down');
        },
      },
    };
    const t = await buildTestApp({ env: { PLANS_FILE: PLANS }, store: failing, extraRoutes: registerProbeRoutes });
    try {
      const { secret } = await t.newKey('tiny');
      const headers = { ...json, 'x-api-key': secret };
      const failed = await t.app.inject({ method: 'POST', url: '/test/metered-fails', headers, payload: {} });
      assert.equal(refunds, 1);
      assert.equal(failed.statusCode, 422);
      assert.equal(failed.json().code, 'validation_error');
      assert.equal(failed.json().detail, 'probe failure');
      assert.equal(failed.headers['x-credits-remaining'], undefined);
      const ok = await t.app.inject({ method: 'POST', url: '/test/metered', headers, payload: {} });
      assert.equal(ok.statusCode, 200);
      // The credit the store could not give back stays spent.
      assert.equal(ok.headers['x-credits-remaining'], '1');
    } finally {
      await t.close();
    }
  });
});

describe('rate limits', () => {
  it('the limit per minute answers 429 rate_limited with Retry-After and X-RateLimit headers, then resets', async () => {
    const clock = createClock(Date.UTC(2026, 5, 1, 12, 0, 10));
    const t = await buildTestApp({ env: { PLANS_FILE: PLANS }, clock, extraRoutes: registerProbeRoutes });
    try {
      const { secret } = await t.newKey('slow');
      const metered = () => t.app.inject({ method: 'POST', url: '/test/metered', headers: { ...json, 'x-api-key': secret }, payload: {} });
      for (let i = 0; i < 3; i++) {
        const ok = await metered();
        assert.equal(ok.statusCode, 200);
        assert.equal(ok.headers['x-ratelimit-limit'], '3');
        assert.equal(ok.headers['x-ratelimit-remaining'], String(2 - i));
        assert.equal(ok.headers['x-ratelimit-reset'], String(Date.UTC(2026, 5, 1, 12, 1) / 1000), 'end of the current window');
      }
      const limited = await metered();
      assert.equal(limited.statusCode, 429);
      assert.equal(limited.json().code, 'rate_limited');
      const retryAfter = Number(limited.headers['retry-after']);
      assert.ok(retryAfter > 0 && retryAfter <= 50, `Retry-After ${retryAfter}`);
      assert.equal(limited.headers['x-ratelimit-remaining'], '0');
      clock.advance(retryAfter * 1000);
      assert.equal((await metered()).statusCode, 200);
    } finally {
      await t.close();
    }
  });

  it('PUBLIC_AREAS opens an area to anonymous callers, rate-limited by IP and never charged', async () => {
    const t = await buildTestApp({
      env: {
        PUBLIC_AREAS: 'devtools',
        PLANS_FILE: plansFile({ default_plan: 'slow', plans: { slow: { monthly_credits: 0, rate_limit_per_minute: 2 } } }),
      },
      extraRoutes: registerProbeRoutes,
    });
    try {
      const anonymous = () =>
        t.app.inject({ method: 'POST', url: '/test/metered', headers: json, payload: {}, remoteAddress: '203.0.113.7' });
      assert.equal((await anonymous()).statusCode, 200);
      assert.equal((await anonymous()).statusCode, 200);
      assert.equal((await anonymous()).json().code, 'rate_limited');
      const other = await t.app.inject({ method: 'POST', url: '/test/metered', headers: json, payload: {}, remoteAddress: '203.0.113.8' });
      assert.equal(other.statusCode, 200);
      const account = await t.app.inject({ method: 'GET', url: '/v1/account' });
      assert.equal(account.json().code, 'missing_api_key');
      // The OpenAPI document says so: devtools operations need no scheme ({}), other areas still do.
      const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
      assert.deepEqual(doc.paths['/v1/array-ops'].post.security.at(-1), {});
      assert.ok(!doc.paths['/v1/auth/hash'].post.security.some((s: object) => Object.keys(s).length === 0));
    } finally {
      await t.close();
    }
  });
});
