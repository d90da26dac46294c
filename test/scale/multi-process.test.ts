import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ADMIN_TOKEN } from '../helpers/app.js';
import {
  redisClusterSkipReason,
  startRedisCluster,
  startRedisServer,
  startServiceProcess,
  type ServiceProcess,
} from '../helpers/processes.js';
import { collectEvents } from '../helpers/sse-events.js';

const skip = redisClusterSkipReason();
const plans = join(mkdtempSync(join(tmpdir(), 'devutil-plans-')), 'plans.json');
writeFileSync(plans, JSON.stringify({ plans: { shared: { monthly_credits: 4, rate_limit_per_minute: 12 } } }));

// Response bodies are checked field by field below; their shape is the API's, not a TS type.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

async function call(base: string, path: string, init: RequestInit & { key?: string } = {}): Promise<{ status: number; body: Json }> {
  const headers = {
    ...(init.body ? { 'content-type': 'application/json' } : {}),
    ...(init.key ? { 'x-api-key': init.key } : {}),
    ...(init.headers as Record<string, string>),
  };
  const res = await fetch(base + path, { ...init, headers });
  return { status: res.status, body: res.headers.get('content-type')?.includes('json') ? await res.json() : await res.text() };
}

/** Where the two processes meet: one redis-server, or a 3-master Redis Cluster (`redis+cluster://`). */
const BACKENDS = [
  { name: 'one Redis', start: startRedisServer },
  { name: 'a Redis Cluster (3 masters)', start: () => startRedisCluster(3) },
];

for (const backend of BACKENDS)
  describe(`two service processes sharing ${backend.name} behave as one service`, { skip }, () => {
    let redis: { url: string; stop(): Promise<void> };
    let a: ServiceProcess;
    let b: ServiceProcess;
    let key: string;
    before(async () => {
      redis = await backend.start();
      const env = { STORE: 'redis', REDIS_URL: redis.url, PLANS_FILE: plans };
      [a, b] = await Promise.all([startServiceProcess(env), startServiceProcess(env)]);
      const created = await call(a.url, '/v1/admin/keys', {
        method: 'POST',
        headers: { 'x-admin-token': ADMIN_TOKEN },
        body: JSON.stringify({ plan: 'shared' }),
      });
      key = created.body.api_key;
    });
    after(async () => {
      await Promise.all([a?.stop(), b?.stop()]);
      await redis?.stop();
    });

    it('a key created through one process works on the other', async () => {
      assert.equal((await call(b.url, '/v1/account', { key })).status, 200);
    });

    it('captures through A are listed, read, counted and streamed through B in capture order', async () => {
      const bin = (await call(a.url, '/v1/bins', { method: 'POST', key, body: '{}' })).body.bin;
      const stream = collectEvents(`${b.url}/v1/bins/${bin.bin_id}/stream`, key, 5, 20_000);
      await stream.ready;
      const sent: string[] = [];
      for (let i = 0; i < 5; i++) {
        const res = await call(a.url, `/v1/catch/${bin.bin_id}/n${i}?i=${i}`, { method: 'POST', body: JSON.stringify({ i }) });
        assert.equal(res.status, 200);
        sent.push(res.body.request_id);
      }
      const list = await call(b.url, `/v1/bins/${bin.bin_id}/requests`, { key });
      assert.equal(list.body.total, 5);
      assert.deepEqual(
        list.body.requests.map((r: { request_id: string }) => r.request_id),
        [...sent].reverse(),
      );
      const detail = await call(b.url, `/v1/bins/${bin.bin_id}/requests/${sent[2]}`, { key });
      assert.equal(detail.body.request.body, '{"i":2}');
      assert.equal(detail.body.request.query_string, 'i=2');
      assert.equal((await call(b.url, `/v1/bins/${bin.bin_id}`, { key })).body.bin.request_count, 5);
      assert.deepEqual(await stream.events, sent);
    });

    it('credits spent through both processes add up', async () => {
      const { body: fresh } = await call(a.url, '/v1/admin/keys', {
        method: 'POST',
        headers: { 'x-admin-token': ADMIN_TOKEN },
        body: JSON.stringify({ plan: 'shared' }),
      });
      const op = { method: 'POST', key: fresh.api_key, body: JSON.stringify({ operation: 'reverse', arrays: [[1, 2]] }) };
      const codes = [];
      for (const base of [a.url, b.url, a.url, b.url, a.url]) codes.push((await call(base, '/v1/array-ops', op)).status);
      assert.deepEqual(codes, [200, 200, 200, 200, 429]);
      const account = await call(b.url, '/v1/account', { key: fresh.api_key });
      assert.deepEqual({ used: account.body.credits.used, remaining: account.body.credits.remaining }, { used: 4, remaining: 0 });
    });

    it('the rate limit is shared', async () => {
      const { body: fresh } = await call(a.url, '/v1/admin/keys', {
        method: 'POST',
        headers: { 'x-admin-token': ADMIN_TOKEN },
        body: JSON.stringify({ plan: 'shared' }),
      });
      // Stay inside one 60 s window: if the next boundary is close, wait for it to pass.
      const untilBoundary = 60_000 - (Date.now() % 60_000);
      if (untilBoundary < 8_000) await new Promise((r) => setTimeout(r, untilBoundary + 100));
      const codes: number[] = [];
      for (let i = 0; i < 13; i++) codes.push((await call(i % 2 ? b.url : a.url, '/v1/account', { key: fresh.api_key })).status);
      assert.deepEqual(codes, [...Array(12).fill(200), 429]);
    });
  });
