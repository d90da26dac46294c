import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ADMIN_TOKEN } from '../helpers/app.js';
import {
  freePort,
  redisClusterSkipReason,
  startRedisCluster,
  startRedisServer,
  startServiceProcess,
  type RedisCluster,
  type RedisServer,
  type ServiceProcess,
} from '../helpers/processes.js';
import { spawnSync } from 'node:child_process';

const skip = redisClusterSkipReason();

/** Run `devutil serve` expecting it to refuse to start; returns its exit status and stderr. */
function serveRefused(env: Record<string, string>): { status: number | null; stderr: string } {
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'serve'], {
    env: { ...process.env, STORE: 'redis', PORT: '0', ...env },
    encoding: 'utf8',
    timeout: 90_000,
  });
  return { status: run.status, stderr: run.stderr };
}

async function waitReady(url: string): Promise<number> {
  let status = 0;
  for (let i = 0; i < 50 && status !== 200; i++) {
    status = (await fetch(`${url}/readyz`)).status;
    if (status !== 200) await new Promise((r) => setTimeout(r, 200));
  }
  return status;
}

describe('Redis failures', { skip }, () => {
  let redis: RedisServer;
  let service: ServiceProcess;
  let key: string;
  let binId: string;
  before(async () => {
    redis = await startRedisServer();
    service = await startServiceProcess({ STORE: 'redis', REDIS_URL: redis.url });
    const res = await fetch(`${service.url}/v1/admin/keys`, {
      method: 'POST',
      headers: { 'x-admin-token': ADMIN_TOKEN, 'content-type': 'application/json' },
      body: '{}',
    });
    key = ((await res.json()) as { api_key: string }).api_key;
    const bin = await fetch(`${service.url}/v1/bins`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: '{}',
    });
    binId = ((await bin.json()) as { bin: { bin_id: string } }).bin.bin_id;
  });
  after(async () => {
    await service?.stop();
    await redis?.stop();
  });

  const capture = () => fetch(`${service.url}/v1/catch/${binId}`, { method: 'POST', body: 'x' });

  it('answers 503 storage_unavailable while Redis is down (never an acknowledged capture), then recovers', async () => {
    assert.equal((await capture()).status, 200);
    await redis.kill();
    const down = await capture();
    assert.equal(down.status, 503);
    assert.equal(((await down.json()) as { code: string }).code, 'storage_unavailable');
    const ready = await fetch(`${service.url}/readyz`);
    assert.equal(ready.status, 503);
    assert.equal((await fetch(`${service.url}/v1/account`, { headers: { 'x-api-key': key } })).status, 503);
    assert.equal((await fetch(`${service.url}/healthz`)).status, 200, 'the process itself stays alive');

    await redis.restart();
    assert.equal(await waitReady(service.url), 200, 'readiness recovers by itself');
    assert.equal((await capture()).status, 200);
    const list = await fetch(`${service.url}/v1/bins/${binId}/requests`, { headers: { 'x-api-key': key } });
    const body = (await list.json()) as { total: number };
    assert.equal(body.total, 2, 'exactly the acknowledged captures are stored');
  });

  it('refuses to start when Redis cannot be reached, naming REDIS_URL', async () => {
    const run = serveRefused({ REDIS_URL: `redis://127.0.0.1:${await freePort()}` });
    assert.equal(run.status, 1);
    assert.match(run.stderr, /REDIS_URL cannot be reached: no Redis answered at redis:\/\/127\.0\.0\.1:\d+/);
  });

  it('refuses to start when REDIS_URL names a cluster but the server is a single Redis', async () => {
    const run = serveRefused({ REDIS_URL: `redis+cluster://127.0.0.1:${redis.port}` });
    assert.equal(run.status, 1);
    assert.match(
      run.stderr,
      /REDIS_URL cannot be reached: no Redis Cluster answered at redis\+cluster:\/\/127\.0\.0\.1:\d+ .*cluster support disabled/,
    );
  });
});

describe('Redis Cluster failures', { skip }, () => {
  let cluster: RedisCluster;
  let service: ServiceProcess;
  before(async () => {
    cluster = await startRedisCluster();
    service = await startServiceProcess({ STORE: 'redis', REDIS_URL: cluster.url });
  });
  after(async () => {
    await service?.stop();
    await cluster?.stop();
  });

  const newKey = async () => {
    const res = await fetch(`${service.url}/v1/admin/keys`, {
      method: 'POST',
      headers: { 'x-admin-token': ADMIN_TOKEN, 'content-type': 'application/json' },
      body: '{}',
    });
    return ((await res.json()) as { api_key: string }).api_key;
  };
  const newBin = async (key: string) => {
    const res = await fetch(`${service.url}/v1/bins`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: '{}',
    });
    return ((await res.json()) as { bin: { bin_id: string } }).bin.bin_id;
  };

  it('answers 503 storage_unavailable while the cluster is down, then recovers by itself', async () => {
    const binId = await newBin(await newKey());
    assert.equal((await fetch(`${service.url}/v1/catch/${binId}`, { method: 'POST', body: 'x' })).status, 200);
    await cluster.kill();
    const down = await fetch(`${service.url}/v1/catch/${binId}`, { method: 'POST', body: 'x' });
    assert.equal(down.status, 503);
    assert.equal(((await down.json()) as { code: string }).code, 'storage_unavailable');
    assert.equal((await fetch(`${service.url}/readyz`)).status, 503);
    assert.equal((await fetch(`${service.url}/healthz`)).status, 200, 'the process itself stays alive');

    await cluster.restart(); // slots come back, data does not (the test cluster does not persist)
    assert.equal(await waitReady(service.url), 200, 'readiness recovers by itself');
    const key = await newKey();
    const bin = await newBin(key);
    assert.equal((await fetch(`${service.url}/v1/catch/${bin}`, { method: 'POST', body: 'y' })).status, 200);
    const list = await fetch(`${service.url}/v1/bins/${bin}/requests`, { headers: { 'x-api-key': key } });
    assert.equal(((await list.json()) as { total: number }).total, 1);
  });

  it('refuses to start when no cluster node answers, naming REDIS_URL', async () => {
    const run = serveRefused({ REDIS_URL: `redis+cluster://127.0.0.1:${await freePort()},127.0.0.1:${await freePort()}` });
    assert.equal(run.status, 1);
    assert.match(
      run.stderr,
      /REDIS_URL cannot be reached: no Redis Cluster answered at redis\+cluster:\/\/127\.0\.0\.1:\d+,127\.0\.0\.1:\d+/,
    );
  });
});
