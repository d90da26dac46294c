import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ADMIN_TOKEN, buildTestApp, listenOnLoopback, type TestApp } from '../helpers/app.js';
import { comparable, overSocket, type SeenResponse } from '../helpers/socket-exchange.js';

// Tools declared with postTool, called over a real socket and through inject(): both must answer
// alike (same status, headers and body, same credits and rate-limit accounting), and the socket
// path must frame, refuse and count requests as documented.

const PLANS = join(mkdtempSync(join(tmpdir(), 'devutil-plans-')), 'plans.json');
writeFileSync(
  PLANS,
  JSON.stringify({
    plans: {
      one: { areas: ['devtools'], monthly_credits: 1, rate_limit_per_minute: null },
      tiny: { areas: ['devtools', 'auth'], monthly_credits: 100, rate_limit_per_minute: 1000 },
      slow: { areas: ['devtools'], monthly_credits: null, rate_limit_per_minute: 3 },
      hooks: { areas: ['webhook'], monthly_credits: 10, rate_limit_per_minute: null },
    },
  }),
);

const people = [
  { name: 'Ada', age: 36 },
  { name: 'Linus', age: 21 },
  { name: 'Grace', age: 45 },
];
const TRANSFORM = { data: { people }, expression: 'people[?age > `30`].name | sort(@)' };
const SORT = { operation: 'sort', arrays: [people], options: { key: 'age' } };

/** Seconds-based headers may tick between two calls made a moment apart. */
function withoutClock(seen: SeenResponse): SeenResponse {
  const { 'retry-after': _r, 'x-ratelimit-reset': _x, ...headers } = seen.headers;
  return { ...seen, headers };
}

describe('tool routes: a call over a socket and through inject() answer alike', () => {
  let t: TestApp;
  let base: string;

  before(async () => {
    t = await buildTestApp({ env: { PLANS_FILE: PLANS } });
    base = await listenOnLoopback(t.app);
  });
  after(() => t.close());

  const json = (key: string) => ({ 'x-api-key': key, 'content-type': 'application/json', 'x-request-id': 'same-id-1' });

  /** One call over a socket and the same through inject(). */
  async function both(path: string, key: string, body: string, headers: Record<string, string> = json(key)) {
    const wire = await overSocket(base, path, 'POST', headers, body);
    const res = await t.app.inject({ method: 'POST', url: path, headers, payload: body });
    return { wire: comparable(wire), injected: comparable({ status: res.statusCode, headers: res.headers, body: res.body }) };
  }

  it('answers tools exactly as the Fastify route does, with credit and rate-limit headers', async () => {
    const { secret } = await t.newKey('tiny');
    const cases: Array<[string, unknown, number]> = [
      ['/v1/json-transform', TRANSFORM, 200],
      ['/v1/array-ops', SORT, 200],
      ['/v1/number-format', { number: 1234.5, format_type: 'currency', locale: 'de_DE', currency: 'EUR' }, 200],
      ['/v1/json-schema-validate', { data: { a: 1 }, schema: { type: 'object', properties: { a: { type: 'string' } } } }, 200],
      ['/v1/auth/hash', { data: 'abc' }, 200],
      ['/v1/auth/jwt-verify', { token: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.x', secret: 'k' }, 200],
    ];
    for (const [path, body, status] of cases) {
      const { wire, injected } = await both(path, secret, JSON.stringify(body));
      assert.equal(wire.status, status, `${path}: ${wire.body}`);
      assert.equal(wire.headers['x-request-id'], 'same-id-1');
      assert.equal(wire.headers['x-ratelimit-limit'], '1000');
      if (path.startsWith('/v1/auth/')) assert.equal(wire.headers['x-credits-limit'], undefined, 'auth calls cost nothing');
      else {
        assert.equal(wire.headers['x-credits-limit'], '100');
        // the injected call came second: one credit and one request more
        assert.equal(Number(wire.headers['x-credits-remaining']) - 1, Number(injected.headers['x-credits-remaining']));
        delete wire.headers['x-credits-remaining'];
        delete injected.headers['x-credits-remaining'];
      }
      assert.equal(Number(wire.headers['x-ratelimit-remaining']) - 1, Number(injected.headers['x-ratelimit-remaining']));
      delete wire.headers['x-ratelimit-remaining'];
      delete injected.headers['x-ratelimit-remaining'];
      assert.deepEqual(withoutClock(wire), withoutClock(injected), path);
    }
  });

  it('answers every kind of failure alike, and gives failed calls their credit back', async () => {
    const { secret } = await t.newKey('tiny');
    const remaining = async () =>
      Number((await t.app.inject({ method: 'GET', url: '/v1/account', headers: { 'x-api-key': secret } })).json().credits.remaining);
    const start = await remaining();
    const cases: Array<[string, string, number, string]> = [
      ['/v1/array-ops', '{"operation": ', 400, 'invalid_json'],
      ['/v1/array-ops', '', 400, 'invalid_json'],
      ['/v1/array-ops', 'null', 422, 'validation_error'],
      ['/v1/array-ops', JSON.stringify({ operation: 'sort' }), 422, 'validation_error'],
      ['/v1/array-ops', JSON.stringify({ operation: 'intersect', arrays: [[1]] }), 422, 'validation_error'],
      ['/v1/array-ops', `${'['.repeat(1001)}${']'.repeat(1001)}`, 422, 'validation_error'],
      ['/v1/json-transform', JSON.stringify({ data: {}, expression: 'people[?' }), 400, 'invalid_expression'],
      ['/v1/auth/jwt-verify', JSON.stringify({ token: 'a.b.c' }), 422, 'validation_error'],
    ];
    for (const [path, body, status, code] of cases) {
      const { wire, injected } = await both(path, secret, body);
      assert.equal(wire.status, status, `${path} ${body.slice(0, 40)}: ${wire.body}`);
      assert.equal(JSON.parse(wire.body).code, code);
      for (const seen of [wire, injected]) {
        delete seen.headers['x-ratelimit-remaining'];
        if (path !== '/v1/auth/jwt-verify') assert.equal(seen.headers['x-credits-remaining'], String(start), 'credit given back');
      }
      assert.deepEqual(withoutClock(wire), withoutClock(injected), `${path} ${body.slice(0, 40)}`);
    }
    assert.equal(await remaining(), start);
  });

  it('refuses keys alike: unknown key 401, plan without the area 403, rate limit and credits 429', async () => {
    const unknown = await both('/v1/array-ops', 'dk_' + 'x'.repeat(32), JSON.stringify(SORT));
    assert.equal(unknown.wire.status, 401);
    assert.deepEqual(unknown.wire, unknown.injected);

    const hooks = await t.newKey('hooks');
    const forbidden = await both('/v1/array-ops', hooks.secret, JSON.stringify(SORT));
    assert.equal(forbidden.wire.status, 403);
    assert.deepEqual(forbidden.wire, forbidden.injected);

    // 3 per minute: socket 1, inject 2, socket 3, inject 4 → 429, then socket 5 → 429
    const slow = await t.newKey('slow');
    const first = await both('/v1/array-ops', slow.secret, JSON.stringify(SORT));
    assert.deepEqual([first.wire.status, first.injected.status], [200, 200]);
    const second = await both('/v1/array-ops', slow.secret, JSON.stringify(SORT));
    assert.deepEqual([second.wire.status, second.injected.status], [200, 429]);
    const third = await overSocket(base, '/v1/array-ops', 'POST', json(slow.secret), JSON.stringify(SORT));
    assert.equal(third.status, 429);
    assert.deepEqual(withoutClock(comparable(third)), withoutClock(second.injected));
    assert.ok(Number(third.headers['retry-after']) >= 1);
    assert.equal(third.headers['x-ratelimit-remaining'], '0');

    // one credit: the socket call spends it, then both are refused
    const one = await t.newKey('one');
    const spent = await both('/v1/array-ops', one.secret, JSON.stringify(SORT));
    assert.deepEqual([spent.wire.status, spent.injected.status], [200, 429]);
    assert.equal(JSON.parse(spent.injected.body).code, 'credits_exhausted');
    const refused = await overSocket(base, '/v1/array-ops', 'POST', json(one.secret), JSON.stringify(SORT));
    assert.deepEqual(withoutClock(comparable(refused)), withoutClock(spent.injected));
  });

  it('a declared body over 2 MiB is 413 without reading it, and the connection closes', async () => {
    const port = Number(new URL(base).port);
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.write(
          `POST /v1/array-ops HTTP/1.1\r\nHost: x\r\nX-Api-Key: ${t.apiKey}\r\nContent-Type: application/json\r\nContent-Length: ${2 * 1024 * 1024 + 1}\r\n\r\n{"operation":`,
        );
      });
      let text = '';
      socket.on('data', (c) => (text += c));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    assert.match(raw, /^HTTP\/1\.1 413 /);
    assert.match(raw, /connection: close/i);
    assert.match(raw, /"code":"payload_too_large"/);
  });

  it('answers other shapes of call as documented: a query string, another JSON media type, a wrong type, no key', async () => {
    const body = JSON.stringify(SORT);
    const cases: Array<[string, Record<string, string>, number]> = [
      ['/v1/array-ops?x=1', json(t.apiKey), 200],
      ['/v1/array-ops', { 'x-api-key': t.apiKey, 'content-type': 'text/plain' }, 415],
      ['/v1/array-ops', { 'x-api-key': t.apiKey, 'content-type': 'application/merge-patch+json' }, 200],
      ['/v1/array-ops', { 'content-type': 'application/json' }, 401],
    ];
    for (const [path, headers, status] of cases) {
      const seen = await overSocket(base, path, 'POST', headers, body);
      assert.equal(seen.status, status, `${path} ${JSON.stringify(headers)}: ${seen.body}`);
    }
  });

  it('calls over a socket are counted in /metrics under the route', async () => {
    const count = async () => {
      const text = (await t.app.inject({ method: 'GET', url: '/metrics', headers: { 'x-admin-token': ADMIN_TOKEN } })).body;
      const line = text
        .split('\n')
        .find((l) => l.startsWith('devutil_http_requests_total{method="POST",route="/v1/json-transform",status="200"}'));
      return line ? Number(line.split(' ').pop()) : 0;
    };
    const before = await count();
    for (let i = 0; i < 3; i++)
      assert.equal((await overSocket(base, '/v1/json-transform', 'POST', json(t.apiKey), JSON.stringify(TRANSFORM))).status, 200);
    assert.equal(await count(), before + 3);
  });
});

describe('tool routes: an empty X-API-Key in a public area', () => {
  it('is anonymous and rate-limited by the TRUST_PROXY-aware client address, over a socket too', async () => {
    const t = await buildTestApp({ env: { PUBLIC_AREAS: 'devtools', TRUST_PROXY: 'true' } });
    try {
      const base = await listenOnLoopback(t.app);
      const call = (forwardedFor: string) =>
        fetch(`${base}/v1/array-ops`, {
          method: 'POST',
          headers: { 'x-api-key': '', 'x-forwarded-for': forwardedFor, 'content-type': 'application/json' },
          body: JSON.stringify({ operation: 'sort', arrays: [[2, 1]] }),
        });
      const remaining = async (forwardedFor: string) => {
        const res = await call(forwardedFor);
        assert.equal(res.status, 200);
        return res.headers.get('x-ratelimit-remaining');
      };
      // One bucket per client address, not one for every caller behind the proxy.
      assert.equal(await remaining('203.0.113.1'), '59');
      assert.equal(await remaining('203.0.113.2'), '59');
      assert.equal(await remaining('203.0.113.1'), '58');
    } finally {
      await t.close();
    }
  });
});
