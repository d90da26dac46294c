import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { KEY_CACHE_TTL_MS } from '../../src/auth/key-cache.js';
import { digestSecret, generateApiKey, issueKey } from '../../src/auth/keys.js';
import { MIGRATIONS } from '../../src/storage/sqlite/database.js';
import { createSqliteStore } from '../../src/storage/sqlite/sqlite-store.js';
import { ADMIN_TOKEN, buildTestApp, type TestApp } from '../helpers/app.js';

const admin = { 'x-admin-token': ADMIN_TOKEN };

describe('API keys', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  const account = (headers: Record<string, string>) => t.app.inject({ method: 'GET', url: '/v1/account', headers });

  it('keys are dk_ + 32 base62 characters, all different', () => {
    const keys = new Set(Array.from({ length: 1000 }, generateApiKey));
    assert.equal(keys.size, 1000);
    for (const k of keys) assert.match(k, /^dk_[0-9A-Za-z]{32}$/);
  });

  it('no key → 401 missing_api_key; a valid-looking unknown key → 401 invalid_api_key', async () => {
    let res = await account({});
    assert.equal(res.statusCode, 401);
    assert.equal(res.json().code, 'missing_api_key');
    res = await account({ 'x-api-key': generateApiKey() });
    assert.equal(res.statusCode, 401);
    assert.equal(res.json().code, 'invalid_api_key');
    res = await account({ 'x-api-key': 'not-a-key' });
    assert.equal(res.json().code, 'invalid_api_key');
    // A key header without a value is a missing key, with or without a marketplace pair.
    res = await account({ 'x-api-key': '' });
    assert.equal(res.statusCode, 401);
    assert.equal(res.json().code, 'missing_api_key');
    res = await account({ 'x-marketplace-key': '', 'x-marketplace-host': 'market.example' });
    assert.equal(res.json().code, 'missing_api_key');
  });

  it('the admin API refuses plan names that are Object.prototype members (a key on one answered 500 everywhere)', async () => {
    for (const plan of ['constructor', '__proto__', 'toString', 'valueOf', 'hasOwnProperty']) {
      const res = await t.app.inject({ method: 'POST', url: '/v1/admin/keys', headers: admin, payload: { plan } });
      assert.equal(res.statusCode, 422, `${plan}: ${res.body}`);
      assert.equal(res.json().errors[0].path, 'plan');
    }
  });

  it('the admin API creates, lists (without secrets), revokes and rotates keys', async () => {
    const created = await t.app.inject({ method: 'POST', url: '/v1/admin/keys', headers: admin, payload: { name: 'ci', plan: 'pro' } });
    assert.equal(created.statusCode, 201);
    const { key, api_key: secret } = created.json();
    assert.match(secret, /^dk_[0-9A-Za-z]{32}$/);
    assert.match(key.key_id, /^key_[0-9A-Za-z]{22}$/);
    assert.equal(key.plan, 'pro');
    assert.equal(key.name, 'ci');
    // No part of the secret: the start of its digest, which its holder can compute.
    assert.equal(key.hint, `sha256:${digestSecret(secret).slice(0, 12)}…`);
    assert.equal(key.revoked_at, null);
    assert.equal((await account({ 'x-api-key': secret })).json().plan, 'pro');

    const list = await t.app.inject({ method: 'GET', url: '/v1/admin/keys', headers: admin });
    assert.equal(list.statusCode, 200);
    assert.ok(list.json().keys.some((k: { key_id: string }) => k.key_id === key.key_id));
    assert.ok(!list.body.includes(secret), 'a list never shows a secret');

    const rotated = await t.app.inject({ method: 'POST', url: `/v1/admin/keys/${key.key_id}/rotate`, headers: admin });
    assert.equal(rotated.statusCode, 200);
    const fresh = rotated.json().api_key;
    assert.notEqual(fresh, secret);
    assert.equal(rotated.json().key.key_id, key.key_id);
    assert.equal((await account({ 'x-api-key': secret })).json().code, 'invalid_api_key', "a rotated key's old secret stops working");
    assert.equal((await account({ 'x-api-key': fresh })).statusCode, 200);

    const revoked = await t.app.inject({ method: 'DELETE', url: `/v1/admin/keys/${key.key_id}`, headers: admin });
    assert.deepEqual(revoked.json(), { message: 'key revoked', key_id: key.key_id });
    assert.equal((await account({ 'x-api-key': fresh })).json().code, 'invalid_api_key', 'a revoked key stops working');
    const again = await t.app.inject({ method: 'DELETE', url: `/v1/admin/keys/${key.key_id}`, headers: admin });
    assert.equal(again.statusCode, 404);
    const rotateRevoked = await t.app.inject({ method: 'POST', url: `/v1/admin/keys/${key.key_id}/rotate`, headers: admin });
    assert.equal(rotateRevoked.statusCode, 404);
  });

  it('a key revoked by another process stops working within the key-cache TTL', async () => {
    const { secret, id } = await t.newKey('free');
    assert.equal((await account({ 'x-api-key': secret })).statusCode, 200);
    await t.store.keys.revokeKey(id, t.clock.now()); // straight to the store, as the CLI would
    t.clock.advance(KEY_CACHE_TTL_MS + 1);
    assert.equal((await account({ 'x-api-key': secret })).json().code, 'invalid_api_key');
  });

  it('an unknown plan is refused with 422', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/admin/keys', headers: admin, payload: { plan: 'gold' } });
    assert.equal(res.statusCode, 422);
    assert.equal(res.json().errors[0].path, 'plan');
  });

  it('a key name with a lone surrogate is answered as it is stored and listed: with U+FFFD', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/admin/keys',
      headers: { ...admin, 'content-type': 'application/json' },
      payload: '{"name":"\\ud800x","plan":"free"}',
    });
    assert.equal(res.statusCode, 201);
    const { key } = res.json();
    assert.equal(key.name, '\ufffdx');
    const listed = (await t.app.inject({ method: 'GET', url: '/v1/admin/keys', headers: admin })).json();
    assert.equal(listed.keys.find((k: { key_id: string }) => k.key_id === key.key_id).name, '\ufffdx');
  });

  it('a wrong admin token is 401 whatever its length, with the same body', async () => {
    const wrongSameLength = 'x'.repeat(ADMIN_TOKEN.length);
    const bodies = new Set<string>();
    for (const token of [wrongSameLength, 'short', 'y'.repeat(500), '']) {
      const res = await t.app.inject({ method: 'GET', url: '/v1/admin/keys', headers: { 'x-admin-token': token } });
      assert.equal(res.statusCode, 401);
      bodies.add(res.body);
    }
    const missing = await t.app.inject({ method: 'GET', url: '/v1/admin/keys' });
    assert.equal(missing.statusCode, 401);
    bodies.add(missing.body);
    assert.equal(bodies.size, 1);
    assert.equal(JSON.parse([...bodies][0]).code, 'invalid_admin_token');
  });

  it('admin token comparison time does not depend on how much of the token is right', async () => {
    // Both sides are hashed before a constant-time compare; timing of a nearly-right and a wholly
    // wrong token of the same length must be indistinguishable at this resolution.
    const nearly = ADMIN_TOKEN.slice(0, -1) + 'X';
    const wholly = 'Z'.repeat(ADMIN_TOKEN.length);
    // Alternating the two tokens call by call: load from other tests running meanwhile hits both alike.
    const time = async (token: string) => {
      const start = process.hrtime.bigint();
      await t.app.inject({ method: 'GET', url: '/v1/admin/keys', headers: { 'x-admin-token': token } });
      return Number(process.hrtime.bigint() - start);
    };
    for (let i = 0; i < 50; i++) await time(wholly); // warm-up
    const times: [number[], number[]] = [[], []];
    for (let i = 0; i < 300; i++) {
      times[0].push(await time(nearly));
      times[1].push(await time(wholly));
    }
    const [a, b] = times.map((list) => list.sort((x, y) => x - y)[150]!);
    assert.ok(Math.max(a, b) / Math.min(a, b) < 2, `medians ${a} ns vs ${b} ns`);
  });

  it('a marketplace_host that is no host name is a 422; host:port is one', async () => {
    for (const marketplace_host of ['not a host/', 'a..b', '-x.example', 'x.example:port', 'https://x.example']) {
      const res = await t.app.inject({ method: 'POST', url: '/v1/admin/keys', headers: admin, payload: { marketplace_host } });
      assert.equal(res.statusCode, 422, marketplace_host);
      assert.equal(res.json().errors[0].path, 'marketplace_host');
    }
    const ok = await t.app.inject({
      method: 'POST',
      url: '/v1/admin/keys',
      headers: admin,
      payload: { marketplace_host: 'proxy.example:8443' },
    });
    assert.equal(ok.statusCode, 201);
  });

  it('responses that carry a secret are never cached (Cache-Control: no-store)', async () => {
    const created = await t.app.inject({ method: 'POST', url: '/v1/admin/keys', headers: admin, payload: {} });
    assert.equal(created.headers['cache-control'], 'no-store');
    const rotated = await t.app.inject({ method: 'POST', url: `/v1/admin/keys/${created.json().key.key_id}/rotate`, headers: admin });
    assert.equal(rotated.statusCode, 200);
    assert.equal(rotated.headers['cache-control'], 'no-store');
  });

  it('marketplace keys authenticate only through their bound host', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/v1/admin/keys',
      headers: admin,
      payload: { marketplace_host: 'Devutil.Market.Example' },
    });
    const secret = created.json().api_key;
    assert.equal(created.json().key.marketplace_host, 'devutil.market.example');
    const ok = await account({ 'x-marketplace-key': secret, 'x-marketplace-host': 'devutil.market.example' });
    assert.equal(ok.statusCode, 200);
    const wrongHost = await account({ 'x-marketplace-key': secret, 'x-marketplace-host': 'evil.example' });
    assert.equal(wrongHost.json().code, 'invalid_api_key');
    const noHost = await account({ 'x-marketplace-key': secret });
    assert.equal(noHost.json().code, 'invalid_api_key');
    const direct = await account({ 'x-api-key': secret });
    assert.equal(direct.json().code, 'invalid_api_key', 'a bound key is not usable without its proxy');
    const ordinary = await account({ 'x-marketplace-key': t.apiKey, 'x-marketplace-host': 'devutil.market.example' });
    assert.equal(ordinary.json().code, 'invalid_api_key', 'an unbound key cannot pose as a marketplace key');
  });

  it('without ADMIN_TOKEN the admin API and /metrics do not exist', async () => {
    const t2 = await buildTestApp({ env: { ADMIN_TOKEN: '' } });
    try {
      const res = await t2.app.inject({ method: 'GET', url: '/v1/admin/keys', headers: admin });
      assert.equal(res.statusCode, 404);
      assert.equal((await t2.app.inject({ method: 'GET', url: '/metrics', headers: admin })).statusCode, 404);
    } finally {
      await t2.close();
    }
  });
});

describe('key storage', () => {
  it('only the SHA-256 digest of a key reaches the database file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'devutil-keys-'));
    const store = createSqliteStore({ dataDir: dir });
    const { secret, record } = await issueKey(store.keys, { plan: 'free', name: 'x' });
    assert.equal(record.digest, digestSecret(secret));
    assert.equal((await store.keys.findKeyByDigest(digestSecret(secret)))?.id, record.id);
    await store.close();
    const bytes = readdirSync(dir)
      .map((f) => readFileSync(join(dir, f)).toString('latin1'))
      .join('');
    assert.ok(bytes.includes(record.digest));
    // Not the secret, nor any 6 characters in a row of its random part (a hint once stored `dk_` and the first 4).
    for (let i = 3; i + 6 <= secret.length; i++)
      assert.ok(!bytes.includes(secret.slice(i, i + 6)), `"${secret.slice(i, i + 6)}" of the secret is on disk`);
    assert.ok(!bytes.includes(secret.slice(0, 7)), 'the start of the secret is nowhere on disk');
  });

  it('a database whose keys hold hints made of the secret (before version 4) keeps only digest hints after the upgrade', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'devutil-keys-v3-'));
    const old = new Database(join(dir, 'devutil.db'));
    for (const migration of MIGRATIONS.slice(0, 3)) old.exec(migration);
    old.pragma('user_version = 3');
    const secret = generateApiKey();
    old
      .prepare(
        'INSERT INTO api_keys (id, digest, hint, name, plan, marketplace_host, created_at, revoked_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      )
      .run('key_old', digestSecret(secret), `${secret.slice(0, 7)}…`, 'old', 'free', null, 0, null);
    old.close();
    const store = createSqliteStore({ dataDir: dir });
    const found = await store.keys.findKeyByDigest(digestSecret(secret));
    assert.equal(found?.hint, `sha256:${digestSecret(secret).slice(0, 12)}…`);
    await store.close();
    const rows = new Database(join(dir, 'devutil.db'), { readonly: true });
    assert.deepEqual(rows.prepare('SELECT hint FROM api_keys').all(), [{ hint: `sha256:${digestSecret(secret).slice(0, 12)}…` }]);
    rows.close();
  });
});
