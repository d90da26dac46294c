import assert from 'node:assert/strict';
import { mock } from 'node:test';
import { after, before, describe, it } from 'node:test';
import { buildTestApp, type TestApp } from '../helpers/app.js';

const BIN_ID = /^bin_[0-9A-Za-z]{22}$/;
const DAY_MS = 86_400_000;

async function createBin(t: TestApp, payload: Record<string, unknown> = {}, headers: Record<string, string> = t.auth) {
  const res = await t.app.inject({ method: 'POST', url: '/v1/bins', headers, payload });
  assert.equal(res.statusCode, 201, res.body);
  return res.json().bin as { bin_id: string; name: string; request_count: number; created_at: string; expires_at: string };
}

describe('bins: create, read, list, delete', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({ env: { AREAS: 'webhook' } });
  });
  after(() => t.close());

  it('POST /v1/bins answers 201 with the bin and an absolute catch url from the request host', async () => {
    const before = t.clock.now();
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/bins',
      headers: { ...t.auth, host: 'hooks.test:8080' },
      payload: { name: 'stripe' },
    });
    assert.equal(res.statusCode, 201);
    const { bin, url } = res.json();
    assert.match(bin.bin_id, BIN_ID);
    assert.deepEqual(Object.keys(bin).sort(), ['bin_id', 'catch_url', 'created_at', 'expires_at', 'name', 'request_count']);
    assert.equal(bin.name, 'stripe');
    assert.equal(bin.request_count, 0);
    assert.equal(bin.catch_url, `/v1/catch/${bin.bin_id}`);
    assert.equal(url, `http://hooks.test:8080/v1/catch/${bin.bin_id}`);
    const created = Date.parse(bin.created_at);
    assert.ok(created >= before && created <= t.clock.now());
    assert.match(bin.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.equal(Date.parse(bin.expires_at) - created, DAY_MS, 'default ttl is 86400 s');
  });

  it('an empty body creates a bin with name "" and ttl 86400; ttl_seconds sets the expiry', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/bins', headers: t.auth });
    assert.equal(res.statusCode, 201);
    assert.equal(res.json().bin.name, '');
    // The same with an empty body declared as JSON (fetch with a content-type header and no body).
    const declared = await t.app.inject({
      method: 'POST',
      url: '/v1/bins',
      headers: { ...t.auth, 'content-type': 'application/json' },
      payload: '',
    });
    assert.equal(declared.statusCode, 201, declared.body);
    const short = await createBin(t, { ttl_seconds: 60 });
    assert.equal(Date.parse(short.expires_at) - Date.parse(short.created_at), 60_000);
    const long = await createBin(t, { ttl_seconds: 172800, name: 'x'.repeat(128) });
    assert.equal(Date.parse(long.expires_at) - Date.parse(long.created_at), 172_800_000);
  });

  for (const [label, payload, path] of [
    ['ttl_seconds 59', { ttl_seconds: 59 }, 'ttl_seconds'],
    ['ttl_seconds 172801', { ttl_seconds: 172801 }, 'ttl_seconds'],
    ['ttl_seconds 1.5', { ttl_seconds: 1.5 }, 'ttl_seconds'],
    ['ttl_seconds "60"', { ttl_seconds: '60' }, 'ttl_seconds'],
    ['name of 129 characters', { name: 'n'.repeat(129) }, 'name'],
    ['an unknown field', { colour: 'red' }, 'colour'],
  ] as const) {
    it(`POST /v1/bins with ${label} is 422 validation_error naming the field`, async () => {
      const res = await t.app.inject({ method: 'POST', url: '/v1/bins', headers: t.auth, payload });
      assert.equal(res.statusCode, 422);
      assert.equal(res.json().code, 'validation_error');
      assert.equal(res.json().errors[0].path, path);
    });
  }

  it('name length counts characters (code points), not UTF-16 units', async () => {
    const emoji = '😀';
    const long = await createBin(t, { name: emoji.repeat(128) });
    assert.equal(long.name, emoji.repeat(128));
    const res = await t.app.inject({ method: 'POST', url: '/v1/bins', headers: t.auth, payload: { name: emoji.repeat(129) } });
    assert.equal(res.statusCode, 422);
    assert.deepEqual(res.json().errors, [{ path: 'name', message: 'must NOT have more than 128 characters' }]);
  });

  it('a lone surrogate in a name is U+FFFD at creation and on every read (as stored)', async () => {
    const bin = await createBin(t, { name: 'a\ud800b' });
    assert.equal(bin.name, 'a\ufffdb');
    const read = await t.app.inject({ method: 'GET', url: `/v1/bins/${bin.bin_id}`, headers: t.auth });
    assert.equal(read.json().bin.name, 'a\ufffdb');
  });

  it('POST /v1/bins without a key is 401', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/bins', payload: {} });
    assert.equal(res.statusCode, 401);
    assert.equal(res.json().code, 'missing_api_key');
  });

  it('GET /v1/bins/:id returns the bin with its request_count', async () => {
    const bin = await createBin(t, { name: 'read me' });
    await t.app.inject({ method: 'POST', url: `/v1/catch/${bin.bin_id}`, payload: 'x' });
    const res = await t.app.inject({ method: 'GET', url: `/v1/bins/${bin.bin_id}`, headers: t.auth });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json().bin, { ...bin, name: 'read me', request_count: 1 });
  });

  it("GET /v1/bins lists only the caller's bins, newest first, with total, limit and offset", async () => {
    const other = await t.newKey();
    const headers = { 'x-api-key': other.secret };
    const made = [];
    for (let i = 0; i < 3; i++) {
      made.push(await createBin(t, { name: `b${i}` }, headers));
      t.clock.advance(1);
    }
    const all = await t.app.inject({ method: 'GET', url: '/v1/bins', headers });
    assert.equal(all.statusCode, 200);
    assert.equal(all.json().total, 3);
    assert.deepEqual(
      all.json().bins.map((b: { name: string }) => b.name),
      ['b2', 'b1', 'b0'],
    );
    const page = await t.app.inject({ method: 'GET', url: '/v1/bins?limit=1&offset=1', headers });
    assert.equal(page.json().total, 3);
    assert.deepEqual(
      page.json().bins.map((b: { bin_id: string }) => b.bin_id),
      [made[1].bin_id],
    );
  });

  for (const query of ['limit=0', 'limit=201', 'limit=-1', 'limit=abc', 'offset=-1']) {
    it(`GET /v1/bins?${query} is 422`, async () => {
      const res = await t.app.inject({ method: 'GET', url: `/v1/bins?${query}`, headers: t.auth });
      assert.equal(res.statusCode, 422);
      assert.equal(res.json().code, 'validation_error');
    });
  }

  it('DELETE /v1/bins/:id answers the contract body; then the bin, its requests and its catch path are 404', async () => {
    const bin = await createBin(t);
    await t.app.inject({ method: 'POST', url: `/v1/catch/${bin.bin_id}`, payload: 'x' });
    const del = await t.app.inject({ method: 'DELETE', url: `/v1/bins/${bin.bin_id}`, headers: t.auth });
    assert.equal(del.statusCode, 200);
    assert.deepEqual(del.json(), { message: 'bin deleted', bin_id: bin.bin_id });
    for (const [method, url, headers] of endpoints(bin.bin_id, t.auth)) {
      const res = await t.app.inject({ method, url, headers, payload: method === 'POST' ? 'x' : undefined });
      assert.equal(res.statusCode, 404, `${method} ${url}`);
      assert.equal(res.json().code, 'not_found');
    }
  });
});

type Endpoint = [method: 'GET' | 'DELETE' | 'POST' | 'PUT', url: string, headers: Record<string, string>];

/** Every endpoint that names a bin; the catch path needs no key. */
function endpoints(binId: string, auth: Record<string, string>): Endpoint[] {
  return [
    ['GET', `/v1/bins/${binId}`, auth],
    ['DELETE', `/v1/bins/${binId}`, auth],
    ['GET', `/v1/bins/${binId}/requests`, auth],
    ['DELETE', `/v1/bins/${binId}/requests`, auth],
    ['GET', `/v1/bins/${binId}/requests/req_0000000000000000000000`, auth],
    ['GET', `/v1/bins/${binId}/stream`, auth],
    ['POST', `/v1/catch/${binId}`, {}],
    ['PUT', `/v1/catch/${binId}/sub/path?q=1`, {}],
  ];
}

describe('bins: unknown, foreign and expired ids are 404 everywhere', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({ env: { AREAS: 'webhook' } });
  });
  after(() => t.close());

  it('an unknown bin id is 404 on every endpoint, catch included', async () => {
    for (const [method, url, headers] of endpoints('bin_doesNotExist0000000000', t.auth)) {
      const res = await t.app.inject({ method, url, headers, payload: method === 'POST' ? 'x' : undefined });
      assert.equal(res.statusCode, 404, `${method} ${url}`);
      assert.equal(res.json().code, 'not_found');
    }
  });

  it("another key's bin is 404 (not 403) on every keyed endpoint, and is left untouched", async () => {
    const bin = await createBin(t);
    const other = await t.newKey();
    for (const [method, url, headers] of endpoints(bin.bin_id, { 'x-api-key': other.secret }).filter(([, u]) => !u.includes('/catch/'))) {
      const res = await t.app.inject({ method, url, headers });
      assert.equal(res.statusCode, 404, `${method} ${url}`);
      assert.equal(res.json().code, 'not_found');
    }
    const mine = await t.app.inject({ method: 'GET', url: `/v1/bins/${bin.bin_id}`, headers: t.auth });
    assert.equal(mine.statusCode, 200);
  });

  it('at expires_at the bin behaves exactly as deleted (404 everywhere, catch included)', async () => {
    const bin = await createBin(t, { ttl_seconds: 60 });
    const live = await t.app.inject({ method: 'POST', url: `/v1/catch/${bin.bin_id}`, payload: 'x' });
    assert.equal(live.statusCode, 200);
    t.clock.advance(60_000);
    for (const [method, url, headers] of endpoints(bin.bin_id, t.auth)) {
      const res = await t.app.inject({ method, url, headers, payload: method === 'POST' ? 'x' : undefined });
      assert.equal(res.statusCode, 404, `${method} ${url}`);
    }
    const list = await t.app.inject({ method: 'GET', url: '/v1/bins', headers: t.auth });
    assert.ok(!list.json().bins.some((b: { bin_id: string }) => b.bin_id === bin.bin_id));
  });
});

describe('bins: an expired bin is purged when it is accessed (SQLite store)', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({ env: { AREAS: 'webhook' } });
  });
  after(() => t.close());
  const turns = async (n: number) => {
    for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
  };

  for (const [how, access] of [
    ['read', (id: string) => t.app.inject({ method: 'GET', url: `/v1/bins/${id}`, headers: t.auth })],
    ['caught for', (id: string) => t.app.inject({ method: 'POST', url: `/v1/catch/${id}`, payload: 'late' })],
  ] as const) {
    it(`a bin ${how} after expires_at answers 404 and its row and requests leave the store at once, before any sweep`, async () => {
      assert.equal(t.store.kind, 'sqlite');
      const bin = await createBin(t, { ttl_seconds: 60 });
      const other = await createBin(t, { ttl_seconds: 60 });
      const ids: string[] = [];
      // More than one purge chunk (500 rows).
      for (let i = 0; i < 520; i++)
        ids.push((await t.app.inject({ method: 'POST', url: `/v1/catch/${bin.bin_id}`, payload: String(i) })).json().request_id);
      const kept = (await t.app.inject({ method: 'POST', url: `/v1/catch/${other.bin_id}`, payload: 'x' })).json().request_id;
      t.clock.advance(60_000);
      assert.equal((await access(bin.bin_id)).statusCode, 404);
      await turns(5);
      assert.equal(await t.store.bins.getBin(bin.bin_id, 0), null, 'the row is gone');
      for (const id of [ids[0]!, ids[519]!]) assert.equal(await t.store.bins.getRequest(bin.bin_id, id), null);
      // The other expired bin, not accessed, waits for the sweep.
      assert.ok(await t.store.bins.getRequest(other.bin_id, kept));
      t.clock.advance(-60_000);
    });
  }
});

describe('bins: PUBLIC_BASE_URL and the periodic purge', () => {
  it('the absolute url uses PUBLIC_BASE_URL when set', async () => {
    const t = await buildTestApp({ env: { AREAS: 'webhook', PUBLIC_BASE_URL: 'https://hooks.example.com/' } });
    try {
      const res = await t.app.inject({ method: 'POST', url: '/v1/bins', headers: t.auth, payload: {} });
      assert.equal(res.json().url, `https://hooks.example.com/v1/catch/${res.json().bin.bin_id}`);
    } finally {
      await t.close();
    }
  });

  it('expired bins and their requests are purged from the store every 60 s', async () => {
    mock.timers.enable({ apis: ['setInterval'] });
    const t = await buildTestApp({ env: { AREAS: 'webhook' } });
    try {
      const bin = await createBin(t, { ttl_seconds: 60 });
      const keep = await createBin(t, { ttl_seconds: 3600 });
      const cap = await t.app.inject({ method: 'POST', url: `/v1/catch/${bin.bin_id}`, payload: 'x' });
      const requestId = cap.json().request_id;
      t.clock.advance(61_000);
      assert.ok(await t.store.bins.getRequest(bin.bin_id, requestId), 'still stored before the sweep');
      mock.timers.tick(60_000);
      await new Promise((resolve) => setImmediate(resolve));
      assert.equal(await t.store.bins.getRequest(bin.bin_id, requestId), null);
      assert.equal(await t.store.bins.getBin(bin.bin_id, 0), null, 'the row itself is gone');
      assert.ok(await t.store.bins.getBin(keep.bin_id, t.clock.now()));
    } finally {
      mock.timers.reset();
      await t.close();
    }
  });
});
