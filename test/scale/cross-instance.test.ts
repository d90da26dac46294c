import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ADMIN_TOKEN } from '../helpers/app.js';
import {
  redisClusterSkipReason,
  startRedisServer,
  startServiceProcess,
  type RedisServer,
  type ServiceProcess,
} from '../helpers/processes.js';
import { collectEvents } from '../helpers/sse-events.js';

// Two service processes on one Redis, checked where an audit found them behaving as two services:
// the order of a live stream fed by both, and a key revoked or rotated through the other one.

const skip = redisClusterSkipReason();

// Response bodies are checked field by field below; their shape is the API's, not a TS type.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

async function call(
  base: string,
  path: string,
  init: RequestInit & { key?: string; admin?: boolean } = {},
): Promise<{ status: number; body: Json }> {
  const headers = {
    ...(init.body ? { 'content-type': 'application/json' } : {}),
    ...(init.key ? { 'x-api-key': init.key } : {}),
    ...(init.admin ? { 'x-admin-token': ADMIN_TOKEN } : {}),
  };
  const res = await fetch(base + path, { ...init, headers });
  return { status: res.status, body: res.headers.get('content-type')?.includes('json') ? await res.json() : await res.text() };
}

/** How many neighbours of `got` are in the opposite order to `stored`. */
function inversions(got: string[], stored: string[]): number {
  const rank = new Map(stored.map((id, i) => [id, i]));
  return got.slice(1).filter((id, i) => rank.get(id)! < rank.get(got[i])!).length;
}

describe('two service processes on one Redis: live stream order and key changes', { skip }, () => {
  let redis: RedisServer;
  let a: ServiceProcess;
  let b: ServiceProcess;
  before(async () => {
    redis = await startRedisServer();
    const env = { STORE: 'redis', REDIS_URL: redis.url };
    [a, b] = await Promise.all([startServiceProcess(env), startServiceProcess(env)]);
  });
  after(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await redis?.stop();
  });

  const newKey = async () =>
    (await call(a.url, '/v1/admin/keys', { method: 'POST', admin: true, body: JSON.stringify({ plan: 'unlimited' }) })).body;

  it('a stream on B gets 400 concurrent captures made through A and B in stored order', async () => {
    const { api_key: key } = await newKey();
    const binId = (await call(a.url, '/v1/bins', { method: 'POST', key, body: '{}' })).body.bin.bin_id;
    const total = 400;
    const stream = collectEvents(`${b.url}/v1/bins/${binId}/stream`, key, total);
    await stream.ready;
    const statuses = await Promise.all(
      Array.from(
        { length: total },
        async (_, i) => (await fetch(`${i % 2 ? a.url : b.url}/v1/catch/${binId}`, { method: 'POST', body: String(i) })).status,
      ),
    );
    assert.deepEqual(new Set(statuses), new Set([200]));
    const stored: string[] = [];
    for (let offset = 0; offset < total; offset += 200) {
      const page = await call(b.url, `/v1/bins/${binId}/requests?limit=200&offset=${offset}`, { key });
      stored.push(...page.body.requests.map((r: { request_id: string }) => r.request_id));
    }
    stored.reverse(); // oldest first: capture order
    const got = await stream.events;
    assert.equal(got.length, total);
    assert.equal(inversions(got, stored), 0, 'adjacent events out of capture order');
    assert.deepEqual(got, stored);
  });

  it('a key revoked through A is refused by B at once, though B has just used it', async () => {
    const {
      api_key: key,
      key: { key_id: id },
    } = await newKey();
    assert.equal((await call(b.url, '/v1/account', { key })).status, 200, 'B knows (and caches) the key');
    assert.equal((await call(a.url, `/v1/admin/keys/${id}`, { method: 'DELETE', admin: true })).status, 200);
    const after = await call(b.url, '/v1/account', { key });
    assert.deepEqual({ status: after.status, code: after.body.code }, { status: 401, code: 'invalid_api_key' });
  });

  it('a key rotated through A: B refuses the old secret at once and accepts the new one', async () => {
    const {
      api_key: old,
      key: { key_id: id },
    } = await newKey();
    assert.equal((await call(b.url, '/v1/account', { key: old })).status, 200, 'B knows (and caches) the key');
    const rotated = await call(a.url, `/v1/admin/keys/${id}/rotate`, { method: 'POST', admin: true });
    assert.equal(rotated.status, 200);
    const stale = await call(b.url, '/v1/account', { key: old });
    assert.deepEqual({ status: stale.status, code: stale.body.code }, { status: 401, code: 'invalid_api_key' });
    const fresh = await call(b.url, '/v1/account', { key: rotated.body.api_key });
    assert.deepEqual({ status: fresh.status, key_id: fresh.body.key_id }, { status: 200, key_id: id });
  });
});
