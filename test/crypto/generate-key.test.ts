import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildTestApp, type TestApp } from '../helpers/app.js';

describe('GET /v1/auth/generate-key', () => {
  let t: TestApp;
  const get = (query: string) => t.app.inject({ method: 'GET', url: `/v1/auth/generate-key${query}`, headers: t.auth });
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  it('defaults to one api_key: dk_ + 32 base62 characters', async () => {
    const res = await get('');
    assert.equal(res.statusCode, 200);
    const body = res.json();
    assert.equal(body.type, 'api_key');
    assert.equal(body.keys.length, 1);
    assert.equal(body.key, body.keys[0]);
    assert.match(body.key, /^dk_[0-9A-Za-z]{32}$/);
    assert.equal(body.length, 32);
    assert.equal(body.entropy_bits, 190);
  });

  for (const [query, pattern, bits] of [
    ['?type=api_key&prefix=sk_live_&length=40', /^sk_live_[0-9A-Za-z]{40}$/, 238],
    ['?type=uuid', /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/, 122],
    ['?type=nanoid', /^[A-Za-z0-9_-]{21}$/, 126],
    ['?type=nanoid&length=10', /^[A-Za-z0-9_-]{10}$/, 60],
    ['?type=secret', /^[A-Za-z0-9_-]{43}$/, 256],
    ['?type=secret&length=16', /^[A-Za-z0-9_-]{22}$/, 128],
    ['?type=hex', /^[0-9a-f]{64}$/, 256],
    ['?type=hex&length=8&prefix=h_', /^h_[0-9a-f]{16}$/, 64],
  ] as const) {
    it(`${query} matches ${pattern}`, async () => {
      const res = await get(query);
      assert.equal(res.statusCode, 200);
      assert.match(res.json().key, pattern);
      assert.equal(res.json().entropy_bits, bits);
    });
  }

  it('count 100 gives 100 distinct keys', async () => {
    const res = await get('?type=nanoid&count=100');
    const keys: string[] = res.json().keys;
    assert.equal(keys.length, 100);
    assert.equal(new Set(keys).size, 100);
  });

  it('nanoid draws from all 64 characters of A-Za-z0-9_- evenly (6 bits each; the z was once missing)', async () => {
    const res = await get('?type=nanoid&count=100&length=256');
    assert.equal(res.json().entropy_bits, 1536);
    const counts = new Map<string, number>();
    for (const key of res.json().keys as string[]) for (const c of key) counts.set(c, (counts.get(c) ?? 0) + 1);
    assert.deepEqual([...counts.keys()].sort().join(''), '-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz');
    const expected = 25600 / 64;
    for (const [c, n] of counts) assert.ok(Math.abs(n - expected) < expected * 0.3, `${c}: ${n}`);
  });

  it('api_key characters are spread evenly over the base62 alphabet (no gross bias)', async () => {
    const res = await get('?type=api_key&count=100&length=256&prefix=');
    const counts = new Map<string, number>();
    for (const key of res.json().keys as string[]) for (const c of key) counts.set(c, (counts.get(c) ?? 0) + 1);
    assert.equal(counts.size, 62);
    const expected = 25600 / 62;
    for (const [c, n] of counts) assert.ok(Math.abs(n - expected) < expected * 0.3, `${c}: ${n}`);
  });

  describe('bad input → 422', () => {
    for (const [query, path] of [
      ['?count=1000', 'count'],
      ['?count=0', 'count'],
      ['?type=password', 'type'],
      ['?length=4', 'length'],
      ['?length=100000', 'length'],
      ['?prefix=has%20space', 'prefix'],
      ['?count=abc', 'count'],
      ['?colour=red', 'colour'],
    ]) {
      it(query, async () => {
        const res = await get(query);
        assert.equal(res.statusCode, 422);
        assert.equal(res.json().code, 'validation_error');
        assert.equal(res.json().errors[0].path, path);
        if (path === 'prefix') assert.equal(res.json().errors[0].message, 'must be at most 32 letters, digits, _, . or -');
      });
    }
  });
});
